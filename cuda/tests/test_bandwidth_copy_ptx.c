/* Static checks of the bandwidth paths' kernels of their own files
 * (cuda/bandwidth/copy_kernel.cu, local_kernel.cu), without a GPU: the
 * PTX nvcc makes of them and what ptxas makes of that for the
 * architectures the build targets. Every SM copy
 * path (device to device, host to device and back through mapped memory,
 * peer to peer, duplex, all-to-one and the rest) runs this one kernel, so
 * what it moves per instruction is what those paths measure: its loop
 * must load and store 16 bytes per thread (uint4) over a 64-bit index,
 * and nothing may go through local memory. The local-memory path's
 * figure is the shared-memory traffic of its rounds: in each width's
 * kernel they must stay a loop of two rounds, each its K loads and K
 * stores of shared memory in accesses of the vector's width (K = 32 / v,
 * bench/bandwidth/elements.h) ended by a barrier, all loads before the
 * first store, no global memory, and nothing may spill to local memory. */
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
    check_no_local_memory(generated, "bandwidth_local", 3, "bw_local_v4");
}

/* From *at on, the text up to the next bar.sync of loop (the barrier
 * included), *at moved past it; false where none is left. */
static bool next_round(ptx_span loop, const char **at, ptx_span *round)
{
    const char *bar = ptx_find_in((ptx_span){*at, loop.end}, "bar.sync");
    if (bar == NULL)
        return false;
    *round = (ptx_span){*at, bar + strlen("bar.sync")};
    *at = round->end;
    return true;
}

/* A round of vectors of v words: K = 32 / v loads of that width, then K
 * stores, nothing else of memory. */
static void check_round(const char *entry, ptx_span round, unsigned v)
{
    static const char *const width[] = {[1] = ".shared.u32", [2] = ".shared.v2.u32", [4] = ".shared.v4.u32"};
    char load[32], store[32];
    snprintf(load, sizeof load, "ld%s", width[v]);
    snprintf(store, sizeof store, "st%s", width[v]);
    const unsigned k = 32 / v;
    if (ptx_count_in(round, load) != k || ptx_count_in(round, store) != k)
        fail_msg("%s: a round holds %u %s and %u %s, want %u of each", entry, ptx_count_in(round, load), load,
                 ptx_count_in(round, store), store, k);
    assert_int_equal(ptx_count_in(round, "ld.shared"), k);
    assert_int_equal(ptx_count_in(round, "st.shared"), k);
    assert_int_equal(ptx_count_in(round, "ld.global") + ptx_count_in(round, "st.global"), 0);
    const char *last_load = round.begin, *first_store = ptx_find_in(round, "st.shared");
    for (const char *p; (p = ptx_find_in((ptx_span){last_load + 1, round.end}, "ld.shared")) != NULL;)
        last_load = p;
    if (first_store < last_load)
        fail_msg("%s: a round stores before its last load", entry);
}

/* Each width's kernel: its one loop is the rounds', two of them an
 * iteration, each ended by its barrier. */
static void test_each_round_moves_its_width_between_barriers(void **state)
{
    (void)state;
    static const struct {
        const char *entry;
        unsigned v;
    } kernels[] = {{"bw_local_v1", 1}, {"bw_local_v2", 2}, {"bw_local_v4", 4}};
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; ++i) {
        ptx_module m;
        ptx_span loop, round = {NULL, NULL};
        const char *after;
        char *ptx = first_loop("bandwidth_local.ptx", kernels[i].entry, &m, &loop, &after);
        assert_int_equal(ptx_count_in(loop, "bar.sync"), 2);
        const char *at = loop.begin;
        for (int r = 0; r < 2; ++r) {
            if (!next_round(loop, &at, &round))
                fail_msg("%s: round %d has no barrier", kernels[i].entry, r);
            check_round(kernels[i].entry, round, kernels[i].v);
        }
        free(m.entries);
        free(ptx);
    }
}

TEST_MAIN(NULL, NULL, test_loop_moves_sixteen_bytes_per_thread, test_loop_index_is_64_bit, test_no_local_memory,
          test_each_round_moves_its_width_between_barriers)
