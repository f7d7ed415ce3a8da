/* The design places every path's data before each repetition: a fake
 * backend whose data moves "to the device" in every repetition, as managed
 * pages do, and back only through place(). Every repetition, warm-up ones
 * included, must find the data placed, and no phase but the first may be
 * preceded by a placement; a backend without the hook still runs. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bandwidth/backend.h"
#include "bandwidth/tests/fake_device.h"

#include "tests/csv_reader.h"
#include "tests/in_process.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <string.h>

#define WARMUP 2
#define MIN_REPS 3

enum { FAKE_COPY, FAKE_ACCESS, N_FAKE };

static const bw_path fake_paths[N_FAKE] = {
    {.key = "h2d-fake-copy", .desc = "a copy that leaves its data on the device", .kind = BW_COPY, .phases = 1,
     .id = FAKE_COPY},
    {.key = "cpu-fake-access", .desc = "map, access, unmap", .kind = BW_CPU_ACCESS, .phases = 3, .id = FAKE_ACCESS},
};

/* What the backend saw, per path. */
static struct {
    bool data_on_host;     /* where the last repetition or place() left the data */
    unsigned next_phase;   /* the phase a repetition in progress runs next */
    unsigned places;       /* place() calls */
    unsigned reps;         /* repetitions started (phase 0 runs) */
    unsigned unplaced;     /* repetitions that started with the data elsewhere */
    unsigned mid_rep;      /* place() calls between two phases of one repetition */
    unsigned out_of_order; /* phases run out of turn */
} seen[N_FAKE];
static const void *prepared_src;
static uint64_t prepared_bytes;

static size_t fake_list(const bw_path **out)
{
    *out = fake_paths;
    return N_FAKE;
}

static cr_status fake_supported(const bw_path *p, char *why, size_t len)
{
    (void)p, (void)why, (void)len;
    return CR_OK;
}

static cr_status fake_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    prepared_src = src;
    prepared_bytes = bytes;
    seen[p->id].data_on_host = true; /* the CPU filled it */
    seen[p->id].next_phase = 0;
    return CR_OK;
}

static cr_status fake_place(const bw_path *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    seen[p->id].places++;
    if (seen[p->id].next_phase != 0)
        seen[p->id].mid_rep++;
    seen[p->id].data_on_host = true;
    return CR_OK;
}

static cr_status fake_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    if (phase != seen[p->id].next_phase)
        seen[p->id].out_of_order++;
    if (phase == 0) {
        seen[p->id].reps++;
        seen[p->id].unplaced += !seen[p->id].data_on_host;
        seen[p->id].data_on_host = false; /* migrated by the repetition itself */
    }
    seen[p->id].next_phase = (phase + 1) % p->phases;
    /* a fixed cost and 1 GB/s: a transfer model can be fitted */
    *t = (cr_timing){.has_event = false, .host_ns = 1000 * (phase + 1) + prepared_bytes};
    return CR_OK;
}

static cr_status fake_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    (void)p, (void)sum, (void)err, (void)errlen;
    memcpy(dst, prepared_src, (size_t)prepared_bytes);
    return CR_OK;
}

static bw_backend fake = {
    .base = FAKE_DEVICE_BASE,
    .paths = fake_list, .supported = fake_supported, .prepare = fake_prepare, .place = fake_place, .run = fake_run,
    .result = fake_result, .release = fake_release,
};

static char dir[64];
CR_SCRATCH_FIXTURES(dir, "placement")

/* Runs the design on fake over two sizes, with option (NULL: none) and
 * its stderr in errors (NULL: left as it is); its exit status. */
static int run_design_with(char *option, const char *errors)
{
    char *argv[] = {"bandwidth-fake", "--sizes", "4K:8K:x2", "--reps", "3:4", "--warmup", "2", "--max-time", "0.2",
                    "--no-bind", "--out", dir, option, NULL};
    memset(seen, 0, sizeof seen);
    in_process io = in_process_begin(errors);
    int rc = bandwidth_main((int)(sizeof argv / sizeof argv[0]) - 1 - (option == NULL), argv, &fake);
    in_process_end(io);
    return rc;
}

static int run_design(void) { return run_design_with(NULL, NULL); }

static void every_repetition_starts_placed(void **state)
{
    (void)state;
    fake.place = fake_place;
    assert_int_equal(run_design(), 0);
    for (int p = 0; p < N_FAKE; ++p) {
        /* two sizes, each its warm-up and at least the minimum repetitions */
        assert_true(seen[p].reps >= 2 * (WARMUP + MIN_REPS));
        assert_int_equal(seen[p].places, seen[p].reps);
        assert_int_equal(seen[p].unplaced, 0);
        assert_int_equal(seen[p].mid_rep, 0);
        assert_int_equal(seen[p].out_of_order, 0);
    }
}

/* Without the hook the data stays where the repetitions leave it: the
 * fake's bookkeeping does see unplaced repetitions, so the test above
 * cannot pass by accident. */
static void without_the_hook_repetitions_run_unplaced(void **state)
{
    (void)state;
    fake.place = NULL;
    assert_int_equal(run_design(), 0);
    for (int p = 0; p < N_FAKE; ++p) {
        assert_int_equal(seen[p].places, 0);
        assert_true(seen[p].unplaced >= seen[p].reps - 2); /* all but the first of each size */
    }
    fake.place = fake_place;
}

static unsigned oversubscriptions;
static void fake_oversubscribe(void) { ++oversubscriptions; }

/* --oversubscribe reaches a backend that has allocations it lets grow
 * beyond the device's free memory, after open and before any path is
 * prepared, and is recorded; a backend without any refuses it, in one
 * line, before anything runs. */
static void oversubscription_is_the_backends_or_refused(void **state)
{
    (void)state;
    fake.oversubscribe = fake_oversubscribe;
    oversubscriptions = 0;
    assert_int_equal(run_design_with("--oversubscribe", NULL), 0);
    assert_int_equal(oversubscriptions, 1);
    char path[128];
    snprintf(path, sizeof path, "%s/bandwidth-fake.meta.csv", dir);
    char *meta = csv_slurp(path);
    assert_non_null(meta);
    assert_non_null(strstr(meta, "\noversubscribe,1\n"));
    free(meta);
    assert_int_equal(run_design(), 0);
    assert_int_equal(oversubscriptions, 1);

    fake.oversubscribe = NULL;
    snprintf(path, sizeof path, "%s/stderr", dir);
    assert_int_equal(run_design_with("--oversubscribe", path), CR_EXIT_USAGE);
    char *said = csv_slurp(path);
    assert_non_null(said);
    assert_string_equal(said, "bandwidth-fake: error: --oversubscribe: the fake backend has no allocation that could "
                              "exceed the device's memory\n");
    free(said);
    assert_int_equal(seen[FAKE_COPY].reps, 0);
}

TEST_MAIN(scratch_setup, scratch_teardown, every_repetition_starts_placed,
          without_the_hook_repetitions_run_unplaced, oversubscription_is_the_backends_or_refused)
