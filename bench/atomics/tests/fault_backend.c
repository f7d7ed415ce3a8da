/* The atomics backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/atomics-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first counters read back are wrong: counter 0 off in its
 *           lowest bit */
#include "atomics/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY };
CR_FAULT_DECORATOR(at_backend, "verify");

static cr_status download(void *dst, uint64_t n, char *err, size_t errlen)
{
    cr_status st = inner->download(dst, n, err, errlen);
    if (st == CR_OK && n > 0 && cr_fault_first(fault, VERIFY, &planted))
        ((unsigned char *)dst)[0] ^= 1u; /* the lowest bit of either type on a little-endian host */
    return st;
}

static void install(at_backend *f)
{
    f->download = download;
}

CR_FAULTY_MAIN(atomics_main, at_backend, install)
