/* The latency backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/latency-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first walk ends on the wrong word: its end off in the
 *           lowest bit */
#include "latency/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY };
CR_FAULT_DECORATOR(lt_backend, "verify");

static cr_status run(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen)
{
    cr_status st = inner->run(steps, start, t, out, err, errlen);
    if (st == CR_OK && cr_fault_first(fault, VERIFY, &planted))
        out->end ^= 1;
    return st;
}

static void install(lt_backend *f)
{
    f->run = run;
}

CR_FAULTY_MAIN(latency_main, lt_backend, install)
