/* End-to-end tests of the SFU executables: a small run on the OpenCL device
 * (every row of every kind valid for every version, precise errors within
 * the specification and measured by the kernel that was timed, speed-ups of
 * div and rcp backed by different results, the partition sweep, the summary
 * table as CSV and Markdown), the planted chain and accuracy failures, bad
 * input, no device, CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "sfu"
#include "tests/cli_harness.h"

#include <math.h>

/* The run the tests share: three functions (binary, unary cheap, unary
 * transcendental), both types, the quick partition set (sin and div of these). */
static const char *small = "--quick --reps 3:5 --max-time 0.3 --warmup 1 --functions sin,rcp,div --inputs 100000";

static const char *const float_versions[] = {"precise", "relaxed-math", "native", "half"};
static const char *const double_versions[] = {"precise", "relaxed-math"};

/* key's value as a number, NaN when absent or empty. */
static double param(const table *t, int row, const char *key)
{
    char buf[64];
    param_text(t, row, key, buf, sizeof buf);
    return buf[0] ? strtod(buf, NULL) : NAN;
}

static int count(const table *t, const char *variant, const char *dtype, const char *sweep)
{
    return count_where(t, "variant", variant, "dtype", dtype, "sweep", sweep, NULL);
}

/* Every kind of row once per domain, version and type, all verified. */
static void check_version_rows(const table *t, const char *func, const char *dtype, const char *version)
{
    char variant[64];
    snprintf(variant, sizeof variant, "%s/%s", func, version);
    if (count(t, variant, dtype, "accuracy") != 2 || count(t, variant, dtype, "special") != 1 ||
        count(t, variant, dtype, "latency") != 1 || count(t, variant, dtype, "throughput") != 1 ||
        count(t, variant, dtype, "concurrency") < 2)
        fail_msg("%s %s: rows missing (accuracy %d, special %d, latency %d, throughput %d, concurrency %d)", variant,
                 dtype, count(t, variant, dtype, "accuracy"), count(t, variant, dtype, "special"),
                 count(t, variant, dtype, "latency"), count(t, variant, dtype, "throughput"),
                 count(t, variant, dtype, "concurrency"));
    for (int j = 0; j < t->nrows; ++j) {
        if (strcmp(cell(t, j, "variant"), variant) != 0 || strcmp(cell(t, j, "dtype"), dtype) != 0)
            continue;
        const char *sweep = cell(t, j, "sweep");
        if (strcmp(cell(t, j, "valid"), "1") != 0)
            fail_msg("%s %s %s invalid: %s", variant, dtype, sweep, cell(t, j, "note"));
        double figure = atof(cell(t, j, "figure"));
        if (strcmp(sweep, "accuracy") == 0) {
            assert_string_equal(cell(t, j, "unit"), "ulp");
            assert_int_equal((int)param(t, j, "n"), 100000);
            assert_true(fabs(param(t, j, "max_ulp") - figure) <= 1e-3 * figure); /* %.4g in params */
            assert_true(param(t, j, "max_rel") >= param(t, j, "mean_rel"));
            char buf[32];
            if (strcmp(version, "precise") == 0) {
                /* The OpenCL 1.2 bounds (section 7.4): div 2.5 ulp in
                 * float, correctly rounded (0.5) in double; sin 4. */
                double bound = strcmp(dtype, "double") == 0 ? 0.5 : strcmp(func, "sin") == 0 ? 4 : 2.5;
                assert_true(param(t, j, "bound_ulp") == bound);
                assert_true(figure <= bound);
                assert_int_equal((int)param(t, j, "over_bound"), 0);
            } else if (strcmp(version, "half") == 0) {
                assert_true(param(t, j, "bound_ulp") == 8192);
            } else {
                assert_string_equal(param_text(t, j, "bound_ulp", buf, sizeof buf), "none");
            }
        } else if (strcmp(sweep, "special") == 0) {
            char buf[32];
            param_text(t, j, "special_ok", buf, sizeof buf);
            assert_non_null(strchr(buf, '/'));
            assert_int_equal(atoi(buf), (int)figure); /* k of k/n */
            const char *ftz[] = {"ftz_inputs", "ftz_results"};
            for (int k = 0; k < 2; ++k) {
                param_text(t, j, ftz[k], buf, sizeof buf);
                assert_true(strcmp(buf, "yes") == 0 || strcmp(buf, "no") == 0 || strcmp(buf, "n/a") == 0);
            }
        } else if (strcmp(sweep, "latency") == 0) {
            assert_string_equal(cell(t, j, "unit"), "ns");
            assert_string_equal(cell(t, j, "work_items"), "1");
            /* ns per call = median / iterations of the one chain. */
            double iters = param(t, j, "iters");
            assert_true(iters >= 16);
            assert_true(atof(cell(t, j, "ops_per_rep")) == iters);
            assert_true(fabs(figure - atof(cell(t, j, "median_s")) / iters * 1e9) <= 1e-6 * figure);
        } else if (strcmp(sweep, "concurrency") == 0 || strcmp(sweep, "throughput") == 0) {
            assert_string_equal(cell(t, j, "unit"), "Gop/s");
            /* Gop/s = work-items x chains x iterations / median. */
            double calls = atof(cell(t, j, "ops_per_rep"));
            assert_true(calls >= atof(cell(t, j, "work_items")) * 8 * 16);
            assert_true(fabs(figure - calls / atof(cell(t, j, "median_s")) * 1e-9) <= 1e-6 * figure);
            assert_true(figure > 0);
            if (strcmp(sweep, "throughput") == 0 && strcmp(version, "precise") != 0)
                assert_true(param(t, j, "speedup_vs_precise") > 0);
        }
    }
}

/* The row of variant, dtype and sweep; fails unless there is one. */
static int row_of(const table *t, const char *variant, const char *dtype, const char *sweep)
{
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "variant", variant) && cell_is(t, j, "dtype", dtype) && cell_is(t, j, "sweep", sweep))
            return j;
    fail_msg("no %s row of %s %s", sweep, variant, dtype);
    return -1;
}

/* The accuracy and special rows of a version were computed by the kernel
 * its throughput row timed: the same width (scalar or vector<N>), ILP and
 * work-group. */
static void check_accuracy_kernel(const table *t, const char *variant, const char *dtype)
{
    int tp = row_of(t, variant, dtype, "throughput");
    char timed[32], ilp[16], measured[32], their_ilp[16];
    param_text(t, tp, "kernel", timed, sizeof timed);
    param_text(t, tp, "ilp", ilp, sizeof ilp);
    assert_true(strcmp(timed, "scalar") == 0 || strncmp(timed, "vector", 6) == 0);
    for (int j = 0; j < t->nrows; ++j) {
        if (!cell_is(t, j, "variant", variant) || !cell_is(t, j, "dtype", dtype) ||
            !(cell_is(t, j, "sweep", "accuracy") || cell_is(t, j, "sweep", "special")))
            continue;
        param_text(t, j, "accuracy_kernel", measured, sizeof measured);
        param_text(t, j, "ilp", their_ilp, sizeof their_ilp);
        if (strcmp(measured, timed) != 0 || strcmp(their_ilp, ilp) != 0 ||
            strcmp(cell(t, j, "work_group"), cell(t, tp, "work_group")) != 0)
            fail_msg("%s %s %s: measured by the %s kernel (ILP %s, groups of %s), timed by the %s one (ILP %s, "
                     "groups of %s)",
                     variant, dtype, cell(t, j, "sweep"), measured, their_ilp, cell(t, j, "work_group"), timed, ilp,
                     cell(t, tp, "work_group"));
    }
}

/* A float line of the summary table of run dir: its flags and its four
 * error columns (mean and max relative, max ulp typical and wide), as
 * written (9 significant digits). */
typedef struct {
    char flags[64], errors[4][64];
} summary_line;

static summary_line summary_of(const char *dir, const char *func, const char *version)
{
    char *text = slurp_tmp("%s/sfu-opencl.table.csv", dir);
    const char *p = text;
    static csv_record header, rec;
    csv_next(&p, header);
    assert_string_equal(header[6], "mean_rel_err");
    assert_string_equal(header[9], "max_ulp_wide");
    assert_string_equal(header[17], "flags");
    summary_line out;
    memset(&out, 0, sizeof out);
    bool found = false;
    while (csv_next(&p, rec) > 17)
        if (strcmp(rec[0], func) == 0 && strcmp(rec[2], "float") == 0 && strcmp(rec[3], version) == 0) {
            snprintf(out.flags, sizeof out.flags, "%.63s", rec[17]);
            for (int c = 0; c < 4; ++c)
                snprintf(out.errors[c], sizeof out.errors[c], "%.63s", rec[6 + c]);
            found = true;
        }
    free(text);
    if (!found)
        fail_msg("no summary line %s float %s", func, version);
    return out;
}

/* A speed-up of a fast version over precise is none (within 15%), or
 * comes with different results (a real difference in the code), or the
 * suite flags it: two versions that compute the same values at different
 * speeds on a CPU are the measurement's doing (load that came and went). */
static void check_speedup_is_backed(const table *t, const char *func, const char *version)
{
    char variant[64];
    snprintf(variant, sizeof variant, "%s/%s", func, version);
    int j = row_of(t, variant, "float", "throughput");
    double speedup = param(t, j, "speedup_vs_precise");
    assert_true(speedup > 0);
    summary_line fast = summary_of("small", func, version), precise = summary_of("small", func, "precise");
    bool same = true;
    for (int c = 0; c < 4; ++c)
        same = same && strcmp(fast.errors[c], precise.errors[c]) == 0;
    bool unbacked = fabs(speedup - 1) > 0.15 && same;
    if (unbacked != (strstr(fast.flags, "unbacked-speedup") != NULL))
        fail_msg("%s: %.3gx over precise, the same errors: %s, summary flags '%s' (params %s)", variant, speedup,
                 same ? "yes" : "no", fast.flags, cell(t, j, "params"));
    assert_true(param(t, j, "speedup_pairs") >= 3); /* interleaved, --reps 3:5 */
}

/* Every throughput row runs at least 8 work-groups per compute unit of the
 * device (its metadata), so that no core idles at the end of a run: its
 * params say so, and its work-items and work-group agree. */
static void check_throughput_groups(const table *t, const char *dir)
{
    char *meta = slurp_tmp("%s/sfu-opencl.meta.csv", dir);
    const char *key = strstr(meta, "\ndevice.compute_units,");
    assert_non_null(key);
    long cus = strtol(key + strlen("\ndevice.compute_units,"), NULL, 10);
    free(meta);
    assert_true(cus >= 1);
    int rows = 0;
    for (int j = 0; j < t->nrows; ++j) {
        if (!cell_is(t, j, "sweep", "throughput"))
            continue;
        ++rows;
        double groups = param(t, j, "groups");
        if (!(groups >= 8.0 * (double)cus) || !(param(t, j, "groups_per_cu") >= 8))
            fail_msg("%s %s: %g work-groups on %ld compute units (params %s)", cell(t, j, "variant"),
                     cell(t, j, "dtype"), groups, cus, cell(t, j, "params"));
        assert_true(fabs(param(t, j, "groups_per_cu") - groups / (double)cus) <= 1e-3 * groups);
        assert_true(atof(cell(t, j, "work_items")) == groups * atof(cell(t, j, "work_group")));
        assert_true(param(t, j, "sweep_work_items") > 0);
    }
    assert_int_equal(rows, 4 * 3 + 2 * 2); /* float: 4 versions x 3 functions; double: 2 x 2 */
}

/* The partition sweep: lambda = 0, 1/8, ..., 1, its throughput and error. */
static void check_partition(const table *t, const char *func)
{
    char variant[64];
    snprintf(variant, sizeof variant, "%s/precise+native", func);
    int k = 0;
    for (int j = 0; j < t->nrows; ++j) {
        if (strcmp(cell(t, j, "variant"), variant) != 0)
            continue;
        assert_string_equal(cell(t, j, "sweep"), "partition");
        assert_string_equal(cell(t, j, "dtype"), "float");
        if (strcmp(cell(t, j, "valid"), "1") != 0)
            fail_msg("%s lambda %d/8 invalid: %s", variant, k, cell(t, j, "note"));
        assert_int_equal((int)param(t, j, "fast_units"), 8 * k);
        assert_true(param(t, j, "lambda") == k / 8.0);
        assert_true(atof(cell(t, j, "figure")) > 0);
        assert_true(param(t, j, "max_ulp") >= 0);
        /* Whole rounds of the 64 units. */
        assert_int_equal(atoll(cell(t, j, "work_items")) % (64 * atoll(cell(t, j, "work_group"))), 0);
        ++k;
    }
    assert_int_equal(k, 9);
}

/* The Table 6.4/6.5 analogue: one line per function, type and version. */
static void check_summary(const char *dir)
{
    char *text = slurp_tmp("%s/sfu-opencl.table.csv", dir);
    const char *p = text;
    static csv_record header, rec;
    int ncols = csv_next(&p, header);
    assert_int_equal(ncols, 19);
    const char *want[] = {"func", "math", "dtype", "version", "latency_ns", "latency_cycles", "mean_rel_err",
                          "max_rel_err", "max_ulp", "max_ulp_wide", "bound_ulp", "ftz", "registers",
                          "throughput_Gops", "per_cu_Gops", "speedup_vs_precise", "valid", "flags", "note"};
    for (int c = 0; c < ncols; ++c)
        assert_string_equal(header[c], want[c]);
    int rows = 0, n;
    while ((n = csv_next(&p, rec)) > 0) {
        assert_int_equal(n, ncols);
        if (strcmp(rec[16], "1") != 0)
            fail_msg("summary line %s %s %s invalid", rec[0], rec[2], rec[3]);
        assert_true(atof(rec[4]) > 0);  /* latency */
        assert_true(atof(rec[13]) > 0); /* throughput */
        assert_true(strcmp(rec[3], "precise") == 0 ? rec[15][0] == '\0' : atof(rec[15]) > 0);
        assert_true(rec[11][0] != '\0'); /* ftz probed */
        /* The throughput's flags, each with its reason. */
        char token[64];
        for (const char *f = rec[17]; *f; f += strcspn(f, ";"), f += *f == ';') {
            snprintf(token, sizeof token, "%.*s:", (int)strcspn(f, ";"), f);
            if (strstr(rec[18], token) == NULL)
                fail_msg("summary line %s %s %s: flag %s without its reason", rec[0], rec[2], rec[3], token);
        }
        rows++;
    }
    assert_int_equal(n, 0);
    /* float: 3 functions x 4 versions; double: rcp and div x 2 (sin is not in Li's double set) */
    assert_int_equal(rows, 3 * 4 + 2 * 2);
    free(text);
    text = slurp_tmp("%s/sfu-opencl.table.md", dir);
    assert_int_equal(count_lines(text), rows + 2);
    assert_non_null(strstr(text, "| sin "));
    free(text);
}

static void test_small_run_is_verified(void **state)
{
    (void)state;
    table t = run_csv(NULL, "sfu-opencl", small, "small", 0, NULL);
    for (int j = 0; j < t.nrows; ++j)
        assert_string_equal(cell(&t, j, "benchmark"), "sfu");
    const char *funcs[] = {"sin", "rcp", "div"};
    char variant[64];
    for (int f = 0; f < 3; ++f) {
        for (size_t v = 0; v < countof(float_versions); ++v) {
            check_version_rows(&t, funcs[f], "float", float_versions[v]);
            snprintf(variant, sizeof variant, "%s/%s", funcs[f], float_versions[v]);
            check_accuracy_kernel(&t, variant, "float");
        }
        if (f > 0)
            for (size_t v = 0; v < countof(double_versions); ++v) {
                check_version_rows(&t, funcs[f], "double", double_versions[v]);
                snprintf(variant, sizeof variant, "%s/%s", funcs[f], double_versions[v]);
                check_accuracy_kernel(&t, variant, "double");
            }
    }
    const char *divisions[] = {"div", "rcp"}, *fast[] = {"native", "half"};
    for (int f = 0; f < 2; ++f)
        for (int v = 0; v < 2; ++v)
            check_speedup_is_backed(&t, divisions[f], fast[v]);
    check_throughput_groups(&t, "small");
    check_partition(&t, "sin");
    check_partition(&t, "div");
    assert_int_equal(count(&t, "rcp/precise+native", "float", "partition"), 0); /* not in the quick set */
    /* native_ and half_ do not exist for double: said, not measured. */
    assert_int_equal(count(&t, "div/native", "double", "support"), 1);
    table_free(&t);
    check_summary("small");
}

/* A planted failure: the one invalid row, of the sweep and saying
 * note_text, and the summary line that says so too. */
static void expect_planted(const char *fault, const char *sweep, const char *note_text)
{
    char dir[64];
    snprintf(dir, sizeof dir, "fault-%s", fault);
    table t = run_planted(fault, "sfu-opencl",
                          "--quick --reps 3:5 --max-time 0.3 --warmup 1 --functions rcp --types float "
                          "--versions precise --partition-functions none --inputs 1000",
                          dir);
    int j = only_invalid_row(&t);
    assert_string_equal(cell(&t, j, "sweep"), sweep);
    expect_cell_has(&t, j, "note", note_text);
    table_free(&t);
    char *text = slurp_tmp("%s/sfu-opencl.table.csv", dir);
    expect_in(text, "\nrcp,1/x,float,precise,");
    const char *p = text;
    static csv_record header, rec;
    csv_next(&p, header);
    assert_true(csv_next(&p, rec) > 16);
    assert_string_equal(header[16], "valid");
    assert_string_equal(rec[16], "0");
    free(text);
}

static void test_planted_chain_failure_fails_the_run(void **state)
{
    (void)state;
    /* The first chain checked is the latency run's; its end value is moved. */
    expect_planted("verify", "latency", "chain 0 (precise path): x0=");
}

static void test_planted_accuracy_failure_fails_the_run(void **state)
{
    (void)state;
    expect_planted("accuracy", "accuracy", "exceed the specification's 2.5 ulp");
}

/* A fast version that approximates the wrong function (sin giving cos)
 * clears no bound of its own, but not the floor every version must: its
 * typical accuracy row and every row timed with it (latency, concurrency)
 * are invalid, saying so, and so is the throughput drawn from them; the
 * precise version's rows stay valid. */
static void test_planted_wrong_function_fails_its_rows(void **state)
{
    (void)state;
    run_result r;
    table t = run_faulty_csv("cos-for-sin", NULL, "sfu-opencl",
                             "--quick --reps 3:5 --max-time 0.3 --warmup 1 --functions sin --types float "
                             "--versions precise,relaxed-math --partition-functions none --inputs 1000",
                             "fault-cos-for-sin", 1, &r);
    run_free(&r);
    int timed = 0, throughput = 0, typical = 0;
    for (int i = 0; i < t.nrows; ++i) {
        const char *variant = cell(&t, i, "variant"), *sweep = cell(&t, i, "sweep"), *valid = cell(&t, i, "valid");
        if (strcmp(variant, "sin/precise") == 0) {
            if (strcmp(valid, "1") != 0)
                fail_msg("row %d (%s): the precise version's row is invalid: %s", i, sweep, cell(&t, i, "note"));
        } else if (strcmp(variant, "sin/relaxed-math") == 0) {
            bool wrong = strcmp(sweep, "latency") == 0 || strcmp(sweep, "concurrency") == 0 ||
                         (strcmp(sweep, "accuracy") == 0 && strstr(cell(&t, i, "params"), "domain=typical"));
            if (strcmp(sweep, "throughput") == 0) {
                assert_string_equal(valid, "0");
                ++throughput;
            } else if (wrong) {
                if (strcmp(valid, "0") != 0)
                    fail_msg("row %d (relaxed-math %s) is valid", i, sweep);
                expect_cell_has(&t, i, "note", "not sin at all");
                timed += strcmp(sweep, "accuracy") != 0;
                typical += strcmp(sweep, "accuracy") == 0;
            }
        }
    }
    assert_true(timed >= 2);
    assert_int_equal(throughput, 1);
    assert_int_equal(typical, 1);
    table_free(&t);
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_no_device_is_skipped, test_cuda_binary_without_gpu,
              test_planted_chain_failure_fails_the_run, test_planted_accuracy_failure_fails_the_run,
              test_planted_wrong_function_fails_its_rows, test_small_run_is_verified)
