/* The host's truth of the local-memory stream against cases worked by
 * hand: tiles of 8 KiB, work-groups of 64, 255 rounds, each moving the
 * element of row k, column l to row k + 1 (mod the rows), column 63 - l.
 * After 255 rounds an element has moved 255 rows on (one back, for a
 * power-of-two count of rows) and, 255 being odd, to the mirrored column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bandwidth/local_replay.h"

#include "tests/test_main.h"

#include <string.h>

static void test_loads_per_barrier_of_each_width(void **state)
{
    (void)state;
    /* 128 bytes a work-item loads per barrier: 32 words */
    assert_int_equal(bw_local_loads(1), 32);
    assert_int_equal(bw_local_loads(2), 16);
    assert_int_equal(bw_local_loads(4), 8);
    assert_int_equal(bw_local_loads(8), 4);
    assert_int_equal(bw_local_loads(16), 2);
    static const unsigned fit[] = {1, 2, 4, 8, 16, 32}, misfit[] = {0, 3, 6, 12, 64};
    for (size_t i = 0; i < sizeof fit / sizeof *fit; ++i)
        assert_true(bw_local_width_fits(fit[i]));
    for (size_t i = 0; i < sizeof misfit / sizeof *misfit; ++i)
        assert_false(bw_local_width_fits(misfit[i]));
}

/* Every round loads and stores the whole tile once: 2 x 255 x the buffer. */
static void test_traffic(void **state)
{
    (void)state;
    assert_int_equal(bw_local_traffic_bytes(8192), 8192 * 2 * 255);
    assert_int_equal(bw_local_traffic_bytes(UINT64_C(3) << 30), (UINT64_C(3) << 30) * 510);
}

/* Element e = 64 k + l ends at 64 ((k - 1) mod rows) + 63 - l. */
static void test_final_place(void **state)
{
    (void)state;
    /* 16 words: 2 rows */
    assert_int_equal(bw_local_final_place(0, 16), 127);  /* (0, 0) -> (1, 63) */
    assert_int_equal(bw_local_final_place(5, 16), 122);  /* (0, 5) -> (1, 58) */
    assert_int_equal(bw_local_final_place(127, 16), 0);  /* (1, 63) -> (0, 0) */
    /* 4 words: 8 rows */
    assert_int_equal(bw_local_final_place(0, 4), 511);   /* (0, 0) -> (7, 63) */
    assert_int_equal(bw_local_final_place(65, 4), 62);   /* (1, 1) -> (0, 62) */
    assert_int_equal(bw_local_final_place(511, 4), 384); /* (7, 63) -> (6, 0) */
    /* 1 word: 32 rows */
    assert_int_equal(bw_local_final_place(0, 1), 2047);  /* (0, 0) -> (31, 63) */
    assert_int_equal(bw_local_final_place(2047, 1), 1920); /* (31, 63) -> (30, 0) */
}

enum { TILE_WORDS = 2048, TILES = 2, WORDS = TILES * TILE_WORDS };

/* What the kernel leaves, from the closed form: the element at row k,
 * column l of a tile holds the source's element at row (k + 1) mod rows,
 * column 63 - l, all v of its words. */
static void expected(const uint32_t *in, uint32_t *out, unsigned v)
{
    const unsigned rows = TILE_WORDS / v / 64;
    for (unsigned t = 0; t < TILES; ++t)
        for (unsigned k = 0; k < rows; ++k)
            for (unsigned l = 0; l < 64; ++l)
                for (unsigned j = 0; j < v; ++j)
                    out[t * TILE_WORDS + (k * 64 + l) * v + j] =
                        in[t * TILE_WORDS + (((k + 1) % rows) * 64 + 63 - l) * v + j];
}

static void test_first_mismatch(void **state)
{
    (void)state;
    static uint32_t in[WORDS], out[WORDS];
    for (uint32_t i = 0; i < WORDS; ++i)
        in[i] = 1000 + i;
    static const unsigned widths[] = {1, 4, 16};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; ++w) {
        unsigned v = widths[w];
        expected(in, out, v);
        assert_true(bw_local_first_mismatch(out, in, WORDS, v) == UINT64_MAX);
        out[TILE_WORDS + 77] ^= 1u << 9; /* a word of the second tile */
        assert_int_equal(bw_local_first_mismatch(out, in, WORDS, v), TILE_WORDS + 77);
    }
    /* By hand, 16 words: the first element holds the source's element 127, the last of the tile. */
    expected(in, out, 16);
    assert_int_equal(out[0], 1000 + 127 * 16);
    assert_int_equal(out[15], 1000 + 127 * 16 + 15);
    assert_int_equal(out[TILE_WORDS + 16], 1000 + TILE_WORDS + 126 * 16);
    /* A width's replay is no other width's, and a copy that never ran the rounds fails at once. */
    expected(in, out, 4);
    assert_int_equal(bw_local_first_mismatch(out, in, WORDS, 16), 0);
    memcpy(out, in, sizeof out);
    assert_int_equal(bw_local_first_mismatch(out, in, WORDS, 4), 0);
}

TEST_MAIN(NULL, NULL, test_loads_per_barrier_of_each_width, test_traffic, test_final_place, test_first_mismatch)
