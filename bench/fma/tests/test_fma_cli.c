/* End-to-end tests of the fma executables: a small sweep on the OpenCL
 * device whose rows are all verified, counted and in ascending concurrency;
 * the quick run's curves, each of at least five points; a type's rows kept
 * by a run stopped in the next; the planted verification failure; bad
 * input; no device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "fma"
#include "tests/cli_harness.h"

#include <math.h>

static void test_small_sweep_is_verified_and_ordered(void **state)
{
    (void)state;
    table t = run_csv(NULL, "fma-opencl", "--ilp 1,4 --per-cu 1:16:x4 --types float,double --quick", "small", 0, NULL);
    expect_all_valid(&t);
    /* 2 types x 2 chain counts x concurrency 1, 4, 16. */
    assert_int_equal(t.nrows, 12);
    const char *types[2] = {"float", "double"};
    const long long ilps[2] = {1, 4}, per_cu[3] = {1, 4, 16};
    for (int j = 0; j < t.nrows; ++j) {
        assert_string_equal(cell(&t, j, "benchmark"), "fma");
        assert_string_equal(cell(&t, j, "variant"), "fma");
        assert_string_equal(cell(&t, j, "sweep"), "concurrency");
        assert_string_equal(cell(&t, j, "unit"), "Gflop/s");
        /* Types, then chain counts, then concurrency ascending. */
        assert_string_equal(cell(&t, j, "dtype"), types[j / 6]);
        assert_int_equal(param_ll(&t, j, "ilp"), ilps[j / 3 % 2]);
        assert_int_equal(param_ll(&t, j, "per_cu"), per_cu[j % 3]);
        if (j % 3)
            assert_true(atoll(cell(&t, j, "work_items")) > atoll(cell(&t, j - 1, "work_items")));
        const char *params = cell(&t, j, "params");
        assert_true(strstr(params, "per_cu_unit=work-items") || strstr(params, "per_cu_unit=warps"));
        long long iters = param_ll(&t, j, "iters"), lanes = param_ll(&t, j, "lanes");
        assert_true(iters >= 32);
        lanes = lanes < 0 ? 1 : lanes;
        long long chains = atoll(cell(&t, j, "work_items")) * ilps[j / 3 % 2] * lanes;
        /* Two flops per fused multiply-add of every chain (the CSV keeps
         * nine digits). */
        double ops = 2.0 * (double)chains * (double)iters;
        assert_true(fabs(atof(cell(&t, j, "ops_per_rep")) - ops) <= 1e-8 * ops);
        assert_int_equal(param_ll(&t, j, "checked"), chains < 4096 ? chains : 4096);
        double fig = atof(cell(&t, j, "figure")), best = atof(cell(&t, j, "figure_best"));
        assert_true(fig > 0 && best >= fig);
        assert_true(atoi(cell(&t, j, "n")) >= 5);
        /* The points of a type are measured as one interleaved group. */
        assert_string_equal(cell(&t, j, "n"), cell(&t, j / 6 * 6, "n"));
    }
    table_free(&t);
    expect_meta_keys("small", "fma-opencl", "schedule", "operands", "verification", "per_cu_unit");
}

/* The quick run's g(x) curves, one per type and chain count, each sweep
 * its concurrency over at least five distinct points: fewer cannot show
 * where the curve rises, bends and flattens. */
static void gx_curve(const table *t, int row, char *key, size_t len)
{
    snprintf(key, len, "%s ilp=%lld", cell(t, row, "dtype"), param_ll(t, row, "ilp"));
}

static void test_quick_curves_have_five_points(void **state)
{
    (void)state;
    table t = run_csv(NULL, "fma-opencl", "--quick", "quick", 0, NULL);
    expect_all_valid(&t);
    /* float and double (PoCL runs both), each with the quick chain counts */
    assert_true(expect_curves_of(&t, "concurrency", gx_curve, "per_cu", 5) >= 2);
    table_free(&t);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    table t = run_planted("verify", "fma-opencl", "--ilp 2 --per-cu 1:4:x4 --types float --quick", "fault");
    assert_int_equal(t.nrows, 2);
    /* The first point is the one corrupted; the next one is checked anew. */
    assert_int_equal(only_invalid_row(&t), 0);
    expect_cell_has(&t, 0, "note", "1 of");
    expect_cell_has(&t, 0, "note", "differ from the host's fma");
    assert_string_equal(cell(&t, 1, "valid"), "1");
    table_free(&t);
}

/* Runs fma ($1) into the directory $2 and watches its CSV: once both float
 * rows are there, and a tenth of a second later still no double row while
 * fma runs, it says so and stops fma, as a budget running out would. */
static const char stop_after_float[] =
    "\"$1\" --ilp 1 --per-cu 1:4:x4 --types float,double --quick --reps 5:1000 --min-time 0.3 --out \"$2\" &\n"
    "pid=$!; csv=$2/fma-opencl.csv\n"
    "while kill -0 $pid 2>/dev/null; do\n"
    "    if [ \"$(grep -c ,fma,float,concurrency, \"$csv\" 2>/dev/null)\" = 2 ]; then\n"
    "        sleep 0.1\n"
    "        [ \"$(grep -c ,fma,double, \"$csv\")\" = 0 ] && kill -0 $pid && echo float written while double ran\n"
    "        kill -TERM $pid; break\n"
    "    fi\n"
    "    sleep 0.02\n"
    "done\n"
    "wait $pid\n";

/* A type's points are measured together, then each is checked and its row
 * written: the float rows are on disk while double is measured, and a run
 * stopped there (its budget spent) keeps them, and nothing of double. */
static void test_a_type_is_written_before_the_next_runs(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "sh -c '%s' sh %s/fma-opencl %s/stopped", stop_after_float, bin_dir, tmp);
    run_result r = run_shell(cmd);
    expect_in(r.out, "float written while double ran");
    run_free(&r);
    char *csv = NULL;
    assert_true(asprintf(&csv, "%s/stopped/fma-opencl.csv", tmp) > 0);
    table t = read_table(csv);
    free(csv);
    for (int j = 0; j < t.nrows; ++j) {
        assert_string_equal(cell(&t, j, "dtype"), "float");
        assert_string_equal(cell(&t, j, "valid"), "1");
        assert_true(atof(cell(&t, j, "figure")) > 0);
    }
    assert_int_equal(t.nrows, 2);
    table_free(&t);
}

static void test_help_names_the_options(void **state)
{
    (void)state;
    expect_output("fma-opencl", "--help", 0, "--ilp", "--per-cu", "--types");
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_help_names_the_options, test_no_device_is_skipped,
              test_cuda_binary_without_gpu, test_planted_verification_failure_fails_the_run,
              test_small_sweep_is_verified_and_ordered, test_quick_curves_have_five_points,
              test_a_type_is_written_before_the_next_runs)
