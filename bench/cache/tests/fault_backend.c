/* The cache backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/cache-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first walk, by the walker or with a load kind, ends on the
 *           wrong word: its end off in the lowest bit */
#include "cache/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY };
CR_FAULT_DECORATOR(cc_backend, "verify");
static lt_backend faulty_chase;

static cr_status spoil_end(cr_status st, lt_walk_out *out)
{
    if (st == CR_OK && cr_fault_first(fault, VERIFY, &planted))
        out->end ^= 1;
    return st;
}

static cr_status chase_run(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen)
{
    return spoil_end(inner->chase->run(steps, start, t, out, err, errlen), out);
}

static cr_status run_kind(unsigned kind, uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err,
                          size_t errlen)
{
    return spoil_end(inner->run_kind(kind, steps, start, t, out, err, errlen), out);
}

static void install(cc_backend *f)
{
    faulty_chase = *inner->chase;
    faulty_chase.run = chase_run;
    f->chase = &faulty_chase;
    f->run_kind = inner->run_kind ? run_kind : NULL;
}

CR_FAULTY_MAIN(cache_main, cc_backend, install)
