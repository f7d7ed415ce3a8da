/* The latency backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/latency-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first walk ends on the wrong word: its end off in the
 *           lowest bit */
#include "latency/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY };
static const char *const fault_names[] = {"verify"};

static const lt_backend *inner;
static lt_backend faulty;
static int fault = -1;
static bool planted;

static cr_status run(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen)
{
    cr_status st = inner->run(steps, start, t, out, err, errlen);
    if (st == CR_OK && cr_fault_first(fault, VERIFY, &planted))
        out->end ^= 1;
    return st;
}

int __real_latency_main(int argc, char **argv, const lt_backend *backend);
int __wrap_latency_main(int argc, char **argv, const lt_backend *backend);

int __wrap_latency_main(int argc, char **argv, const lt_backend *backend)
{
    fault = cr_planted_fault(fault_names, sizeof fault_names / sizeof fault_names[0]);
    inner = backend;
    faulty = *backend;
    faulty.run = run;
    return __real_latency_main(argc, argv, &faulty);
}
