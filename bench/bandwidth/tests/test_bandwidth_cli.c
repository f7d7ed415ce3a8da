/* End-to-end tests of the bandwidth executables: a quick run on the OpenCL
 * device with every path, the zero-copy guard and the model fit in its CSV,
 * bad input, a planted verification failure (and the fit that must leave
 * the failed points out), and CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#define BENCHMARK "bandwidth"
#include "bandwidth/tests/matrix_cells.h"
#include "tests/cli_harness.h"

/* The row of a host reference at a size, -1 if none. */
static int host_row(const table *t, const char *variant, const char *size)
{
    for (int i = 0; i < t->nrows; ++i)
        if (cell_is(t, i, "backend", "host") && cell_is(t, i, "variant", variant) && cell_is(t, i, "size_bytes", size))
            return i;
    return -1;
}

/* Beside the single-thread memcpy at every size, a verified all-cores copy
 * that names its threads; every path referred to the single-thread copy
 * also carries its ratio to the all-cores one, and no other path does. */
static void expect_multithread_copy_reference(const table *t)
{
    int sizes = 0, copies = 0;
    for (int i = 0; i < t->nrows; ++i) {
        if (cell_is(t, i, "backend", "host") && cell_is(t, i, "variant", "host-memcpy-1thread")) {
            sizes++;
            int j = host_row(t, "host-memcpy-openmp", cell(t, i, "size_bytes"));
            if (j < 0)
                fail_msg("no host-memcpy-openmp row at %s bytes", cell(t, i, "size_bytes"));
            assert_string_equal(cell(t, j, "valid"), "1");
            assert_string_equal(cell(t, j, "unit"), "GB/s");
            assert_true(strtod(cell(t, j, "figure"), NULL) > 0);
            assert_true(strtod(cell(t, j, "figure_best"), NULL) > 0);
            long long threads = param_ll(t, j, "threads");
            assert_true(threads >= 1);
            assert_int_equal(strtoll(cell(t, j, "work_items"), NULL, 10), threads);
            assert_non_null(param_at(t, j, "binding"));
        } else if (cell_is(t, i, "sweep", "size") && param_at(t, i, "ref") != NULL) {
            char ref[64];
            bool copy = strcmp(param_text(t, i, "ref", ref, sizeof ref), "host-memcpy-1thread") == 0;
            if (!copy) {
                assert_null(param_at(t, i, "mt_ref_ratio"));
                continue;
            }
            copies++;
            const char *ratio = param_at(t, i, "mt_ref_ratio");
            if (ratio == NULL)
                fail_msg("%s at %s bytes has no mt_ref_ratio", cell(t, i, "variant"), cell(t, i, "size_bytes"));
            assert_true(strtod(ratio, NULL) > 0);
            assert_true(strtod(param_at(t, i, "mt_ref_GBps"), NULL) > 0);
        }
    }
    assert_int_equal(sizes, 4);
    assert_true(copies >= 4);
}

static void test_quick_run_covers_every_path(void **state)
{
    (void)state;
    run_result list = run_with_status(0, NULL, "bandwidth-opencl", "--list-paths");
    table t = run_csv(NULL, "bandwidth-opencl", "--quick", "quick", 0, NULL);
    expect_all_valid(&t);
    int refs = 0, maps = 0, fits = 0, techniques = 0, rankings = 0, cells = 0;
    for (int i = 0; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "benchmark"), "bandwidth");
        const char *sweep = cell(&t, i, "sweep"), *variant = cell(&t, i, "variant");
        if (strcmp(sweep, "sensor") == 0)
            continue; /* the energy sensor's row: the session's, tested with it */
        if (strcmp(cell(&t, i, "stop"), "unsupported") == 0) {
            assert_non_null(strstr(cell(&t, i, "note"), "not supported: "));
            continue;
        }
        if (strcmp(cell(&t, i, "backend"), "host") == 0) {
            refs++;
            /* A repetition is a loop long enough for the clock: a 4 KiB
             * copy by one thread (well under a microsecond) takes many calls. */
            long long calls = param_ll(&t, i, "calls_per_rep");
            assert_true(calls >= 1);
            if (strcmp(variant, "host-memcpy-1thread") == 0 && strcmp(cell(&t, i, "size_bytes"), "4096") == 0)
                assert_true(calls >= 2);
            continue;
        }
        if (strcmp(sweep, "matrix") == 0) {
            cells++;
            assert_string_equal(cell(&t, i, "unit"), "GB/s");
            assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
            assert_non_null(param_at(&t, i, "engine"));
        } else if (strcmp(sweep, "ranking") == 0) {
            rankings++;
            assert_non_null(strstr(cell(&t, i, "params"), "measured="));
            assert_non_null(strstr(cell(&t, i, "params"), ";predicted="));
            /* Either the model agrees or the row says where and why not. */
            if (strstr(cell(&t, i, "params"), "match=0"))
                assert_non_null(strstr(cell(&t, i, "note"), " vs "));
            else
                assert_non_null(strstr(cell(&t, i, "note"), "ranks the techniques as measured"));
        } else if (strcmp(sweep, "technique") == 0) {
            techniques++;
            assert_string_equal(cell(&t, i, "unit"), "ms");
            assert_non_null(strstr(cell(&t, i, "params"), "predicted_ms="));
        } else if (strcmp(sweep, "fit") == 0 || strcmp(sweep, "fit-regime") == 0) {
            fits += strcmp(sweep, "fit") == 0;
            assert_non_null(strstr(cell(&t, i, "params"), "c_us="));
            assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
        } else if (strstr(variant, ":map") || strstr(variant, ":unmap")) {
            maps++;
            /* A map is a latency, never a bandwidth. */
            assert_string_equal(cell(&t, i, "unit"), "us");
            assert_non_null(strstr(cell(&t, i, "params"), "data_moved="));
        } else if (strcmp(sweep, "size") == 0 && strstr(cell(&t, i, "params"), "workload=")) {
            assert_string_equal(cell(&t, i, "unit"), "ms"); /* a technique's measured time */
        } else if (strcmp(sweep, "size") == 0) {
            assert_string_equal(cell(&t, i, "unit"), "GB/s");
            assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
            assert_true(strtod(cell(&t, i, "ref_ratio"), NULL) > 0);
        } else if (strcmp(sweep, "local-width") == 0) {
            /* Local memory has no host reference: its rows count local traffic per vector width. */
            assert_string_equal(variant, "kernel-local-memory");
            assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
            assert_non_null(param_at(&t, i, "vector"));
            assert_non_null(param_at(&t, i, "local_bytes"));
        } else {
            assert_string_equal(sweep, "fit-error");
            assert_string_equal(cell(&t, i, "unit"), "%");
        }
    }
    /* Every listed path has rows (measured or a clear "not supported"). */
    int paths = 0;
    for (const char *line = list.out; *line; ++paths) {
        char key[64];
        assert_int_equal(sscanf(line, "%63s", key), 1);
        bool found = false;
        for (int i = 0; i < t.nrows && !found; ++i)
            found = strcmp(cell(&t, i, "variant"), key) == 0;
        if (!found)
            fail_msg("path %s has no row", key);
        line = strchr(line, '\n') + 1;
    }
    assert_true(paths >= 20);
    assert_true(refs >= 4 * 4);  /* four host references per size */
    expect_multithread_copy_reference(&t);
    expect_meta_keys("quick", "bandwidth-opencl", "host_reference_threads", "host_reference_binding");
    assert_true(maps >= 2 * 4 * 4);
    assert_true(fits >= 20);
    assert_int_equal(techniques, 8 * 4); /* four techniques, two workloads, four sizes */
    assert_int_equal(rankings, 2);
    assert_true(cells >= 10);
    table_free(&t);
    run_free(&list);
}

static void test_planted_failure_fails_the_run(void **state)
{
    (void)state;
    table t = run_planted("verify", "bandwidth-opencl",
                          "--sizes 64K --paths h2d-write-pageable,kernel-read-device --reps 5:10", "fault");
    int j = only_invalid_row(&t);
    assert_string_equal(cell(&t, j, "variant"), "h2d-write-pageable");
    expect_cell_has(&t, j, "note", "destination differs from the source");
    table_free(&t);
}

/* ---- the transfer paths beyond Lee's ---- */

#define NEW_COPIES "h2d-copy-buffer-pinned,d2h-copy-buffer-pinned,h2d-kernel-copy-pinned,d2h-kernel-copy-pinned"
#define DUPLEX "duplex-copy-pinned,duplex-kernel-copy-pinned"
#define MALLOC "kernel-read-malloc,kernel-write-malloc"
#define MULTI_DEVICE                                                                                                   \
    "p2p-read-copy,p2p-write-copy,p2p-read-kernel,p2p-write-kernel,all-to-one-copy,all-to-one-kernel,"                 \
    "one-to-all-copy,one-to-all-kernel,all-to-host-copy,all-to-host-kernel,host-to-all-copy,host-to-all-kernel"

/* The row of variant in sweep at size (NULL: any), -1 if none. */
static int find_row(const table *t, const char *variant, const char *sweep, const char *size)
{
    for (int i = 0; i < t->nrows; ++i)
        if (cell_is(t, i, "variant", variant) && cell_is(t, i, "sweep", sweep) &&
            (size == NULL || cell_is(t, i, "size_bytes", size)))
            return i;
    return -1;
}

static int must_find_row(const table *t, const char *variant, const char *sweep, const char *size)
{
    int r = find_row(t, variant, sweep, size);
    if (r < 0)
        fail_msg("no %s row of %s at %s", sweep, variant, size ? size : "any size");
    return r;
}

/* Calls visit(t, key) for every key of a comma list. */
static void each_key(const table *t, const char *list, void (*visit)(const table *, const char *))
{
    char keys[512];
    snprintf(keys, sizeof keys, "%s", list);
    for (char *save = NULL, *k = strtok_r(keys, ",", &save); k; k = strtok_r(NULL, ",", &save))
        visit(t, k);
}

static const char *const sizes_64k_4m[] = {"65536", "262144", "1048576", "4194304"};

/* A copy measured and verified at every size, its bytes its transfers' */
static void expect_measured_copy(const table *t, const char *key)
{
    long long transfers = strncmp(key, "duplex-", 7) == 0 ? 2 : 1;
    for (size_t s = 0; s < countof(sizes_64k_4m); ++s) {
        int r = must_find_row(t, key, "size", sizes_64k_4m[s]);
        assert_string_equal(cell(t, r, "valid"), "1");
        assert_true(strtod(cell(t, r, "figure"), NULL) > 0);
        assert_true(strtod(cell(t, r, "bytes_per_rep"), NULL) == transfers * strtod(sizes_64k_4m[s], NULL));
        assert_int_equal(param_ll(t, r, "transfers"), transfers > 1 ? transfers : -1);
    }
    int fit = must_find_row(t, key, "fit", NULL);
    assert_int_equal(param_ll(t, fit, "transfers"), transfers > 1 ? transfers : -1);
}

/* A multi-device path on this single OpenCL device: a row that says so. */
static void expect_needs_two_devices(const table *t, const char *key)
{
    int r = must_find_row(t, key, "size", NULL);
    assert_string_equal(cell(t, r, "stop"), "unsupported");
    assert_string_equal(cell(t, r, "note"), "not supported: needs >= 2 devices (1 present)");
}

/* Kernels on malloc'd memory run only where the device reports system SVM
 * (PoCL does not); otherwise the row says which capability is missing. */
static void expect_malloc_path(const table *t, const char *key)
{
    int r = must_find_row(t, key, "size", NULL);
    if (cell_is(t, r, "stop", "unsupported"))
        expect_cell_has(t, r, "note", "no fine-grained system SVM");
    else
        for (size_t s = 0; s < countof(sizes_64k_4m); ++s)
            assert_string_equal(cell(t, must_find_row(t, key, "size", sizes_64k_4m[s]), "valid"), "1");
}

/* The matrix at the largest size: each cell's fastest verified path, with
 * the figure of its size row; the duplex paths in cells of their own; the
 * peer cells saying they need two devices; and the topology saying why
 * OpenCL has none. */
static void expect_matrix(const table *t)
{
    static const matrix_cell cells[] = {
        {"from=host-pinned;to=device;engine=copy", "h2d-write-pinned,h2d-copy-buffer-pinned"},
        {"from=device;to=host-pinned;engine=copy", "d2h-read-pinned,d2h-copy-buffer-pinned"},
        {"from=host-pinned;to=device;engine=kernel", "h2d-kernel-copy-pinned"},
        {"from=device;to=host-pinned;engine=kernel", "d2h-kernel-copy-pinned"},
        {"from=host-pinned;to=device;engine=copy;transfers=2", "duplex-copy-pinned"},
        {"from=host-pinned;to=device;engine=kernel;transfers=2", "duplex-kernel-copy-pinned"},
    };
    for (size_t c = 0; c < countof(cells); ++c) {
        int m = -1;
        for (int i = 0; i < t->nrows; ++i)
            if (cell_is(t, i, "sweep", "matrix") && cell_is(t, i, "params", cells[c].params)) {
                assert_int_equal(m, -1);
                m = i;
            }
        if (m < 0)
            fail_msg("no matrix row for %s", cells[c].params);
        assert_string_equal(cell(t, m, "size_bytes"), "4194304");
        double best = 0;
        char keys[256];
        snprintf(keys, sizeof keys, "%s", cells[c].paths);
        for (char *save = NULL, *k = strtok_r(keys, ",", &save); k; k = strtok_r(NULL, ",", &save))
            best = fmax(best, strtod(cell(t, must_find_row(t, k, "size", "4194304"), "figure"), NULL));
        int s = must_find_row(t, cell(t, m, "variant"), "size", "4194304");
        assert_string_equal(cell(t, m, "figure"), cell(t, s, "figure"));
        assert_true(strtod(cell(t, m, "figure"), NULL) == best);
    }
    int peer = -1;
    for (int i = 0; i < t->nrows; ++i)
        if (cell_is(t, i, "sweep", "matrix") && cell_is(t, i, "params", "from=peer;to=device;engine=copy"))
            peer = i;
    assert_true(peer >= 0);
    assert_string_equal(cell(t, peer, "stop"), "unsupported");
    assert_string_equal(cell(t, peer, "note"), "not supported: needs >= 2 devices (1 present)");
    int topo = must_find_row(t, "p2p-topology", "p2p-topology", NULL);
    assert_string_equal(cell(t, topo, "note"), "not supported: the opencl API has no peer-to-peer query");
    assert_int_equal(count_where(t, "sweep", "p2p-topology", NULL), 1);
}

/* Lee's model over the cache-resident sizes apart: every path fitted
 * over all its sizes has a fit of those up to the last-level cache too
 * (64 KiB and 256 KiB are in it on any host), with its c and b. */
static void expect_regime_fits(const table *t)
{
    int fits = 0, cache_fits = 0;
    for (int i = 0; i < t->nrows; ++i) {
        if (cell_is(t, i, "sweep", "fit") && cell_is(t, i, "valid", "1"))
            fits++;
        if (!cell_is(t, i, "sweep", "fit-regime"))
            continue;
        const char *regime = param_at(t, i, "regime");
        assert_non_null(regime);
        assert_true(strncmp(regime, "cache;", 6) == 0 || strncmp(regime, "memory;", 7) == 0);
        cache_fits += strncmp(regime, "cache;", 6) == 0;
        assert_true(strtod(param_at(t, i, "b_GBps"), NULL) > 0);
        assert_non_null(strstr(cell(t, i, "note"), "regime: sizes "));
    }
    assert_true(fits > 0);
    assert_int_equal(cache_fits, fits);
}

static void test_transfer_paths_run_verified(void **state)
{
    (void)state;
    table t = run_csv(NULL, "bandwidth-opencl",
                      "--sizes 64K:4M:x4 --reps 3:5 --paths h2d-write-pinned,d2h-read-pinned," NEW_COPIES "," DUPLEX
                      "," MALLOC "," MULTI_DEVICE,
                      "transfer-paths", 0, NULL);
    expect_all_valid(&t);
    each_key(&t, "h2d-write-pinned,d2h-read-pinned," NEW_COPIES "," DUPLEX, expect_measured_copy);
    each_key(&t, MALLOC, expect_malloc_path);
    each_key(&t, MULTI_DEVICE, expect_needs_two_devices);
    expect_matrix(&t);
    expect_regime_fits(&t);
    table_free(&t);
}

/* A planted fault in the second transfer of a duplex path (the
 * device-to-host half's destination) fails verification and names it. */
static void test_planted_failure_names_the_duplex_transfer(void **state)
{
    (void)state;
    static const char *const keys[] = {"duplex-copy-pinned", "duplex-kernel-copy-pinned"};
    for (size_t k = 0; k < countof(keys); ++k) {
        char args[128];
        snprintf(args, sizeof args, "--sizes 64K --reps 3:5 --paths %s", keys[k]);
        table t = run_planted("verify", "bandwidth-opencl", args, keys[k]);
        int j = only_invalid_row(&t);
        assert_string_equal(cell(&t, j, "variant"), keys[k]);
        expect_cell_has(&t, j, "note", "destination of transfer 2 of 2 differs from the source, first at byte 32768");
        table_free(&t);
    }
}

/* The one row of a sweep (and size, for the per-size sweeps) of path
 * h2d-write-pageable, which the fit tests below run alone. */
static int pageable_row(const table *t, const char *sweep, const char *size)
{
    int found = -1;
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "variant", "h2d-write-pageable") && cell_is(t, j, "sweep", sweep) &&
            (size == NULL || cell_is(t, j, "size_bytes", size))) {
            if (found >= 0)
                fail_msg("two %s rows at %s", sweep, size ? size : "no size");
            found = j;
        }
    if (found < 0)
        fail_msg("no %s row at %s", sweep, size ? size : "no size");
    return found;
}

static double num(const table *t, int row, const char *col) { return strtod(cell(t, row, col), NULL); }

static double param_num(const table *t, int row, const char *key)
{
    const char *v = param_at(t, row, key);
    if (v == NULL)
        fail_msg("row %d: params '%s' lack %s", row, cell(t, row, "params"), key);
    return strtod(v, NULL);
}

static void expect_near(double got, double want, double rel, const char *what)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("%s: %.6g, want %.6g within %g", what, got, want, rel);
}

/* A fault planted in h2d-write-pageable over sizes: exit 1, failures rows
 * said to have failed; the CSV. */
static table run_fit_fault(const char *fault, const char *sizes, const char *dir, int failures)
{
    char args[256], want[64];
    snprintf(args, sizeof args, "--sizes %s --paths h2d-write-pageable --reps 5:10", sizes);
    run_result r;
    table t = run_faulty_csv(fault, NULL, "bandwidth-opencl", args, dir, 1, &r);
    snprintf(want, sizeof want, ": %d result(s) failed verification", failures);
    expect_in(r.err, want);
    run_free(&r);
    return t;
}

/* The path's fit row, which must have the valid flag and a note holding
 * note. */
static int fit_row(const table *t, const char *valid, const char *note)
{
    int fit = pageable_row(t, "fit", NULL);
    assert_string_equal(cell(t, fit, "valid"), valid);
    expect_cell_has(t, fit, "note", note);
    return fit;
}

/* The fit-error row at a point fitted: the measured bandwidth is the size
 * row's, the model's is S/(c + S/b) from the fit row, the figure their
 * relative difference in percent. */
static void expect_fit_error_row(const table *t, int fit, const char *size)
{
    int e = pageable_row(t, "fit-error", size), s = pageable_row(t, "size", size);
    assert_string_equal(cell(t, e, "valid"), "1");
    double S = strtod(size, NULL), c = param_num(t, fit, "c_us") * 1e-6, b = param_num(t, fit, "b_GBps") * 1e9;
    double model = S / (c + S / b) * 1e-9, measured = param_num(t, e, "measured_GBps");
    expect_near(measured, num(t, s, "figure"), 1e-3, "measured_GBps against the size row");
    expect_near(param_num(t, e, "fit_GBps"), model, 2e-3, "fit_GBps against c and b");
    expect_near(num(t, e, "figure") / 100 + 1, model / measured, 3e-3, "fit error");
}

/* The planted fault spoils the first point only: the fit is made over the
 * two valid points, says it left one out, and passes through both (a fit
 * of two parameters to two points, unless c had to be clamped to 0); the
 * fit-error row of the spoiled point is invalid, the others valid. */
static void test_planted_failure_is_left_out_of_the_fit(void **state)
{
    (void)state;
    table t = run_fit_fault("verify", "64K:1M:x4", "fit-one-out", 2);
    assert_string_equal(cell(&t, pageable_row(&t, "size", "65536"), "valid"), "0");
    int fit = fit_row(&t, "1", "over 2 valid of 3 sizes; 1 invalid point left out");
    assert_string_equal(cell(&t, fit, "n"), "2");
    assert_true(param_num(&t, fit, "b_GBps") > 0);
    expect_near(num(&t, fit, "figure"), param_num(&t, fit, "b_GBps"), 1e-3, "fit figure against b_GBps");
    if (param_at(&t, fit, "c_clamped_to_0") == NULL)
        assert_true(param_num(&t, fit, "max_rel_err") < 1e-3);
    int bad = pageable_row(&t, "fit-error", "65536");
    assert_string_equal(cell(&t, bad, "valid"), "0");
    expect_cell_has(&t, bad, "note", "failed verification: left out of the fit");
    expect_fit_error_row(&t, fit, "262144");
    expect_fit_error_row(&t, fit, "1048576");
    assert_int_equal(count_where(&t, "sweep", "fit-error", NULL), 3);
    table_free(&t);
}

/* One valid point of two: no fit, and no fit-error row can be valid. */
static void test_too_few_valid_points_leave_the_fit_invalid(void **state)
{
    (void)state;
    table t = run_fit_fault("verify", "64K:256K:x4", "fit-too-few", 4);
    assert_string_equal(cell(&t, pageable_row(&t, "size", "262144"), "valid"), "1");
    int fit = fit_row(&t, "0", "fitted over 1 valid of 2 points: too few");
    assert_null(param_at(&t, fit, "b_GBps"));
    assert_string_equal(cell(&t, fit, "figure"), "");
    const char *const sizes[] = {"65536", "262144"};
    for (size_t i = 0; i < countof(sizes); ++i) {
        int e = pageable_row(&t, "fit-error", sizes[i]);
        assert_string_equal(cell(&t, e, "valid"), "0");
        assert_string_equal(cell(&t, e, "figure"), "");
        expect_cell_has(&t, e, "note", "no fit");
        expect_near(param_num(&t, e, "measured_GBps"), num(&t, pageable_row(&t, "size", sizes[i]), "figure"), 1e-3,
                    "measured_GBps against the size row");
    }
    table_free(&t);
}

/* Every point spoiled (the fault verify-all): the fit is invalid. */
static void test_no_valid_point_leaves_the_fit_invalid(void **state)
{
    (void)state;
    table t = run_fit_fault("verify-all", "64K:1M:x4", "fit-none", 3 + 1 + 3);
    assert_int_equal(count_where(&t, "variant", "h2d-write-pageable", "sweep", "size", "valid", "0", NULL), 3);
    int fit = fit_row(&t, "0", "no valid point of 3");
    assert_string_equal(cell(&t, fit, "figure"), "");
    assert_int_equal(count_where(&t, "sweep", "fit-error", "valid", "0", NULL), 3);
    assert_int_equal(count_where(&t, "sweep", "fit-error", NULL), 3);
    table_free(&t);
}

/* Listing the paths needs no GPU. */
static void test_cuda_lists_paths_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("bandwidth-cuda");
    expect_output("bandwidth-cuda", "--list-paths", 0, "kernel-read-mapped");
}

/* ---- the local-memory path ---- */

/* The local-width row of vector width v, failing the test where there is none. */
static int local_width_row(const table *t, unsigned v)
{
    for (int i = 0; i < t->nrows; ++i)
        if (cell_is(t, i, "variant", "kernel-local-memory") && cell_is(t, i, "sweep", "local-width") &&
            param_ll(t, i, "vector") == v)
            return i;
    fail_msg("no local-width row of vector=%u", v);
    return -1;
}

/* One verified row per vector width, 1 to 16 words (OpenCL C has them
 * all), over the design's buffer whatever --sizes says (whole 8 KiB
 * tiles): its bytes the local traffic of 255 rounds (510 times the
 * buffer) with the global bytes beside them, the loads per barrier of the
 * width, no host reference, no memory peak and no fit; no size rows; the
 * local cell of the matrix holds the best width. */
static void test_local_memory_path_runs_verified(void **state)
{
    (void)state;
    table t = run_csv(NULL, "bandwidth-opencl", "--sizes 64K --reps 3:5 --paths kernel-local-memory", "local", 0,
                      NULL);
    expect_all_valid(&t);
    assert_int_equal(count_where(&t, "variant", "kernel-local-memory", "sweep", "local-width", NULL), 5);
    assert_int_equal(count_where(&t, "variant", "kernel-local-memory", "sweep", "size", NULL), 0);
    double best = 0;
    for (unsigned v = 1; v <= 16; v *= 2) {
        int r = local_width_row(&t, v);
        double bytes = num(&t, r, "size_bytes");
        assert_true(bytes >= 8192 && fmod(bytes, 8192) == 0);
        assert_true(num(&t, r, "bytes_per_rep") == 510 * bytes);
        assert_true(param_num(&t, r, "local_bytes") == 510 * bytes);
        assert_true(param_num(&t, r, "global_bytes") == 2 * bytes);
        assert_int_equal(param_ll(&t, r, "loads_per_barrier"), 32 / v);
        assert_int_equal(param_ll(&t, r, "group"), 64);
        assert_int_equal(param_ll(&t, r, "rounds"), 255);
        assert_true(num(&t, r, "work_items") == bytes / 8192 * 64);
        assert_true(num(&t, r, "figure") > 0);
        best = fmax(best, num(&t, r, "figure"));
        assert_string_equal(cell(&t, r, "ref_ratio"), "");
        expect_cell_has(&t, r, "note", "local memory is the CPU's cache-resident stack/heap");
        /* Not a memory-peak row: never judged against the memory's peak or its cache levels. */
        assert_null(strstr(cell(&t, r, "flags"), "cache"));
    }
    assert_int_equal(find_row(&t, "kernel-local-memory", "fit", NULL), -1);
    int m = must_find_row(&t, "kernel-local-memory", "matrix", NULL);
    assert_non_null(strstr(cell(&t, m, "params"), "from=local;to=local;engine=kernel;vector="));
    assert_true(num(&t, m, "figure") == best);
    table_free(&t);
    /* PoCL knows no local-memory bytes per clock: the peak is empty, and the metadata says why. */
    char *meta = slurp_tmp("local/bandwidth-opencl.meta.csv");
    expect_in(meta, "\npeak.local_GBps,\n");
    expect_in(meta, "\npeak.local_source,unknown: ");
    free(meta);
}

/* A word spoiled after the kernel fails the row of the first width, and is
 * named: the byte in the middle of the buffer, spoiled, is its word
 * size / 8. */
static void test_planted_failure_names_the_local_word(void **state)
{
    (void)state;
    int j;
    table t = run_planted_failure(&j, "verify", "bandwidth-opencl", "--sizes 64K --reps 3:5 --paths kernel-local-memory",
                                  "local", "variant", "kernel-local-memory",
                                  "destination differs from the host's replay of the rounds, first at word ",
                                  (const char *)NULL);
    assert_string_equal(cell(&t, j, "sweep"), "local-width");
    assert_int_equal(param_ll(&t, j, "vector"), 1);
    char word[64];
    snprintf(word, sizeof word, "first at word %.0f", num(&t, j, "size_bytes") / 8);
    expect_cell_has(&t, j, "note", word);
    table_free(&t);
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_planted_failure_fails_the_run,
              test_planted_failure_is_left_out_of_the_fit, test_too_few_valid_points_leave_the_fit_invalid,
              test_no_valid_point_leaves_the_fit_invalid, test_cuda_lists_paths_without_gpu,
              test_cuda_binary_without_gpu, test_transfer_paths_run_verified,
              test_planted_failure_names_the_duplex_transfer, test_local_memory_path_runs_verified,
              test_planted_failure_names_the_local_word, test_quick_run_covers_every_path)
