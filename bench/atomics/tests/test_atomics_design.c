/* The atomics design on a fake device whose operations slow down with
 * contention as real ones do: every degree of the sweep, and every lock
 * point, gets its own operations per work-item, each repetition near the
 * target time; a point where one operation per work-item outlasts the time
 * budget is not run at length. And the stride sweep's local memory: a
 * group's counters need (slots - 1) * stride + 1 elements, so the largest
 * stride that fits exactly is accepted and the next refused in one line.
 *
 * The fake adds, with or without a compare-and-swap loop, in global
 * memory, and adds in local memory: it computes the counters a run leaves
 * (which the design verifies) in one thread and reports a modelled time. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "atomics/backend.h"
#include "atomics/calibrate.h"
#include "atomics/truth.h"
#include "atomics/state.h"
#include "tests/in_process.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT_U32 uint32_t
#include "atomics/pattern.h"

#define LAUNCH_S 5e-6
#define MAX_DEGREE 4
#define MAX_GROUPS 8

static struct {
    uint64_t work_items, work_group, local_mem_bytes;
    double op_s;          /* one operation of one work-item, uncontended */
    double slow_degree_s; /* an operation at MAX_DEGREE, where not 0 */
    /* what the fake saw */
    uint32_t last_iters[MAX_DEGREE + 1]; /* the last run of each degree: a measured repetition */
    unsigned runs[MAX_DEGREE + 1];
    uint32_t lock_iters[MAX_GROUPS + 1];
    double longest_s; /* the longest modelled repetition or pilot */
    uint32_t *counters;
    uint64_t n_counters;
} fk;

/* An operation's time at a degree: contention serialises the degree's
 * work-items on their counter, and each waits on the others' traffic. */
static double op_seconds(uint64_t degree)
{
    if (degree == MAX_DEGREE && fk.slow_degree_s > 0)
        return fk.slow_degree_s;
    return fk.op_s * (double)(degree * degree);
}

static void modelled(cr_timing *t, double seconds)
{
    *t = (cr_timing){.has_event = false, .host_ns = (uint64_t)(seconds * 1e9)};
    fk.longest_s = seconds > fk.longest_s ? seconds : fk.longest_s;
}

static cr_status fake_supports(at_op op, at_type type, at_space space, const char **how, char *err, size_t errlen)
{
    if (how)
        *how = "native";
    if ((op == AT_ADD || op == AT_CAS) && type == AT_TYPE_U32 && (space == AT_GLOBAL || op == AT_ADD))
        return CR_OK;
    snprintf(err, errlen, "the fake adds uint32 (and compares and swaps in global memory) only");
    return CR_UNSUPPORTED;
}

/* A group's counters in local memory start at init; each slot's sum is
 * written out packed per group, as the kernels do. */
static void add_in_local_memory(const at_run *r)
{
    uint64_t per = at_slots(r->work_group, r->degree);
    for (uint64_t g = 0; g < r->work_items; ++g) {
        uint64_t lid = g % r->work_group, k = g / r->work_group * per + lid / r->degree;
        assert_true(k < fk.n_counters);
        if (lid % r->degree == 0)
            fk.counters[k] = (uint32_t)r->init;
        fk.counters[k] += AT_ADD_VALUE(g) * r->iters;
    }
}

static cr_status fake_prepare(at_type type, uint64_t counters, uint64_t outs, char *err, size_t errlen)
{
    (void)type, (void)outs;
    free(fk.counters);
    fk.counters = calloc(counters ? counters : 1, sizeof *fk.counters);
    fk.n_counters = counters;
    if (fk.counters == NULL)
        snprintf(err, errlen, "out of memory");
    return fk.counters ? CR_OK : CR_ERR;
}

static cr_status fake_upload(const void *src, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    assert_true(n <= fk.n_counters);
    memcpy(fk.counters, src, n * sizeof *fk.counters);
    return CR_OK;
}

static cr_status fake_download(void *dst, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    assert_true(n <= fk.n_counters);
    memcpy(dst, fk.counters, n * sizeof *fk.counters);
    return CR_OK;
}

static cr_status fake_download_out(uint64_t *dst, uint64_t n, char *err, size_t errlen)
{
    (void)dst, (void)n;
    snprintf(err, errlen, "the fake has no reads");
    return CR_ERR;
}

static cr_status fake_run(const at_run *r, cr_timing *t, char *err, size_t errlen)
{
    cr_status st = fake_supports(r->op, r->type, r->space, NULL, err, errlen);
    if (st != CR_OK)
        return st;
    assert_true(r->degree >= 1 && r->degree <= MAX_DEGREE && r->iters >= 1);
    if (r->space == AT_LOCAL)
        add_in_local_memory(r);
    for (uint64_t g = 0; r->space == AT_GLOBAL && g < r->work_items; ++g) {
        uint64_t k = AT_INDEX(AT_SLOT(g, r->degree), r->stride);
        assert_true(k < fk.n_counters);
        fk.counters[k] += AT_ADD_VALUE(g) * r->iters;
    }
    fk.last_iters[r->degree] = r->iters;
    fk.runs[r->degree]++;
    modelled(t, LAUNCH_S + r->iters * op_seconds(r->degree));
    return CR_OK;
}

static cr_status fake_launch_empty(double *enqueue_to_start_s, double *round_trip_s, char *err, size_t errlen)
{
    (void)enqueue_to_start_s, (void)round_trip_s;
    snprintf(err, errlen, "no launches on the fake device");
    return CR_UNSUPPORTED;
}

/* The lock's holders take turns: the groups' acquisitions serialise. */
static cr_status fake_run_lock(at_lock kind, uint64_t groups, uint32_t iters, cr_timing *t, uint64_t *counter,
                               char *err, size_t errlen)
{
    (void)kind, (void)err, (void)errlen;
    assert_true(groups >= 1 && groups <= MAX_GROUPS && iters >= 1);
    fk.lock_iters[groups] = iters;
    *counter = groups * iters;
    modelled(t, LAUNCH_S + iters * (double)groups * 2 * fk.op_s);
    return CR_OK;
}

static void fake_geometry(uint64_t *work_items, uint64_t *work_group, uint64_t *max_work_group)
{
    *work_items = fk.work_items;
    *work_group = *max_work_group = fk.work_group;
}

static cr_status fake_list_devices(FILE *f)
{
    fprintf(f, "0  fake device\n");
    return CR_OK;
}

static cr_status fake_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    /* a discrete device: no host sweep beside it; MAX_GROUPS lock groups */
    *info = (cr_device_info){.compute_units = MAX_GROUPS / 8, .warp_size = 1, .global_mem_bytes = 1 << 26,
                             .max_alloc_bytes = 1 << 24, .local_mem_bytes = fk.local_mem_bytes,
                             .max_work_group = fk.work_group, .timer_resolution_ns = 1};
    snprintf(info->name, sizeof info->name, "fake device");
    return CR_OK;
}

static void fake_close(void)
{
    free(fk.counters);
    fk.counters = NULL;
    fk.n_counters = 0;
}

static const at_backend fake = {
    .base = {.name = "fake", .list_devices = fake_list_devices, .open = fake_open, .close = fake_close},
    .supports = fake_supports, .prepare = fake_prepare, .upload = fake_upload, .download = fake_download,
    .download_out = fake_download_out, .run = fake_run, .launch_empty = fake_launch_empty,
    .run_lock = fake_run_lock, .geometry = fake_geometry,
};

static char dir[64];
CR_SCRATCH_FIXTURES(dir, "atomics-design")

static char errors[4096]; /* the last run's stderr */

/* Runs the design with the options in args (space-separated), expecting
 * the exit status want; its stderr is left in errors. */
static void run_design(const char *args, int want)
{
    char buf[512], log[128], *argv[40] = {"atomics-fake"};
    int argc = 1;
    snprintf(buf, sizeof buf, "%s --no-bind --out %s", args, dir);
    for (char *tok = strtok(buf, " "); tok && argc < 39; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    snprintf(log, sizeof log, "%s/stderr.txt", dir);
    memset(fk.last_iters, 0, sizeof fk.last_iters);
    memset(fk.runs, 0, sizeof fk.runs);
    memset(fk.lock_iters, 0, sizeof fk.lock_iters);
    fk.longest_s = 0;
    in_process io = in_process_begin(log);
    int rc = atomics_main(argc, argv, &fake);
    in_process_end(io);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(errors, 1, sizeof errors - 1, f) : 0;
    errors[n] = '\0';
    if (f)
        fclose(f);
    if (rc != want)
        fail_msg("exit %d, not %d, for %s: %s", rc, want, args, errors);
}

static void in_groups_of_one(void)
{
    fk.work_items = MAX_DEGREE;
    fk.work_group = 1;
    fk.local_mem_bytes = 0;
    fk.op_s = 1e-6;
    fk.slow_degree_s = 0;
}

#define CONTENDED "--degrees 1:4:x2 --ops cas --types uint32 --spaces global --reps 3:3 --warmup 1 --max-time 0.5"

/* 1 us an operation uncontended, 16 us at degree 4: one count for all
 * would make the degree-4 repetitions 16 times the target. */
static void test_every_degree_gets_its_own_count(void **state)
{
    (void)state;
    in_groups_of_one();
    run_design(CONTENDED " --sweeps degree,locks", 0);
    for (uint64_t d = 1; d <= MAX_DEGREE; d *= 2) {
        double rep = LAUNCH_S + fk.last_iters[d] * op_seconds(d);
        if (rep < 0.5 * AT_TARGET_S || rep > 1.01 * AT_TARGET_S)
            fail_msg("degree %d: %u operations per work-item, a repetition of %.3g s for a target of %.3g s",
                     (int)d, fk.last_iters[d], rep, AT_TARGET_S);
        if (d > 1)
            assert_true(fk.last_iters[d] < fk.last_iters[d / 2]);
    }
    for (uint64_t g = 2; g <= MAX_GROUPS; g *= 2)
        assert_true(fk.lock_iters[g] >= 1 && fk.lock_iters[g] < fk.lock_iters[g / 2]);
    assert_true(fk.longest_s <= 1.01 * AT_TARGET_S);
}

/* --iters still fixes the count everywhere. */
static void test_iters_option_is_used_at_every_point(void **state)
{
    (void)state;
    in_groups_of_one();
    run_design(CONTENDED " --sweeps degree --iters 50", 0);
    for (uint64_t d = 1; d <= MAX_DEGREE; d *= 2)
        assert_int_equal(fk.last_iters[d], 50);
}

/* One operation per work-item at degree 4 takes a second, above the 0.5 s
 * budget of a point: one pilot of one operation, not repeated, and no
 * repetitions; the other points run as usual and the run succeeds. */
static void test_a_point_beyond_its_budget_is_not_run_at_length(void **state)
{
    (void)state;
    in_groups_of_one();
    fk.slow_degree_s = 1.0;
    run_design(CONTENDED " --sweeps degree", 0);
    assert_int_equal(fk.runs[MAX_DEGREE], 1);
    assert_int_equal(fk.last_iters[MAX_DEGREE], 1);
    assert_true(fk.runs[2] > 2);
}

/* What the device cannot run is refused before anything runs: the host's
 * sweep beside a discrete device, an operation the device lacks. */
static void test_what_the_device_cannot_run_is_refused(void **state)
{
    (void)state;
    in_groups_of_one();
    run_design("--sweeps host --ops add --types uint32", CR_EXIT_USAGE);
    assert_non_null(strstr(errors, "--sweeps host measures nothing on this device with --ops add and --types uint32: "
                                   "the host's atomics run beside a CPU or APU device only\n"));
    run_design("--sweeps degree --ops add,cas --spaces local --types uint32", CR_EXIT_USAGE);
    assert_non_null(strstr(errors, "--ops cas measures nothing on this device with --sweeps degree and --types uint32 "
                                   "and --spaces local: the fake adds uint32"));
}

/* ---- local memory of the stride sweep ---- */

/* 256 work-items a group, uint32 counters: at stride 64 they span
 * (255 * 64 + 1) * 4 = 65284 bytes, where 256 * 64 * 4 = 65536 would be
 * allocated by slots x stride. */
#define GROUP 256
#define FITS 64
#define EXACT_BYTES (((uint64_t)GROUP - 1) * FITS + 1) * 4

static void test_local_bytes_stop_after_the_last_slot(void **state)
{
    (void)state;
    at_run r = {.op = AT_ADD, .type = AT_TYPE_U32, .space = AT_LOCAL, .stride = FITS, .degree = 1,
                .work_items = 4 * GROUP, .work_group = GROUP};
    assert_int_equal(at_local_bytes(&r), EXACT_BYTES);
    char err[128] = "";
    assert_int_equal(at_local_fits(&r, EXACT_BYTES, err, sizeof err), CR_OK);
    r.stride = FITS + 1;
    assert_int_equal(at_local_fits(&r, EXACT_BYTES, err, sizeof err), CR_UNSUPPORTED);
    assert_string_equal(err, "needs 66304 bytes of local memory, the device allows 65284");
    /* degree 4: 64 slots of 8 bytes */
    r = (at_run){.type = AT_TYPE_U64, .space = AT_LOCAL, .stride = 3, .degree = 4, .work_group = GROUP};
    assert_int_equal(at_local_bytes(&r), (63 * 3 + 1) * 8);
    r.stride = UINT64_MAX / 2;
    assert_int_equal(at_local_bytes(&r), UINT64_MAX);
    assert_int_equal(at_local_fits(&r, UINT64_MAX - 1, err, sizeof err), CR_UNSUPPORTED);
    assert_null(strchr(err, '\n'));
}

static void in_groups_of_256(void)
{
    in_groups_of_one();
    fk.work_items = fk.work_group = GROUP;
    fk.local_mem_bytes = EXACT_BYTES;
}

#define LOCAL_STRIDES "--spaces local --sweeps stride --ops add --types uint32 --iters 1 --reps 3:3 --strides "

static void test_stride_that_fits_exactly_is_accepted(void **state)
{
    (void)state;
    in_groups_of_256();
    run_design(LOCAL_STRIDES "64:64:x2", 0);
    assert_null(strstr(errors, "error"));
}

static void test_next_stride_is_refused_in_one_line(void **state)
{
    (void)state;
    in_groups_of_256();
    run_design(LOCAL_STRIDES "65:65:x2", CR_EXIT_USAGE);
    assert_non_null(strstr(errors, "--strides reaches 65 elements"));
    assert_non_null(strchr(errors, '\n'));
    assert_string_equal(strchr(errors, '\n'), "\n");
}

/* A ratio row beside the host's: alike rates on the device where the
 * host's threads slow 5 x on one address is contention the device never
 * ran; a device that slows, or a host that does not, is not flagged. */
static void test_contention_without_concurrency_is_flagged(void **state)
{
    (void)state;
    static at_state s;
    s.host.work_items = 2;
    s.host_uncontended[AT_ADD][AT_TYPE_U32] = 500;
    s.host_contended[AT_ADD][AT_TYPE_U32] = 100;
    static const struct {
        double device, host_contended;
        bool flagged;
    } cases[] = {{0.97, 100, true}, {1.2, 100, true}, {1.3, 100, false}, {8.0, 100, false}, {0.97, 300, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cr_result row;
        memset(&row, 0, sizeof row);
        row.figure = cases[i].device;
        s.host_contended[AT_ADD][AT_TYPE_U32] = cases[i].host_contended;
        at_judge_concurrency(&s, AT_TYPE_U32, AT_ADD, &row);
        bool flagged = strstr(row.flags, "not-concurrent") != NULL;
        if (flagged != cases[i].flagged)
            fail_msg("device ratio %g, host %g: flags '%s'", cases[i].device, 500 / cases[i].host_contended, row.flags);
        assert_non_null(strstr(row.params, "host_ratio="));
        if (flagged)
            assert_non_null(strstr(row.note, "the device did not run the contending work-items at once"));
    }
    /* No host figure: nothing to judge by. */
    s.host_contended[AT_ADD][AT_TYPE_U32] = 0;
    cr_result row;
    memset(&row, 0, sizeof row);
    row.figure = 1.0;
    at_judge_concurrency(&s, AT_TYPE_U32, AT_ADD, &row);
    assert_string_equal(row.flags, "");
}

TEST_MAIN(scratch_setup, scratch_teardown, test_every_degree_gets_its_own_count,
          test_iters_option_is_used_at_every_point, test_a_point_beyond_its_budget_is_not_run_at_length,
          test_what_the_device_cannot_run_is_refused,
          test_local_bytes_stop_after_the_last_slot, test_stride_that_fits_exactly_is_accepted,
          test_next_stride_is_refused_in_one_line,
          test_contention_without_concurrency_is_flagged)
