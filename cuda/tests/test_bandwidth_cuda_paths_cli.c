/* End to end, bandwidth-cuda's paths without a GPU: --list-paths names
 * every host<->device, duplex, malloc and multi-device path with its
 * description; --paths takes their keys and, with no device to run on, the
 * run is one skip line (exit 77); a key that is no path is refused before
 * anything else, exit 2. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

static const char *const bin = "bandwidth-cuda";

static const char *const new_paths[] = {
    "h2d-kernel-copy-pinned", "d2h-kernel-copy-pinned", "duplex-copy-pinned", "duplex-kernel-copy-pinned",
    "kernel-read-malloc",     "kernel-write-malloc",    "p2p-read-copy",      "p2p-write-copy",
    "p2p-read-kernel",        "p2p-write-kernel",       "all-to-one-copy",    "all-to-one-kernel",
    "one-to-all-copy",        "one-to-all-kernel",      "all-to-host-copy",   "all-to-host-kernel",
    "host-to-all-copy",       "host-to-all-kernel",
};

/* Each key once, at the start of its line, with a description after it. */
static void test_listing_names_every_new_path(void **state)
{
    (void)state;
    require_cuda_binary(bin);
    run_result r = run_with_status(0, NULL, bin, "--list-paths");
    for (size_t i = 0; i < countof(new_paths); ++i) {
        char line[128];
        snprintf(line, sizeof line, "\n%s ", new_paths[i]);
        const char *at = strstr(r.out, line);
        if (at == NULL)
            fail_msg("--list-paths has no line for %s:\n%s", new_paths[i], r.out);
        assert_null(strstr(at + 1, line));
        const char *desc = at + strlen(line);
        desc += strspn(desc, " ");
        assert_true(strcspn(desc, "\n") > 20);
    }
    run_free(&r);
}

static void test_new_paths_are_accepted_then_skipped_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary(bin);
    require_no_gpu();
    static const char *const lists[] = {
        "--quick --paths p2p-read-copy",
        "--quick --paths duplex-copy-pinned,kernel-read-malloc,all-to-host-kernel,host-to-all-copy",
    };
    for (size_t i = 0; i < countof(lists); ++i) {
        run_result r = run(NULL, bin, lists[i]);
        expect_skip_line(&r, bin, "no CUDA device: ");
        if (r.out[0] != '\0')
            fail_msg("%s %s without a device wrote on stdout: %s", bin, lists[i], r.out);
        run_free(&r);
    }
}

static void test_unknown_path_is_refused(void **state)
{
    (void)state;
    require_cuda_binary(bin);
    const char *args = "--quick --paths p2p-read-copy,p2p-sideways-copy";
    run_result r = run(NULL, bin, args);
    expect_error_line(&r, bin, args, 2, "--paths: unknown path 'p2p-sideways-copy'");
    run_free(&r);
}

CLI_TEST_MAIN(test_listing_names_every_new_path, test_new_paths_are_accepted_then_skipped_without_gpu,
              test_unknown_path_is_refused)
