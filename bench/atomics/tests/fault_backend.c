/* The atomics backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/atomics-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first counters read back are wrong: counter 0 off in its
 *           lowest bit */
#include "atomics/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY };
static const char *const fault_names[] = {"verify"};

static const at_backend *inner;
static at_backend faulty;
static int fault = -1;
static bool planted;

static cr_status download(void *dst, uint64_t n, char *err, size_t errlen)
{
    cr_status st = inner->download(dst, n, err, errlen);
    if (st == CR_OK && n > 0 && cr_fault_first(fault, VERIFY, &planted))
        ((unsigned char *)dst)[0] ^= 1u; /* the lowest bit of either type on a little-endian host */
    return st;
}

int __real_atomics_main(int argc, char **argv, const at_backend *backend);
int __wrap_atomics_main(int argc, char **argv, const at_backend *backend);

int __wrap_atomics_main(int argc, char **argv, const at_backend *backend)
{
    fault = cr_planted_fault(fault_names, sizeof fault_names / sizeof fault_names[0]);
    inner = backend;
    faulty = *backend;
    faulty.download = download;
    return __real_atomics_main(argc, argv, &faulty);
}
