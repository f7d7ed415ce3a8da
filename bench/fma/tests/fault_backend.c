/* The fma backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/fma-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first end values read back are wrong: the middle one of
 *           the chains the design checks (fma/truth.h) off in its lowest
 *           mantissa bit */
#include "fma/backend.h"

#include "fma/truth.h"
#include "tests/planted_fault.h"

enum { VERIFY };
CR_FAULT_DECORATOR(fma_backend, "verify");
static cr_dtype dtype;

static cr_status prepare(cr_dtype t, uint64_t work_items, unsigned ilp, const void *seeds, char *err, size_t errlen)
{
    dtype = t;
    return inner->prepare(t, work_items, ilp, seeds, err, errlen);
}

static cr_status download(void *dst, uint64_t n, char *err, size_t errlen)
{
    cr_status st = inner->download(dst, n, err, errlen);
    if (st != CR_OK || n == 0 || !cr_fault_first(fault, VERIFY, &planted))
        return st;
    uint64_t count = fma_sample_count(n);
    uint64_t chain = fma_sample_chain(count / 2, count, n);
    ((unsigned char *)dst)[chain * cr_dtype_size(dtype)] ^= 1u; /* the lowest mantissa bit on a little-endian host */
    return CR_OK;
}

static void install(fma_backend *f)
{
    f->prepare = prepare;
    f->download = download;
}

CR_FAULTY_MAIN(fma_main, fma_backend, install)
