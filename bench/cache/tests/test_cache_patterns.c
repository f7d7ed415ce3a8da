/* The pattern index (pattern_index.h), the shapes (patterns_shape.c), the
 * host's replay and the trace file it writes (trace_out.c): each pattern's
 * first accesses against addresses worked out by hand, a pass that comes
 * back to where it began, the kernel's loop run on host memory giving the
 * replay's checksum, and a tiny trace byte for byte. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/pattern_index.h"
#include "cache/patterns_shape.h"
#include "cache/trace_out.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned buffer;
    uint64_t offset;
    unsigned write;
} want_access;

static void expect_accesses(const cc_pattern_shape *s, const want_access *want, size_t n)
{
    cc_cursor c;
    cc_cursor_start(s, &c);
    for (size_t k = 0; k < n; ++k) {
        cc_access a = cc_cursor_next(s, &c);
        if (a.buffer != want[k].buffer || a.offset != want[k].offset || a.write != want[k].write)
            fail_msg("%s access %zu: buffer %u element %llu %s, expected buffer %u element %llu %s",
                     cc_pattern_names[s->kind], k, a.buffer, (unsigned long long)a.offset, a.write ? "W" : "R",
                     want[k].buffer, (unsigned long long)want[k].offset, want[k].write ? "W" : "R");
    }
}

static void test_stream_first_accesses(void **state)
{
    (void)state;
    cc_pattern_shape s = {.kind = CC_STREAM, .buffers = 2, .words = 2, .pass = 4};
    const want_access want[] = {{0, 0, 0}, {1, 0, 1}, {0, 1, 0}, {1, 1, 1}, {0, 0, 0}, {1, 0, 1}};
    expect_accesses(&s, want, 6);
}

/* bits 4: mask 15, shift 3; the multipliers' low nibbles are 5 and 9.
 * i=1: 5 -> 5 ^ 0 = 5 -> 45 & 15 = 13 -> 13 ^ 1 = 12;
 * i=2: 10 -> 10 ^ 1 = 11 -> 99 & 15 = 3 -> 3;
 * i=3: 15 -> 15 ^ 1 = 14 -> 126 & 15 = 14 -> 14 ^ 1 = 15. */
static void test_chase_first_accesses(void **state)
{
    (void)state;
    cc_pattern_shape s = {.kind = CC_CHASE, .buffers = 1, .bits = 4, .n = 16, .step = 8, .words = 128, .pass = 16};
    const want_access want[] = {{0, 0, 0}, {0, 12 * 8, 0}, {0, 3 * 8, 0}, {0, 15 * 8, 0}};
    expect_accesses(&s, want, 4);
}

static void test_chase_visits_every_line_once(void **state)
{
    (void)state;
    for (unsigned bits = 0; bits <= 12; ++bits) {
        uint64_t lines = UINT64_C(1) << bits;
        unsigned char *seen = calloc(lines, 1);
        assert_non_null(seen);
        for (uint64_t i = 0; i < lines; ++i) {
            uint64_t l = cc_chase_line(i, bits);
            assert_true(l < lines);
            assert_int_equal(seen[l], 0);
            seen[l] = 1;
        }
        free(seen);
    }
}

static void test_stride_first_accesses(void **state)
{
    (void)state;
    cc_pattern_shape s = {.kind = CC_STRIDE, .buffers = 1, .step = 4, .words = 16, .pass = 4};
    const want_access want[] = {{0, 0, 0}, {0, 4, 0}, {0, 8, 0}, {0, 12, 0}, {0, 0, 0}};
    expect_accesses(&s, want, 5);
}

/* A 4 x 4 grid: interior points (1,1), (1,2), (2,1), (2,2), i.e. elements
 * 5, 6, 9, 10; each reads north, west, itself, east, south and stores. */
static void test_stencil_first_accesses(void **state)
{
    (void)state;
    cc_pattern_shape s = {.kind = CC_STENCIL, .buffers = 2, .n = 4, .words = 16, .pass = 24};
    const want_access want[] = {{0, 1, 0}, {0, 4, 0}, {0, 5, 0},  {0, 6, 0},  {0, 9, 0},  {1, 5, 1},
                                {0, 2, 0}, {0, 5, 0}, {0, 6, 0},  {0, 7, 0},  {0, 10, 0}, {1, 6, 1},
                                {0, 5, 0}, {0, 8, 0}, {0, 9, 0},  {0, 10, 0}, {0, 13, 0}, {1, 9, 1},
                                {0, 6, 0}, {0, 9, 0}, {0, 10, 0}, {0, 11, 0}, {0, 14, 0}, {1, 10, 1},
                                {0, 1, 0}};
    expect_accesses(&s, want, sizeof want / sizeof want[0]);
}

/* 3 x 3: a[i][j] = element 3i + j goes to b[j][i] = element 3j + i. */
static void test_transpose_first_accesses(void **state)
{
    (void)state;
    cc_pattern_shape s = {.kind = CC_TRANSPOSE, .buffers = 2, .n = 3, .words = 9, .pass = 18};
    const want_access want[] = {{0, 0, 0}, {1, 0, 1}, {0, 1, 0}, {1, 3, 1}, {0, 2, 0}, {1, 6, 1},
                                {0, 3, 0}, {1, 1, 1}, {0, 4, 0}, {1, 4, 1}};
    expect_accesses(&s, want, sizeof want / sizeof want[0]);
}

/* 4 x 4 in 2 x 2 tiles: c[0][0] (buffer 2) is loaded, a[0][0] b[0][0]
 * a[0][1] b[1][0] follow, c[0][0] is stored; then c[0][1] with a[0][0]
 * b[0][1] a[0][1] b[1][1]; then row 1 of the tile: c[1][0]. */
static void test_matmul_first_accesses(void **state)
{
    (void)state;
    cc_pattern_shape s = {.kind = CC_MATMUL, .buffers = 3, .n = 4, .step = 2, .words = 16, .pass = 4 * 4 * 4 / 2 * 6};
    const want_access want[] = {{2, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 4, 0}, {2, 0, 1},
                                {2, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}, {1, 5, 0}, {2, 1, 1},
                                {2, 4, 0}, {0, 4, 0}, {1, 0, 0}, {0, 5, 0}, {1, 4, 0}, {2, 4, 1}};
    expect_accesses(&s, want, sizeof want / sizeof want[0]);
}

/* Every pattern, made by cc_shape_make, comes back to its first access
 * after exactly `pass` accesses, within its buffers all along. */
static void test_every_pass_returns_to_its_start(void **state)
{
    (void)state;
    for (unsigned kind = 0; kind < CC_PATTERNS; ++kind) {
        cc_pattern_shape s;
        assert_int_equal(cc_shape_make(kind, 6144, 64, &s), 0);
        assert_true(cc_shape_bytes(&s) <= 6144);
        cc_cursor c;
        cc_cursor_start(&s, &c);
        cc_access first = cc_cursor_next(&s, &c);
        cc_cursor again = c;
        for (uint64_t k = 1; k < s.pass; ++k) {
            cc_access a = cc_cursor_next(&s, &c);
            assert_true(a.buffer < s.buffers);
            assert_true(a.offset < s.words);
        }
        cc_access next = cc_cursor_next(&s, &c);
        if (next.offset != first.offset || next.buffer != first.buffer || next.write != first.write ||
            memcmp(&c, &again, sizeof c) != 0)
            fail_msg("%s does not repeat after %llu accesses", cc_pattern_names[kind], (unsigned long long)s.pass);
    }
}

static void test_shapes_fill_their_footprint(void **state)
{
    (void)state;
    cc_pattern_shape s;
    assert_int_equal(cc_shape_make(CC_STREAM, 16384, 64, &s), 0);
    assert_int_equal(s.words, 1024);
    assert_int_equal(s.pass, 2048);
    assert_int_equal(cc_shape_make(CC_CHASE, 3 * 4096, 64, &s), 0); /* 192 lines: 128, a power of two */
    assert_int_equal(s.n, 128);
    assert_int_equal(s.bits, 7);
    assert_int_equal(s.step, 8);
    assert_int_equal(cc_shape_make(CC_STRIDE, 16384, 64, &s), 0);
    assert_int_equal(s.step, 32);
    assert_int_equal(s.pass, 64);
    assert_int_equal(cc_shape_make(CC_STENCIL, 16384, 64, &s), 0); /* 2 x 32 x 32 x 8 B */
    assert_int_equal(s.n, 32);
    assert_int_equal(s.pass, 6 * 30 * 30);
    assert_int_equal(cc_shape_make(CC_TRANSPOSE, 16383, 64, &s), 0);
    assert_int_equal(s.n, 31);
    assert_int_equal(cc_shape_make(CC_MATMUL, 16384, 64, &s), 0); /* side 26, tiles of 8: 24 */
    assert_int_equal(s.n, 24);
    assert_int_equal(s.pass, 24 * 24 * 24 / 8 * 18);
    assert_int_equal(cc_buffer_base(&s, 1), 8192);
    char err[128] = "";
    assert_int_equal(cc_shape_check_init(&s, 3 * 24 * 24 * 8, err, sizeof err), CR_OK);
    assert_int_equal(cc_shape_check_init(&s, 24 * 24 * 8, err, sizeof err), CR_ERR);
    assert_string_equal(err, "pattern of 3 buffers of 576 elements with 4608 B of contents");
    assert_int_equal(cc_shape_make(CC_STENCIL, 100, 64, &s), -1);
    assert_int_equal(cc_shape_make(CC_CHASE, 32, 64, &s), -1);
}

/* The kernel's loop (CC_RUN) on host buffers holding cc_value: it sums what
 * the replay says it loads, and leaves the buffers as they were. */
static void test_kernel_loop_matches_the_replay(void **state)
{
    (void)state;
    for (unsigned kind = 0; kind < CC_PATTERNS; ++kind) {
        cc_pattern_shape s;
        assert_int_equal(cc_shape_make(kind, 8192, 64, &s), 0);
        s.accesses = s.pass + 7;
        uint64_t *buf[3] = {NULL, NULL, NULL}, *orig[3] = {NULL, NULL, NULL};
        for (unsigned b = 0; b < s.buffers; ++b) {
            buf[b] = malloc(s.words * 8);
            orig[b] = malloc(s.words * 8);
            for (uint64_t i = 0; i < s.words; ++i)
                buf[b][i] = orig[b][i] = cc_value(b, i);
        }
        uint64_t *b1 = buf[1] ? buf[1] : buf[0], *b2 = buf[2] ? buf[2] : buf[0], sum = 0, mask = 0;
        CC_RUN(s, buf[0], b1, b2, s.accesses, mask, sum);
        cc_replay r;
        assert_int_equal(cc_replay_make(&s, s.accesses, &r), 0);
        assert_int_equal(r.count, s.accesses);
        if (sum != r.checksum)
            fail_msg("%s: the loop summed %llu, the replay %llu", cc_pattern_names[kind], (unsigned long long)sum,
                     (unsigned long long)r.checksum);
        assert_true(sum != 0);
        for (unsigned b = 0; b < s.buffers; ++b) {
            assert_memory_equal(buf[b], orig[b], s.words * 8);
            free(buf[b]);
            free(orig[b]);
        }
        cc_replay_free(&r);
    }
}

/* Transpose, 2 x 2, one run of its 8 accesses: b starts on the page after
 * a's 32 bytes. */
static void test_trace_bytes(void **state)
{
    (void)state;
    cc_pattern_shape s;
    assert_int_equal(cc_shape_make(CC_TRANSPOSE, 64, 64, &s), 0);
    assert_int_equal(s.n, 2);
    cc_replay r;
    assert_int_equal(cc_replay_make(&s, 8, &r), 0);
    assert_int_equal(r.checksum, 4 * (UINT64_C(1) << 48) + 0 + 1 + 2 + 3);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(cc_trace_write(f, "transpose", 64, &r), 0);
    fclose(f);
    assert_string_equal(text, "# crossroof cache pattern transpose, footprint 64 B, 8 accesses of one run\n"
                              "# ADDRESS R|W WORKGROUP WARP INSTRUCTION\n"
                              "0x0 R 0 0 0\n"
                              "0x1000 W 0 0 1\n"
                              "0x8 R 0 0 0\n"
                              "0x1010 W 0 0 1\n"
                              "0x10 R 0 0 0\n"
                              "0x1008 W 0 0 1\n"
                              "0x18 R 0 0 0\n"
                              "0x1018 W 0 0 1\n");
    free(text);
    char name[64];
    cc_trace_name(name, sizeof name, "transpose", 64);
    assert_string_equal(name, "transpose-64B.trace");
    cc_replay_free(&r);
}

TEST_MAIN(NULL, NULL, test_stream_first_accesses, test_chase_first_accesses, test_chase_visits_every_line_once,
          test_stride_first_accesses, test_stencil_first_accesses, test_transpose_first_accesses,
          test_matmul_first_accesses, test_every_pass_returns_to_its_start, test_shapes_fill_their_footprint,
          test_kernel_loop_matches_the_replay, test_trace_bytes)
