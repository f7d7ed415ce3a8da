/* End to end: every CUDA executable asked for --list-devices on a machine
 * without a GPU says so as its other errors do, "<program>: skipped: no
 * CUDA device: ...", one line, nothing on stdout, exit 77. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

static const char *const cuda_executables[] = {"stream-cuda", "bandwidth-cuda", "atomics-cuda", "regspill-cuda",
                                               "sfu-cuda",    "fma-cuda",       "latency-cuda"};

static void test_listing_without_gpu_is_one_prefixed_line(void **state)
{
    (void)state;
    require_no_gpu();
    for (size_t i = 0; i < countof(cuda_executables); ++i) {
        const char *bin = cuda_executables[i];
        if (!cuda_binary_built(bin))
            skip();
        run_result r = run(NULL, bin, "--list-devices");
        expect_skip_line(&r, bin, "no CUDA device: ");
        if (r.out[0] != '\0')
            fail_msg("%s --list-devices without a device wrote on stdout: %s", bin, r.out);
        run_free(&r);
    }
}

CLI_TEST_MAIN(test_listing_without_gpu_is_one_prefixed_line)
