/* The host's truth of the local-memory path against cases worked by hand:
 * 64 rounds of a rotation by one word within tiles of 256 words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bandwidth/local_rotation.h"

#include "tests/test_main.h"

#include <string.h>

static void test_source_of_each_word(void **state)
{
    (void)state;
    assert_int_equal(bw_local_source(0), 64);
    assert_int_equal(bw_local_source(191), 255);
    assert_int_equal(bw_local_source(192), 0);
    assert_int_equal(bw_local_source(255), 63);
}

static void test_tiles_and_traffic(void **state)
{
    (void)state;
    assert_int_equal(bw_local_tiles(256), 1);
    assert_int_equal(bw_local_tiles(257), 2);
    /* 2 tiles x 1 KiB x (load + store) x 64 rounds */
    assert_int_equal(bw_local_traffic_bytes(300), 2 * 1024 * 2 * 64);
}

/* 400 words: a whole tile and a partial one whose missing words are zero. */
static void test_first_mismatch(void **state)
{
    (void)state;
    enum { N = 400 };
    uint32_t in[N], out[N];
    for (uint32_t i = 0; i < N; ++i)
        in[i] = 1000 + i;
    for (uint32_t i = 0; i < 256; ++i)
        out[i] = 1000 + (i + 64) % 256;
    for (uint32_t l = 0; l < N - 256; ++l)
        out[256 + l] = 256 + l + 64 < N ? 1000 + 256 + l + 64 : 0;
    assert_int_equal(out[0], 1064);
    assert_int_equal(out[192], 1000);
    assert_int_equal(out[256], 1320);
    assert_int_equal(out[335], 1399);
    assert_int_equal(out[336], 0); /* its source, word 400, is past the end */
    assert_true(bw_local_first_mismatch(out, in, N) == UINT64_MAX);
    out[336] = 1;
    assert_int_equal(bw_local_first_mismatch(out, in, N), 336);
    memcpy(out, in, sizeof out); /* a copy that never rotated */
    assert_int_equal(bw_local_first_mismatch(out, in, N), 0);
}

TEST_MAIN(NULL, NULL, test_source_of_each_word, test_tiles_and_traffic, test_first_mismatch)
