/* The GPU check on the one GPU run kept in the tree,
 * results/reference/NVIDIA_H200: a partial run of an H200 by hand. Every
 * figure it holds is judged plausible, the figures it lacks are missing,
 * and the run as a whole fails: five benchmarks hit their time limit. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu_check/rules.h"
#include "gpu_check/tests/verdicts.h"
#include "tests/test_main.h"

#include <stdbool.h>
#include <string.h>

/* Unit tests run from the source tree's root (the Makefile runs them
 * there); CR_SOURCE_DIR, where the build defines it, says so anywhere. */
#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif
#define H200_RUN CR_SOURCE_DIR "/results/reference/NVIDIA_H200"

/* The figures the H200 measured, each with the value the table shows. */
static const char *const measured[][2] = {
    {"kernel read", "4093 GB/s"},
    {"L2 latency", "280 cycles"},
    {"memory latency", "318.7 ns"},
    {"memory latency cycles", "630.1 cycles"},
};

/* The figures it did not measure, each with the reason's words: stream
 * stopped at 256 KiB arrays, fma before its first row; the bandwidth run
 * took the asynchronous copies and the older local-memory kernel. */
static const char *const absent[][2] = {
    {"triad double", "no row of variant triad, dtype double, sweep footprint in stream-cuda.csv"},
    {"triad float", "the largest point (stream-cuda.csv:10) is 256 KiB, below 4x the 60 MiB L2"},
    {"local memory", "no row of variant kernel-local-memory, sweep local-width in bandwidth-cuda.csv"},
    {"H2D pinned", "no row of variant h2d-memcpy-pinned, sweep size in bandwidth-cuda.csv"},
    {"D2H pinned", "no row of variant d2h-memcpy-pinned, sweep size in bandwidth-cuda.csv"},
    {"managed on demand", "no row of variant kernel-read-managed, sweep size in bandwidth-cuda.csv"},
    {"FMA float", "fma-cuda.csv: the header only, no rows"},
    {"FMA double", "fma-cuda.csv: the header only, no rows"},
};

static bool listed(const char *const (*list)[2], size_t n, const char *figure)
{
    for (size_t i = 0; i < n; ++i)
        if (strcmp(list[i][0], figure) == 0)
            return true;
    return false;
}

/* Every rule is in one list or the other: a new rule says here what the
 * H200 run makes of it. */
static void test_every_rule_is_accounted_for(void **state)
{
    (void)state;
    for (size_t i = 0; i < gc_rule_count(); ++i) {
        bool ok = listed(measured, sizeof measured / sizeof measured[0], gc_rule_at(i)->figure),
             missing = listed(absent, sizeof absent / sizeof absent[0], gc_rule_at(i)->figure);
        if (ok == missing)
            fail_msg("the rule '%s' is %s", gc_rule_at(i)->figure, ok ? "in both lists" : "in neither list");
    }
}

static void test_measured_figures_are_plausible(void **state)
{
    (void)state;
    result r = check(H200_RUN, "1");
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; ++i) {
        expect_line(&r, measured[i][0], measured[i][1]);
        expect_line(&r, measured[i][0], "  ok: ");
    }
    expect_line(&r, "kernel read", "3370..4670 GB/s (0.70..0.97 x 4814, peak.memory_GBps)");
    expect_line(&r, "L2 latency", "180..450 cycles");
    expect_line(&r, "memory latency", "200..500 ns");
    expect_line(&r, "memory latency cycles", "400..1000 cycles");
    assert_null(strstr(r.out, "the plausible range"));
    assert_string_equal(r.err, "");
    result_free(&r);
}

static void test_absent_figures_are_missing(void **state)
{
    (void)state;
    result r = check(H200_RUN, "1");
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; ++i) {
        expect_line(&r, absent[i][0], "  FAILED: missing: ");
        expect_line(&r, absent[i][0], absent[i][1]);
    }
    result_free(&r);
}

/* The files: every row verified; fma's holds its header alone. The
 * benchmarks: five stopped at their limit. Twelve lines ok, fourteen
 * failed: the run fails, as a partial run must. */
static void test_partial_run_fails(void **state)
{
    (void)state;
    result r = check(H200_RUN, "1");
    static const char *const files[][2] = {
        {"atomics-cuda.csv", "ok: 20 rows, all valid"},     {"bandwidth-cuda.csv", "ok: 92 rows, all valid"},
        {"latency-cuda.csv", "ok: 12 rows, all valid"},     {"regspill-cuda.csv", "ok: 2 rows, all valid"},
        {"sfu-cuda.csv", "ok: 344 rows, all valid"},        {"stream-cuda.csv", "ok: 10 rows, all valid"},
        {"fma-cuda.csv", "FAILED: missing: the header only"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i)
        expect_line(&r, files[i][0], files[i][1]);
    static const char *const timed_out[] = {"stream-cuda", "fma-cuda", "atomics-cuda", "sfu-cuda", "regspill-cuda"};
    for (size_t i = 0; i < sizeof timed_out / sizeof timed_out[0]; ++i) {
        char what[64];
        snprintf(what, sizeof what, "%s on NVIDIA H200", timed_out[i]);
        expect_line(&r, what, "FAILED: failed (exit 124): timed out: stopped at its limit of ");
    }
    expect_line(&r, "latency-cuda on NVIDIA H200", "ok: passed");
    expect_line(&r, "bandwidth-cuda on NVIDIA H200", "ok: passed");
    expect_status(&r, 1, "gpu-check: FAILED: 12 ok, 14 failed, 0 unjudged, 0 skipped");
    result_free(&r);
}

TEST_MAIN(NULL, NULL, test_every_rule_is_accounted_for, test_measured_figures_are_plausible,
          test_absent_figures_are_missing, test_partial_run_fails)
