/* End-to-end tests of the gesummv executables: the quick run on the OpenCL
 * device, its rows' structure and verification (never its speeds); the
 * planted faults; bad input; no device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "gesummv"
#include "tests/cli_harness.h"

#include <math.h>

/* A row's bytes and operations follow from its order n and type. */
static void expect_row_counts(const table *t, int j, long long n)
{
    double es = cell_is(t, j, "dtype", "double") ? 8 : 4, nn = (double)n;
    double bytes = (2 * nn * nn + 2 * nn) * es, ops = 4 * nn * nn + 3 * nn;
    assert_true(fabs(atof(cell(t, j, "bytes_per_rep")) - bytes) <= 1e-8 * bytes);
    assert_true(fabs(atof(cell(t, j, "ops_per_rep")) - ops) <= 1e-8 * ops);
    assert_int_equal(atoll(cell(t, j, "size_bytes")), 2 * n * n * (long long)es);
}

/* The quick run: per type, k from 1 up, doubling below the compute units
 * and then their multiples, each a verified row over matrices of the
 * quick size (2 MiB of A and B, the order a multiple of 32). */
static void test_quick_run_is_verified_and_shaped(void **state)
{
    (void)state;
    table t = run_csv(NULL, "gesummv-opencl", "--quick", "quick", 0, NULL);
    expect_all_valid(&t);
    assert_true(t.nrows >= 4);
    int per_type = 0;
    for (int j = 0; j < t.nrows; ++j) {
        assert_string_equal(cell(&t, j, "benchmark"), "gesummv");
        assert_string_equal(cell(&t, j, "variant"), "gesummv");
        assert_string_equal(cell(&t, j, "sweep"), "concurrency");
        assert_string_equal(cell(&t, j, "unit"), "GB/s");
        long long n = param_ll(&t, j, "n"), k = atoll(cell(&t, j, "work_items"));
        long long es = cell_is(&t, j, "dtype", "double") ? 8 : 4;
        assert_true(n % 32 == 0 && 2 * n * n * es >= (2 << 20) && 2 * (n - 32) * (n - 32) * es < (2 << 20));
        expect_row_counts(&t, j, n);
        assert_true(k >= 1 && k <= n && k % atoll(cell(&t, j, "work_group")) == 0);
        bool first = j == 0 || !cell_is(&t, j, "dtype", cell(&t, j - 1, "dtype"));
        if (first)
            assert_int_equal(k, 1);
        else
            assert_true(k > atoll(cell(&t, j - 1, "work_items")));
        per_type = first ? 1 : per_type + 1;
        char ratio[32];
        double r = atof(param_text(&t, j, "err_over_bound", ratio, sizeof ratio));
        assert_true(ratio[0] != '\0' && r >= 0 && r <= 1);
        double fig = atof(cell(&t, j, "figure")), best = atof(cell(&t, j, "figure_best"));
        assert_true(fig > 0 && best >= fig);
    }
    assert_true(per_type >= 4);
    /* float and double, the same k each (PoCL runs both) */
    assert_int_equal(t.nrows, 2 * per_type);
    assert_string_equal(cell(&t, 0, "dtype"), "float");
    assert_string_equal(cell(&t, t.nrows - 1, "dtype"), "double");
    table_free(&t);
    expect_meta_keys("quick", "gesummv-opencl", "matrices", "layout", "verification");
}

/* A row whose y is wrong fails the run; the next k is checked anew. */
static void expect_planted(const char *fault, const char *says)
{
    table t = run_planted(fault, "gesummv-opencl", "--quick --dtype float --concurrency 1:2:x2", fault);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(only_invalid_row(&t), 0);
    expect_cell_has(&t, 0, "note", "1 of 512 rows beyond the rounding bound; row 256 is ");
    expect_cell_has(&t, 0, "note", says);
    assert_string_equal(cell(&t, 1, "valid"), "1");
    table_free(&t);
}

/* A wrong row, and a row the kernel never wrote (NaN from the fill). */
static void test_a_wrong_or_unwritten_row_fails_the_run(void **state)
{
    (void)state;
    expect_planted("verify", "the host's");
    expect_planted("unwritten", "nan, the host's");
}

/* A kernel that leaves out one product of a row whose 2560 float products
 * round to more than that product: the rounding bound passes the row (its
 * error is reported and below 1), the coverage check on ones fails it at
 * every k, exactly (alpha + beta) * 2560 = 7040 less alpha = 1.5. */
static void test_a_product_left_out_fails_the_run(void **state)
{
    (void)state;
    run_result res;
    table t = run_faulty_csv("drop", NULL, "gesummv-opencl", "--quick --size 50M --dtype float --concurrency 1:2:x2",
                             "drop", 1, &res);
    expect_in(res.err, "2 result(s) failed verification");
    run_free(&res);
    assert_int_equal(t.nrows, 2);
    for (int j = 0; j < 2; ++j) {
        assert_string_equal(cell(&t, j, "valid"), "0");
        assert_int_equal(param_ll(&t, j, "n"), 2560);
        char ratio[32];
        double r = atof(param_text(&t, j, "err_over_bound", ratio, sizeof ratio));
        assert_true(ratio[0] != '\0' && r > 0 && r <= 1);
        expect_cell_has(&t, j, "note",
                        "1 of 2560 rows miss or repeat products: with A and B all ones and x ones over [0, 2560), "
                        "row 1280 is 7038.5 instead of exactly 7040");
    }
    table_free(&t);
}

static void test_help_names_the_options(void **state)
{
    (void)state;
    expect_output("gesummv-opencl", "--help", 0, "--size", "--concurrency", "--dtype", "--seed");
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_help_names_the_options, test_no_device_is_skipped,
              test_cuda_binary_without_gpu, test_quick_run_is_verified_and_shaped,
              test_a_wrong_or_unwritten_row_fails_the_run, test_a_product_left_out_fails_the_run)
