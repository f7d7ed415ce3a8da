/* Static checks of the bandwidth paths' kernels of their own files
 * (cuda/bandwidth/copy_kernel.cu, local_kernel.cu), without a GPU: the
 * PTX nvcc makes of them and what ptxas makes of that for the
 * architectures the build targets. Every SM copy
 * path (device to device, host to device and back through mapped memory,
 * peer to peer, duplex, all-to-one and the rest) runs this one kernel, so
 * what it moves per instruction is what those paths measure: its loop
 * must load and store 16 bytes per thread (uint4) over a 64-bit index,
 * and nothing may go through local memory. The local-memory path's
 * figure is the shared-memory traffic of its rounds: they must stay a loop
 * that loads and stores shared memory once each per round, with the
 * barrier that orders them, and nothing may spill to local memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/nvcc_output.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BW_GEN_DIR
#error "build with -DBW_GEN_DIR (bench/bandwidth/build.mk)"
#endif

/* The test is built only where nvcc is: a missing file fails it. */
static char *generated(const char *name) { return generated_file(BW_GEN_DIR, name, false); }

/* The text of file (free it), and in *loop the first loop of its kernel
 * entry; *after: where to look for the loops after that one's label. */
static char *first_loop(const char *file, const char *entry, ptx_module *m, ptx_span *loop, const char **after)
{
    char *ptx = generated(file);
    *m = (ptx_module){0};
    if (!ptx_parse(ptx, m))
        fail_msg("%s: no well-formed .entry", file);
    const ptx_entry *e = ptx_entry_named(m, entry);
    if (e == NULL)
        fail_msg("%s: no .entry %s", file, entry);
    *after = e->body.begin;
    if (!ptx_next_loop(e->body, after, loop))
        fail_msg("%s has no loop", entry);
    return ptx;
}

/* The grid-stride loop of the copy kernel in text (free it), in *loop. */
static char *copy_loop(ptx_module *m, ptx_span *loop)
{
    const char *after;
    return first_loop("bandwidth_copy.ptx", "bw_copy", m, loop, &after);
}

/* In the loop, one instruction each: a 16-byte global load (through the
 * read-only path or not) and a 16-byte global store; no narrower access. */
static void test_loop_moves_sixteen_bytes_per_thread(void **state)
{
    (void)state;
    ptx_module m;
    ptx_span loop;
    char *ptx = copy_loop(&m, &loop);
    const unsigned loads = ptx_count_in(loop, "ld.global.nc.v4.u32") + ptx_count_in(loop, "ld.global.v4.u32");
    assert_int_equal(loads, 1);
    assert_int_equal(ptx_count_in(loop, "st.global.v4.u32"), 1);
    assert_int_equal(ptx_count_in(loop, "ld.global"), 1);
    assert_int_equal(ptx_count_in(loop, "st.global"), 1);
    free(m.entries);
    free(ptx);
}

/* The loop's index and its bound are 64-bit: a 32-bit one would wrap past
 * 2^32 elements (64 GiB) and copy the start again. */
static void test_loop_index_is_64_bit(void **state)
{
    (void)state;
    ptx_module m;
    ptx_span loop;
    char *ptx = copy_loop(&m, &loop);
    assert_true(ptx_count_in(loop, "setp.lt.u64") + ptx_count_in(loop, "setp.gt.u64") +
                    ptx_count_in(loop, "setp.ne.s64") + ptx_count_in(loop, "setp.lt.s64") >= 1);
    assert_int_equal(ptx_count_in(loop, "setp.lt.u32") + ptx_count_in(loop, "setp.lt.s32"), 0);
    free(m.entries);
    free(ptx);
}

/* Each kernel of its file, under its launch bounds. */
static void test_no_local_memory(void **state)
{
    (void)state;
    check_no_local_memory(generated, "bandwidth_copy", 1, "bw_copy");
    check_no_local_memory(generated, "bandwidth_local", 1, "bw_local");
}

/* The local kernel's first loop is the tile loop; the rounds' loop is the
 * next one, inside it, and touches no global memory. */
static void test_each_round_loads_and_stores_shared_memory(void **state)
{
    (void)state;
    ptx_module m;
    ptx_span tiles, rounds;
    const char *after;
    char *ptx = first_loop("bandwidth_local.ptx", "bw_local", &m, &tiles, &after);
    if (!ptx_next_loop(tiles, &after, &rounds) || rounds.end > tiles.end)
        fail_msg("bw_local's rounds are not a loop inside the tile loop");
    assert_int_equal(ptx_count_in(rounds, "ld.shared.u32"), 1);
    assert_int_equal(ptx_count_in(rounds, "st.shared.u32"), 1);
    assert_int_equal(ptx_count_in(rounds, "bar.sync"), 1);
    assert_int_equal(ptx_count_in(rounds, "ld.global") + ptx_count_in(rounds, "st.global"), 0);
    free(m.entries);
    free(ptx);
}

TEST_MAIN(NULL, NULL, test_loop_moves_sixteen_bytes_per_thread, test_loop_index_is_64_bit, test_no_local_memory,
          test_each_round_loads_and_stores_shared_memory)
