/* The host references' copies: the all-cores copy moves every byte once
 * for odd sizes and any thread count, and its chunks tile the copy exactly,
 * 64-bit sizes included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "bandwidth/host_ref.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Parts 0..parts-1 of bytes follow on from each other from 0 to bytes,
 * every inner boundary on a 64-byte line, sizes within one line of each
 * other. */
static void expect_tiling(uint64_t bytes, uint64_t parts)
{
    uint64_t next = 0, smallest = UINT64_MAX, largest = 0;
    for (uint64_t p = 0; p < parts; ++p) {
        uint64_t lo, hi;
        bw_host_chunk(bytes, parts, p, &lo, &hi);
        if (lo != next || hi < lo)
            fail_msg("%llu bytes in %llu parts: part %llu is [%llu, %llu), want it to start at %llu",
                     (unsigned long long)bytes, (unsigned long long)parts, (unsigned long long)p,
                     (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)next);
        if (p + 1 < parts)
            assert_int_equal(hi % 64, 0);
        uint64_t whole = (hi - lo) / 64 * 64; /* the last part's tail apart */
        smallest = whole < smallest ? whole : smallest;
        largest = whole > largest ? whole : largest;
        next = hi;
    }
    assert_true(next == bytes);
    assert_true(largest - smallest <= 64);
}

static void chunks_tile_the_copy(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {0, 1, 63, 64, 65, 127, 4096, 4097, 1000003, (UINT64_C(1) << 32) + 7,
                                     UINT64_MAX / 3, UINT64_MAX};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (uint64_t parts = 1; parts <= 17; ++parts)
            expect_tiling(sizes[s], parts);
    expect_tiling(UINT64_MAX, 1024);
    expect_tiling(UINT64_MAX - 1, UINT64_C(1) << 20);
}

/* Source bytes that differ from their neighbours, a destination holding
 * their complement and a guard byte either side. */
static void copy_with(int threads, size_t bytes)
{
    unsigned char *src = malloc(bytes + 1), *buf = malloc(bytes + 2), *dst = buf + 1;
    assert_non_null(src);
    assert_non_null(buf);
    for (size_t i = 0; i < bytes; ++i)
        src[i] = (unsigned char)(i * 7 + i / 251);
    for (size_t i = 0; i < bytes; ++i)
        dst[i] = (unsigned char)~src[i];
    buf[0] = buf[bytes + 1] = 0x5a;
    omp_set_num_threads(threads);
    bw_host_memcpy_mt(dst, src, bytes);
    for (size_t i = 0; i < bytes; ++i)
        if (dst[i] != src[i])
            fail_msg("%d threads, %zu bytes: byte %zu is %u, want %u", threads, bytes, i, dst[i], src[i]);
    assert_int_equal(buf[0], 0x5a);
    assert_int_equal(buf[bytes + 1], 0x5a);
    free(src);
    free(buf);
}

static void copies_every_byte_with_any_thread_count(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 63, 64, 65, 1000, 4097, 65537, 1000003};
    for (int threads = 1; threads <= 9; ++threads)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
            copy_with(threads, sizes[s]);
    omp_set_num_threads(omp_get_num_procs());
}

static void binding_says_how_threads_are_placed(void **state)
{
    (void)state;
    /* No topology (hwloc failed when the session opened): nothing bound by
     * hwloc, and no crash. */
    assert_string_not_equal(bw_host_bind_threads(NULL), "hwloc-cores");
    cr_topology *t = cr_topo_open();
    const char *how = bw_host_bind_threads(t);
    assert_true(strcmp(how, "hwloc-cores") == 0 || strcmp(how, "OMP_PROC_BIND") == 0 || strcmp(how, "none") == 0);
    /* Bound or not, the copy is still right. */
    copy_with(bw_host_threads(), 100003);
    cr_topo_close(t);
}

TEST_MAIN(NULL, NULL, chunks_tile_the_copy, copies_every_byte_with_any_thread_count,
          binding_says_how_threads_are_placed)
