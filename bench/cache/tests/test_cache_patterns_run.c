/* cc_patterns_run on a backend played by the host (fake pattern ops that
 * run the kernel's own loop, CC_RUN, over host buffers): the rows it
 * records and their order, the traces beside them, the model's prediction
 * where it is plain (a chase that fits the first level, one that fits
 * none), a run that fails verification (its row invalid, the others still
 * run, the status -1), a backend without pattern kernels and a row that
 * cannot be written. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/pattern_index.h"
#include "cache/patterns.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char scratch[64];
CR_SCRATCH_FIXTURES(scratch, "cache-patterns")

static struct {
    cc_pattern_shape shape;
    uint64_t *words;
    unsigned corrupt_kind; /* CC_PATTERNS: none */
    bool released;
} fake;

static cr_status fake_prepare(const cc_pattern_shape *s, const void *init, uint64_t bytes, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    free(fake.words);
    fake.words = malloc(bytes);
    memcpy(fake.words, init, bytes);
    fake.shape = *s;
    return CR_OK;
}

static cr_status fake_run(cr_timing *t, uint64_t *check, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    cc_pattern_shape s = fake.shape;
    uint64_t *b0 = fake.words, *b1 = s.buffers > 1 ? b0 + s.words : b0, *b2 = s.buffers > 2 ? b0 + 2 * s.words : b0;
    uint64_t sum = 0, mask = 0;
    CC_RUN(s, b0, b1, b2, s.accesses, mask, sum);
    *check = sum + (s.kind == fake.corrupt_kind);
    *t = (cr_timing){.host_ns = 1000 + s.accesses};
    return CR_OK;
}

static void fake_release(void)
{
    free(fake.words);
    fake.words = NULL;
    fake.released = true;
}

static const cc_pattern_ops fake_ops = {.prepare = fake_prepare, .run = fake_run, .release = fake_release};

typedef struct {
    cr_result rows[64];
    int n, fail_at;
} sink;

static int collect(void *ctx, const cr_result *row)
{
    sink *s = ctx;
    if (s->n == s->fail_at || s->n == 64)
        return -1;
    s->rows[s->n++] = *row;
    return 0;
}

/* L1 1 KiB, 2 ways, 1 ns; L2 8 KiB, 4 ways, 10 ns; memory 100 ns: the
 * footprints are 512 B, 4 KiB and 32 KiB. */
static const cc_geometry geometry = {
    .count = 2,
    .level = {{.name = "L1d", .capacity = 1024, .line = 64, .ways = 2, .latency_ns = 1},
              {.name = "L2", .capacity = 8192, .line = 64, .ways = 4, .latency_ns = 10}},
    .memory_ns = 100,
};

static cr_session session;
static cr_measure_ctx meas;

static cc_pattern_env env_for(sink *out, const cc_pattern_ops *ops)
{
    memset(&session, 0, sizeof session);
    session.opt.program = "test";
    snprintf(session.base, sizeof session.base, "%s/cache-fake", scratch);
    snprintf(session.benchmark, sizeof session.benchmark, "cache");
    snprintf(session.backend, sizeof session.backend, "fake");
    snprintf(session.info.name, sizeof session.info.name, "fake device");
    cr_stop_rule rule = {.min_reps = 3, .max_reps = 3, .max_time_s = 1, .target_ci = 0.5};
    cr_measure_init(&meas, &rule, 0, 1e-9);
    *out = (sink){.fail_at = -1};
    fake.corrupt_kind = CC_PATTERNS;
    fake.released = false;
    return (cc_pattern_env){.ses = &session, .meas = &meas, .ops = ops, .geometry = &geometry, .record = collect,
                            .record_ctx = out, .max_accesses = 512};
}

static const cr_result *find(const sink *s, const char *sweep, const char *variant, uint64_t bytes)
{
    for (int i = 0; i < s->n; ++i)
        if (strcmp(s->rows[i].sweep, sweep) == 0 && strcmp(s->rows[i].variant, variant) == 0 &&
            s->rows[i].size_bytes == bytes)
            return &s->rows[i];
    fail_msg("no %s row of %s at %llu B", sweep, variant, (unsigned long long)bytes);
    return NULL;
}

/* Which points fit 512 accesses: stream (512 B, 4 KiB), chase and stride
 * (all three), stencil (512 B: a 5 x 5 grid), transpose (512 B, 4 KiB);
 * matmul's smallest (8 x 8 tiles) is past 512 B and past the budget. */
static void test_rows_traces_and_model(void **state)
{
    (void)state;
    sink out;
    cc_pattern_env env = env_for(&out, &fake_ops);
    assert_int_equal(cc_patterns_run(&env), 0);
    assert_true(fake.released);
    assert_int_equal(out.n, 22);
    for (int i = 0; i < out.n; i += 2) {
        const cr_result *p = &out.rows[i], *m = &out.rows[i + 1];
        assert_string_equal(p->sweep, "pattern");
        assert_string_equal(m->sweep, "model");
        assert_string_equal(p->variant, m->variant);
        assert_true(p->valid);
        assert_true(m->valid);
        assert_true(p->figure > 0);
        assert_non_null(strstr(m->params, "error_pct="));
        assert_non_null(strstr(m->params, "hit_L1d="));
        assert_non_null(strstr(m->params, ";prefetch=stride:1:1;predicted_prefetch_ns="));
        assert_non_null(strstr(m->params, ";error_prefetch_pct="));
        assert_non_null(strstr(m->note, "perf "));
        assert_string_equal(p->backend, "fake");
        assert_string_equal(p->benchmark, "cache");
    }
    const cr_result *small = find(&out, "model", "chase", 512), *large = find(&out, "model", "chase", 32768);
    assert_float_equal(small->figure, 1.0, 1e-12);
    assert_non_null(strstr(small->params, "hit_L1d=1.0000;hit_L2=0.0000;hit_mem=0.0000"));
    assert_float_equal(large->figure, 100.0, 1e-12);
    const cr_result *p = find(&out, "pattern", "chase", 512);
    assert_non_null(strstr(p->params, "target=L1d;accesses=256;pass=8;line=64;trace=cache-fake-chase-512B.trace"));
    find(&out, "pattern", "stencil", 2 * 5 * 5 * 8);
    find(&out, "pattern", "transpose", 2 * 16 * 16 * 8);
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/cache-fake-chase-32768B.trace", scratch);
    assert_int_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/cache-fake-stride-4096B.trace", scratch);
    assert_int_equal(stat(path, &st), 0);
}

/* A budget of 64 accesses: the chase over 32 KiB is the first 64 of a
 * pass of 512, its 4 KiB of lines spread over 32 KiB (model-prefix); the
 * one over 4 KiB is a whole pass, and the one over 512 B too. */
static void test_a_prefix_spread_over_its_span_is_flagged(void **state)
{
    (void)state;
    sink out;
    cc_pattern_env env = env_for(&out, &fake_ops);
    env.max_accesses = 64;
    assert_int_equal(cc_patterns_run(&env), 0);
    const cr_result *large = find(&out, "model", "chase", 32768);
    assert_non_null(strstr(large->flags, "model-prefix"));
    assert_non_null(strstr(large->note, "model-prefix: the trace is the first 64 accesses of a pass of 512: at most "
                                        "4 KiB of lines, spread over 32 KiB"));
    assert_null(strstr(find(&out, "model", "chase", 4096)->flags, "model-prefix"));
    assert_null(strstr(find(&out, "model", "chase", 512)->flags, "model-prefix"));
}

static void test_failed_verification(void **state)
{
    (void)state;
    sink out;
    cc_pattern_env env = env_for(&out, &fake_ops);
    fake.corrupt_kind = CC_STENCIL;
    assert_int_equal(cc_patterns_run(&env), -1);
    assert_int_equal(out.n, 22);
    const cr_result *bad = find(&out, "pattern", "stencil", 400);
    assert_false(bad->valid);
    assert_non_null(strstr(bad->note, "checksum "));
    assert_false(find(&out, "model", "stencil", 400)->valid);
    assert_true(find(&out, "pattern", "transpose", 400)->valid);
}

static void test_backend_without_kernels(void **state)
{
    (void)state;
    sink out;
    cc_pattern_env env = env_for(&out, NULL);
    assert_int_equal(cc_patterns_run(&env), 0);
    assert_int_equal(out.n, CC_PATTERNS);
    assert_string_equal(out.rows[0].stop, "unsupported");
    assert_string_equal(out.rows[0].note, "not supported: the fake backend has no pattern kernels");
}

static void test_unwritable_row_stops(void **state)
{
    (void)state;
    sink out;
    cc_pattern_env env = env_for(&out, &fake_ops);
    out.fail_at = 3;
    assert_int_equal(cc_patterns_run(&env), -1);
    assert_int_equal(out.n, 3);
    assert_true(fake.released);
}

/* A first-level line past today's (a misreading of the detection) does
 * not space the chase: 64 B does, and the row says so. */
static void test_implausible_line_spaces_by_64_bytes(void **state)
{
    (void)state;
    sink out;
    cc_pattern_env env = env_for(&out, &fake_ops);
    cc_geometry odd = {
        .count = 2,
        .level = {{.name = "L1d", .capacity = 16384, .line = 4096, .ways = 2, .latency_ns = 1},
                  {.name = "L2", .capacity = 65536, .line = 64, .ways = 4, .latency_ns = 10}},
        .memory_ns = 100,
    };
    env.geometry = &odd;
    assert_int_equal(cc_patterns_run(&env), 0);
    const cr_result *p = find(&out, "pattern", "chase", 8192);
    assert_non_null(strstr(p->params, "pass=128;line=64;"));
}

TEST_MAIN(scratch_setup, scratch_teardown, test_rows_traces_and_model, test_a_prefix_spread_over_its_span_is_flagged,
          test_failed_verification, test_backend_without_kernels, test_unwritable_row_stops,
          test_implausible_line_spaces_by_64_bytes)
