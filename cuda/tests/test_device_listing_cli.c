/* End to end: every CUDA executable asked for --list-devices on a machine
 * without a GPU says so as its other errors do, "<program>: skipped: no
 * CUDA device: ...", one line, nothing on stdout, exit 77; and an --out it
 * could never write is refused as usage (exit 2) before the device is
 * looked for, one it could leaves the tree as it was. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

static const char *const cuda_executables[] = {"stream-cuda", "bandwidth-cuda", "atomics-cuda", "regspill-cuda",
                                               "sfu-cuda",    "fma-cuda",       "latency-cuda", "cache-cuda"};

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

static void test_bad_out_is_usage_before_the_device(void **state)
{
    (void)state;
    require_no_gpu();
    char path[400], args[900], text[1000];
    snprintf(path, sizeof path, "%s/a-file", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fclose(f), 0);
    for (size_t i = 0; i < countof(cuda_executables); ++i) {
        const char *bin = cuda_executables[i];
        if (!cuda_binary_built(bin))
            skip();
        snprintf(args, sizeof args, "--quick --out %s", path);
        snprintf(text, sizeof text, "%s: error: --out: %s exists and is not a directory\n", bin, path);
        run_result r = run(NULL, bin, args);
        if (r.status != 2 || strcmp(r.err, text) != 0)
            fail_msg("%s %s: status %d (want 2), stderr: %s(want: %s)", bin, args, r.status, r.err, text);
        run_free(&r);
        /* A folder it can make: looked at, then left as it was. */
        snprintf(args, sizeof args, "--quick --out %s/new-%zu/deeper", tmp, i);
        r = run(NULL, bin, args);
        if (strcmp(bin, "regspill-cuda") != 0) { /* which writes its offline table without a GPU */
            expect_skip_line(&r, bin, "no CUDA device: ");
            char made[420];
            snprintf(made, sizeof made, "%s/new-%zu", tmp, i);
            struct stat st;
            if (stat(made, &st) == 0)
                fail_msg("%s %s without a device left %s behind", bin, args, made);
        }
        run_free(&r);
    }
}

/* What they print must arrive, with a GPU or without: --help into a full
 * disk or a closed stdout is a failure said in one line. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    for (size_t i = 0; i < countof(cuda_executables); ++i) {
        if (!cuda_binary_built(cuda_executables[i]))
            skip();
        expect_unwritable_stdout_said(cuda_executables[i], "--help", ">/dev/full");
        expect_unwritable_stdout_said(cuda_executables[i], "--help", ">&-");
    }
}

CLI_TEST_MAIN(test_listing_without_gpu_is_one_prefixed_line, test_bad_out_is_usage_before_the_device,
              test_unwritable_stdout_fails)
