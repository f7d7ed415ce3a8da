/* Static checks of the stream benchmark's CUDA code, without a GPU: the PTX
 * nvcc makes of cuda/stream/kernels.cu, what ptxas makes of it for the
 * architectures the build targets, and the timed interval of
 * cuda/stream/backend.cpp. Without nvcc there is no PTX: the tests skip,
 * saying so. And the OpenCL backend's timed interval, read the same way.
 *
 * What they hold the code to:
 *   - every kernel's loop issues UNROLL loads from each array it reads
 *     (four floats, two doubles: 16 bytes per array per thread) before it
 *     stores anything, the bytes in flight a thread needs on HBM;
 *   - no kernel touches local memory: PTX without ld.local/st.local, ptxas
 *     with 0 bytes of stack and spills under the launch bounds;
 *   - run()'s timed interval enqueues the kernel alone: no copy, no
 *     synchronisation, between the timer's start and stop;
 *   - dot stores its partial sums (st.global) in device memory, as the
 *     other kernels store their output, and the backend copies them to the
 *     host after the stop: stores to mapped host memory would cross the bus
 *     inside the interval (on an H200, 4.1 us against the others' 3.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"
#include "tests/nvcc_output.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef STREAM_GEN_DIR
#error "build with -DSTREAM_GEN_DIR, -DSTREAM_CUDA_SRC and -DSTREAM_OPENCL_SRC (bench/stream/build.mk)"
#endif

/* Reads a generated file, or skips the test where nvcc made none. */
static char *generated(const char *name) { return generated_file(STREAM_GEN_DIR, name, true); }

/* The entries of the kernels' PTX (free the text returned and
 * m->entries), or the test skips where nvcc made none. */
static char *kernels_ptx(ptx_module *m)
{
    char *ptx = generated("stream_kernels.ptx");
    *m = (ptx_module){0};
    if (!ptx_parse(ptx, m))
        fail_msg("stream_kernels.ptx: no well-formed .entry");
    return ptx;
}

/* The body of the PTX entry whose name starts with prefix. */
static ptx_span entry_body(const ptx_module *m, const char *prefix)
{
    const ptx_entry *e = ptx_entry_prefixed(m, prefix);
    if (e == NULL)
        fail_msg("no PTX entry %s", prefix);
    return e->body;
}

/* Over every loop of a body: the most global loads issued before the
 * loop's first global store. */
static int loads_ahead_of_stores(ptx_span body)
{
    int best = 0;
    ptx_span loop, line;
    for (const char *at = body.begin; ptx_next_loop(body, &at, &loop);) {
        int loads = 0;
        for (const char *p = loop.begin; ptx_next_line(loop, &p, &line) && !ptx_find_in(line, "st.global");)
            loads += ptx_find_in(line, "ld.global") != NULL;
        if (loads > best)
            best = loads;
    }
    return best;
}

typedef struct {
    const char *name, *prefix;
    int arrays_read;
} kernel_expect;

/* Mangled names of elementwise<T, K> and dot_kernel<T>. */
static const kernel_expect kernels[] = {
    {"copy", "_Z11elementwiseI%cL13stream_kernel0E", 1},
    {"mul", "_Z11elementwiseI%cL13stream_kernel1E", 1},
    {"add", "_Z11elementwiseI%cL13stream_kernel2E", 2},
    {"triad", "_Z11elementwiseI%cL13stream_kernel3E", 2},
    {"dot", "_Z10dot_kernelI%cE", 2},
};

static void test_loads_go_sixteen_bytes_per_array_ahead_of_stores(void **state)
{
    (void)state;
    ptx_module m;
    char *ptx = kernels_ptx(&m);
    const struct {
        char code;
        int unroll;
    } types[] = {{'f', 4}, {'d', 2}};
    for (size_t t = 0; t < 2; ++t)
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; ++k) {
            char prefix[128];
            snprintf(prefix, sizeof prefix, kernels[k].prefix, types[t].code);
            int want = types[t].unroll * kernels[k].arrays_read, got = loads_ahead_of_stores(entry_body(&m, prefix));
            if (got < want)
                fail_msg("%s (%c): %d global loads ahead of the first store in its loop, want %d", kernels[k].name,
                         types[t].code, got, want);
        }
    free(m.entries);
    free(ptx);
}

/* All ten kernels, under their launch bounds. */
static void test_no_local_memory(void **state)
{
    (void)state;
    check_no_local_memory(generated, "stream_kernels", 10, NULL);
}

/* dot stores one double per block through the pointer it is given
 * (param_2, `partial`), with st.global; no other global store. */
static void test_dot_stores_its_partials_through_the_given_pointer(void **state)
{
    (void)state;
    ptx_module m;
    char *ptx = kernels_ptx(&m);
    const char types[] = {'f', 'd'};
    for (size_t t = 0; t < 2; ++t) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "_Z10dot_kernelI%cE", types[t]);
        ptx_span body = entry_body(&m, prefix), line;
        int stores = 0;
        for (const char *p = body.begin; ptx_next_line(body, &p, &line);)
            stores += ptx_find_in(line, "st.global") != NULL;
        assert_int_equal(stores, 1);
        assert_non_null(ptx_find_in(body, "st.global.f64"));
        assert_non_null(ptx_find_in(body, "_param_2]")); /* the pointer, loaded to store through */
    }
    free(m.entries);
    free(ptx);
}

/* The pointer dot stores through is device memory, and its partial sums
 * reach the host by a copy after the timer's stop, before run() sums them:
 * nothing of the result crosses the bus inside the interval. */
static void test_dot_partials_are_copied_after_the_stop(void **state)
{
    (void)state;
    free(generated("stream_kernels.ptx")); /* the CUDA build exists */
    static const char *const device_memory[] = {"cudaMalloc(&st.partial_dev", NULL};
    static const char *const no_mapping[] = {"cudaHostAlloc", "cudaHostGetDevicePointer", "cudaHostRegister",
                                             "cudaMallocManaged", NULL};
    cuda_source_expect_part(STREAM_CUDA_SRC,
                            &(cuda_source_part){"static cr_status ensure_partials(", "\n}", device_memory, no_mapping});
    static const char *const copied[] = {"cr_cuda_download(st.partial, st.partial_dev", NULL};
    cuda_source_expect_part(STREAM_CUDA_SRC, &(cuda_source_part){CUDA_TIMER_STOP, "sum_partials(", copied, NULL});
    char *src = cuda_source_must_read(STREAM_CUDA_SRC);
    assert_null(strstr(src, "cudaHostAllocMapped"));
    free(src);
}

/* The text of run() between the timer's start and stop holds one launch
 * and nothing else that enqueues or waits: with the gated timer anything
 * there that blocked the host would hold the gate shut, a copy (even an
 * asynchronous one) would be a second command in dot's bandwidth, and a
 * return would leave the gate closed. */
static void test_timed_interval_holds_the_launch_alone(void **state)
{
    (void)state;
    free(generated("stream_kernels.ptx")); /* the CUDA build exists */
    char *src = cuda_source_must_read(STREAM_CUDA_SRC);
    char *timed = cuda_source_sole_gated_interval(src);
    assert_null(strstr(timed, "cudaMemcpy")); /* cudaMemcpyAsync too, which does not block */
    assert_non_null(strstr(timed, "stream_cuda_launch("));
    free(timed);
    free(src);
}

/* The OpenCL backend times every kernel, dot included, by the shared timed
 * launch (the host clock around enqueue and wait, and the kernel's own
 * events), and reads dot's partial sums only after it: dot's figure is its
 * kernel's, as the other kernels' are and as the CUDA backend's dot is. */
static void test_opencl_times_each_kernel_alone(void **state)
{
    (void)state;
    static const char *const timed_alone[] = {"cr_cl_launch_timed(", NULL},
                             *const no_interval_of_its_own[] = {"clFinish", "cr_now_ns", "ev_read", NULL},
                             *const read_after[] = {"clEnqueueReadBuffer(S.cl.queue, S.partial, CL_TRUE", NULL};
    const cuda_source_part parts[] = {
        {"static cr_status cl_run(", "\n}", timed_alone, no_interval_of_its_own},
        {"cr_cl_launch_timed(", "sum_partials(groups)", read_after, NULL},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i)
        cuda_source_expect_part(STREAM_OPENCL_SRC, &parts[i]);
}

TEST_MAIN(NULL, NULL, test_loads_go_sixteen_bytes_per_array_ahead_of_stores, test_no_local_memory,
          test_dot_stores_its_partials_through_the_given_pointer, test_dot_partials_are_copied_after_the_stop,
          test_timed_interval_holds_the_launch_alone, test_opencl_times_each_kernel_alone)
