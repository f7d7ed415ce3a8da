/* End-to-end tests of the latency executables: a small run on the OpenCL
 * device beside the host's walk, every row verified and the level rows
 * derived from it; latency growing from L1 to beyond the caches; chains
 * forced into pieces; the planted verification failure; bad input; no
 * device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "latency"
#include "tests/cli_harness.h"

#include <math.h>

/* The footprint row's figure at size bytes on backend, NaN when absent. */
static double latency_at(const table *t, const char *backend, uint64_t size)
{
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "sweep", "footprint") && cell_is(t, j, "backend", backend) &&
            strtoull(cell(t, j, "size_bytes"), NULL, 10) == size)
            return strtod(cell(t, j, "figure"), NULL);
    return NAN;
}

/* The clock the run's metadata gives the device, 0 when it gives none. */
static unsigned meta_clock_mhz(const char *dir, const char *bin)
{
    char *meta = slurp_tmp("%s/%s.meta.csv", dir, bin);
    const char *key = "\ndevice.clock_mhz,", *at = strstr(meta, key);
    unsigned mhz = at ? (unsigned)strtoul(at + strlen(key), NULL, 10) : 0;
    free(meta);
    return mhz;
}

/* Neither OpenCL nor the host's walk counts the cycles of the core that
 * walked: the cycles column is empty. A device row converts its ns with
 * the clock the device reports, as cycles_from_clock=, only where it
 * reports one. */
static void expect_cycles_from_clock(const table *t, int j, unsigned device_mhz)
{
    assert_string_equal(cell(t, j, "cycles"), "");
    if (!cell_is(t, j, "backend", "opencl") || cell(t, j, "figure")[0] == '\0')
        return;
    char buf[32];
    param_text(t, j, "cycles_from_clock", buf, sizeof buf);
    if (device_mhz == 0) {
        assert_string_equal(buf, "");
        return;
    }
    double want = strtod(cell(t, j, "figure"), NULL) * device_mhz * 1e-3;
    if (!(buf[0] && fabs(strtod(buf, NULL) - want) <= 0.051))
        fail_msg("row %d: cycles_from_clock=%s, want %.2f (%u MHz)", j, buf, want, device_mhz);
}

static void test_small_run_is_verified(void **state)
{
    (void)state;
    table t = run_csv(NULL, "latency-opencl", "--footprint 4K:1M:x4 --quick", "small", 0, NULL);
    expect_all_valid(&t);
    unsigned device_mhz = meta_clock_mhz("small", "latency-opencl");
    const char *backends[] = {"opencl", "host"};
    int footprint_rows[2] = {0}, memory_rows[2] = {0}, cache_rows[2] = {0};
    for (int j = 0; j < t.nrows; ++j) {
        assert_string_equal(cell(&t, j, "benchmark"), "latency");
        assert_string_equal(cell(&t, j, "unit"), "ns");
        assert_string_equal(cell(&t, j, "work_items"), "1");
        int b = cell_is(&t, j, "backend", "host");
        assert_true(b || cell_is(&t, j, "backend", "opencl"));
        expect_cycles_from_clock(&t, j, device_mhz);
        if (cell_is(&t, j, "sweep", "footprint")) {
            footprint_rows[b]++;
            assert_string_equal(cell(&t, j, "variant"), "pointer-chase");
            double ns = strtod(cell(&t, j, "figure"), NULL), best = strtod(cell(&t, j, "figure_best"), NULL);
            assert_true(ns > 0 && best > 0 && best <= ns);
            /* ns per load is the median repetition over the steps it walked */
            long long steps = param_ll(&t, j, "steps");
            assert_true(steps >= 1024);
            assert_true(fabs(strtod(cell(&t, j, "median_s"), NULL) / (double)steps * 1e9 - ns) <= 1e-3 * ns);
            assert_int_equal(param_ll(&t, j, "line"), 64); /* PoCL and the host: 64-byte lines */
            assert_string_equal(cell(&t, j, "timer"), b ? "host" : "event");
            if (!b)
                assert_true(strtod(cell(&t, j, "ref_ratio"), NULL) > 0);
        } else {
            assert_string_equal(cell(&t, j, "sweep"), "level");
            if (cell_is(&t, j, "variant", "memory")) {
                memory_rows[b]++;
                /* 1 MiB is not 4x any last-level cache: no L, and the row says so. */
                assert_true(isnan(strtod(cell(&t, j, "figure"), NULL)) || cell(&t, j, "figure")[0] == '\0');
                expect_cell_has(&t, j, "note", "no main-memory latency");
                continue;
            }
            cache_rows[b]++;
            long long cache_bytes = param_ll(&t, j, "cache_bytes"), fp = param_ll(&t, j, "footprint");
            assert_true(cache_bytes > 0);
            if (fp < 0) { /* no footprint fits the level: unmeasured, with why */
                expect_cell_has(&t, j, "note", "no swept footprint");
                continue;
            }
            /* The level's figure is the footprint row's, at most half the level. */
            assert_true(fp <= cache_bytes / 2);
            assert_true(strtod(cell(&t, j, "figure"), NULL) == latency_at(&t, backends[b], (uint64_t)fp));
            expect_cell_has(&t, j, "note", "from the footprint row at");
        }
    }
    for (int b = 0; b < 2; ++b) {
        assert_int_equal(footprint_rows[b], 5); /* 4K, 16K, 64K, 256K, 1M */
        assert_int_equal(memory_rows[b], 1);
        assert_true(cache_rows[b] >= 1);        /* hwloc knows an L1 at least */
        /* 1 MiB is 256 times 4 KiB: it cannot be served by the L1 that serves 4 KiB. */
        double small = latency_at(&t, backends[b], 4096), large = latency_at(&t, backends[b], 1 << 20);
        if (!(large > small))
            fail_msg("%s: %g ns at 1 MiB, %g ns at 4 KiB", backends[b], large, small);
    }
    table_free(&t);
    expect_meta_keys("small", "latency-opencl", "chain", "device_cache_levels", "device_line_bytes",
                     "host_cache_levels", "host_reference", "device.name");
}

/* Beyond the last-level cache a load waits for DRAM (and a page walk):
 * tens of L1 hits' worth on any machine. 64 MiB is beyond the LLC of the
 * machines this runs on; four times is a margin no noise closes. */
static void test_latency_grows_beyond_the_caches(void **state)
{
    (void)state;
    table t = run_csv(NULL, "latency-opencl", "--footprint 4K:64M:x16384 --quick --host-ref off", "grow", 0, NULL);
    double small = latency_at(&t, "opencl", 4096), large = latency_at(&t, "opencl", UINT64_C(64) << 20);
    if (!(large > 4 * small))
        fail_msg("%g ns at 64 MiB, %g ns at 4 KiB", large, small);
    assert_true(isnan(latency_at(&t, "host", 4096))); /* --host-ref off */
    table_free(&t);
}

/* The row of the overhead sweep, -1 when absent. */
static int overhead_row(const table *t)
{
    int found = -1;
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "sweep", "overhead")) {
            assert_int_equal(found, -1); /* one at most */
            found = j;
        }
    return found;
}

/* --piece-bytes 8K splits 16 KiB into 2 pieces and 256 KiB into 32, the
 * most there may be: every row verified, each saying its pieces, and the
 * overhead row the difference of its two walks. The same sweep without it
 * keeps every chain in one buffer and has no overhead row. */
static void test_forced_pieces_are_verified(void **state)
{
    (void)state;
    const char *args = "--footprint 16K:256K:x16 --quick --host-ref off";
    char forced[256];
    snprintf(forced, sizeof forced, "%s --piece-bytes 8K", args);
    table a = run_csv(NULL, "latency-opencl", forced, "pieces", 0, NULL);
    table b = run_csv(NULL, "latency-opencl", args, "one-buffer", 0, NULL);
    expect_all_valid(&a);
    expect_all_valid(&b);
    /* The footprint rows and the level rows taken from them. */
    int split_rows = 0;
    for (int j = 0; j < a.nrows; ++j) {
        if (cell_is(&a, j, "sweep", "overhead") || cell(&a, j, "size_bytes")[0] == '\0')
            continue;
        long long size = strtoll(cell(&a, j, "size_bytes"), NULL, 10);
        assert_int_equal(param_ll(&a, j, "pieces"), size / 8192);
        assert_int_equal(param_ll(&a, j, "piece_bytes"), 8192);
        expect_cell_has(&a, j, "note", "pieces");
        split_rows += size == 262144;
    }
    assert_int_equal(count_where(&a, "sweep", "footprint", NULL), 2);
    assert_true(split_rows >= 2); /* 256 KiB: its footprint row and the L2 row (half of the 1 MiB L2) */
    int o = overhead_row(&a);
    assert_true(o >= 0);
    assert_string_equal(cell(&a, o, "variant"), "piece-select");
    assert_int_equal(param_ll(&a, o, "pieces"), 2);
    char buf[32];
    double single = strtod(param_text(&a, o, "single_ns", buf, sizeof buf), NULL);
    double pieces = strtod(param_text(&a, o, "pieces_ns", buf, sizeof buf), NULL);
    double extra = strtod(cell(&a, o, "figure"), NULL);
    assert_true(single > 0 && pieces > 0);
    assert_true(fabs(pieces - single - extra) <= 2e-3);
    /* How much the choice costs is a measurement the row reports, not a
     * test's assertion: on a shared machine one walk can run at half speed. */
    assert_int_equal(overhead_row(&b), -1);
    for (int j = 0; j < b.nrows; ++j)
        assert_int_equal(param_ll(&b, j, "pieces"), -1);
    table_free(&a);
    table_free(&b);
    expect_meta_keys("pieces", "latency-opencl", "chain_pieces");
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    /* the device's first point; the host's walk is not touched */
    int j;
    table t = run_planted_failure(&j, "verify", "latency-opencl", "--footprint 4K:16K:x4 --quick", "fault", "backend",
                                  "opencl", "verification:", "expected", (const char *)NULL);
    assert_string_equal(cell(&t, j, "size_bytes"), "4096");
    table_free(&t);
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_no_device_is_skipped, test_cuda_binary_without_gpu,
              test_planted_verification_failure_fails_the_run, test_small_run_is_verified,
              test_latency_grows_beyond_the_caches, test_forced_pieces_are_verified)
