/* Static checks of the bandwidth paths' copy kernel (cuda/bandwidth/
 * copy_kernel.cu), without a GPU: the PTX nvcc makes of it and what ptxas
 * makes of that for the architectures the build targets. Every SM copy
 * path (device to device, host to device and back through mapped memory,
 * peer to peer, duplex, all-to-one and the rest) runs this one kernel, so
 * what it moves per instruction is what those paths measure: its loop
 * must load and store 16 bytes per thread (uint4) over a 64-bit index,
 * and nothing may go through local memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/ptx_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BW_GEN_DIR
#error "build with -DBW_GEN_DIR (bench/bandwidth/build.mk)"
#endif

static char *generated(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", BW_GEN_DIR, name);
    return cuda_source_must_read(path);
}

/* The grid-stride loop of the copy kernel in text (free it), in *loop. */
static char *copy_loop(ptx_module *m, ptx_span *loop)
{
    char *ptx = generated("bandwidth_copy.ptx");
    *m = (ptx_module){0};
    if (!ptx_parse(ptx, m))
        fail_msg("bandwidth_copy.ptx: no well-formed .entry");
    const ptx_entry *e = ptx_entry_named(m, "bw_copy");
    if (e == NULL)
        fail_msg("bandwidth_copy.ptx: no .entry bw_copy");
    const char *at = e->body.begin;
    if (!ptx_next_loop(e->body, &at, loop))
        fail_msg("bw_copy has no loop");
    return ptx;
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

static void test_no_local_memory_in_ptx(void **state)
{
    (void)state;
    char *ptx = generated("bandwidth_copy.ptx");
    assert_null(strstr(ptx, "ld.local"));
    assert_null(strstr(ptx, "st.local"));
    assert_null(strstr(ptx, ".local "));
    free(ptx);
}

/* ptxas -v: the kernel's "N bytes stack frame, N bytes spill stores, N
 * bytes spill loads" line, all zero, under its launch bounds. */
static void check_ptxas_log(const char *name)
{
    char *log = generated(name);
    int kernels = 0;
    for (const char *p = strstr(log, "bytes stack frame"); p; p = strstr(p + 1, "bytes stack frame")) {
        ptx_span line = {p, p};
        while (line.begin > log && line.begin[-1] != '\n')
            --line.begin;
        line.end = line.begin + strcspn(line.begin, "\n");
        if (!ptx_find_in(line, "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"))
            fail_msg("%s: %.*s", name, (int)(line.end - line.begin), line.begin);
        ++kernels;
    }
    assert_int_equal(kernels, 1);
    assert_non_null(strstr(log, "Compiling entry function 'bw_copy'"));
    free(log);
}

static void test_no_spills_on_sm80(void **state)
{
    (void)state;
    check_ptxas_log("bandwidth_copy.sm_80.log");
}

static void test_no_spills_on_sm90(void **state)
{
    (void)state;
    check_ptxas_log("bandwidth_copy.sm_90.log");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_moves_sixteen_bytes_per_thread),
        cmocka_unit_test(test_loop_index_is_64_bit),
        cmocka_unit_test(test_no_local_memory_in_ptx),
        cmocka_unit_test(test_no_spills_on_sm80),
        cmocka_unit_test(test_no_spills_on_sm90),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
