/* CUDA backend of the FMA benchmark: one kernel template per (type, chain
 * count E), allocation, launch and timing. Chains are scalar (lanes 1) and
 * the warp schedulers interleave the warps themselves. */
#include "cuda_device.h"

extern "C" {
#include "fma/backend.h"
}
#include "fma/chain.h"

#include <cstring>

/* Steps per iteration of the rolled loop, fully unrolled inside it: the
 * loop's counter and branch are then a small part of the instruction
 * stream, as in the OpenCL kernels. The OpenCL segment is 32·E steps and
 * may end at a barrier, for CPU devices (opencl/fma/kernels.cl says why);
 * warps need neither, so the segments here differ on purpose. */
#define SEGMENT_STEPS 32u

static __device__ __forceinline__ float fused(float x, float a, float b) { return __fmaf_rn(x, a, b); }
static __device__ __forceinline__ double fused(double x, double a, double b) { return __fma_rn(x, a, b); }
#define FMA_FUSED fused

/* Chain j of thread g (n threads in all) starts from its seed and takes
 * iters steps (bench/fma/chain.h), rounded to nearest. The E values are
 * registers (x is indexed only by constants after unrolling), each its own
 * dependency chain. */
template <typename T, int E>
__global__ void fma_chains(const T *__restrict__ seeds, T *__restrict__ out, T a, T b, unsigned iters)
{
    const unsigned long long n = (unsigned long long)gridDim.x * blockDim.x;
    const unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    T x[E];
#pragma unroll
    for (int j = 0; j < E; ++j)
        x[j] = seeds[FMA_CHAIN_AT(j, g, n)];
    const unsigned segments = iters / SEGMENT_STEPS;
#pragma unroll 1
    for (unsigned s = 0; s < segments; ++s) {
#pragma unroll
        for (unsigned i = 0; i < SEGMENT_STEPS; ++i) {
#pragma unroll
            for (int j = 0; j < E; ++j)
                FMA_CHAIN_STEP(x[j], a, b);
        }
    }
#pragma unroll 1
    for (unsigned i = segments * SEGMENT_STEPS; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < E; ++j)
            FMA_CHAIN_STEP(x[j], a, b);
    }
#pragma unroll
    for (int j = 0; j < E; ++j)
        out[FMA_CHAIN_AT(j, g, n)] = x[j];
}

template <typename T> static const void *kernel_of(unsigned ilp)
{
    switch (ilp) {
    case 1: return (const void *)fma_chains<T, 1>;
    case 2: return (const void *)fma_chains<T, 2>;
    case 3: return (const void *)fma_chains<T, 3>;
    case 4: return (const void *)fma_chains<T, 4>;
    case 5: return (const void *)fma_chains<T, 5>;
    case 6: return (const void *)fma_chains<T, 6>;
    case 7: return (const void *)fma_chains<T, 7>;
    case 8: return (const void *)fma_chains<T, 8>;
    default: return nullptr;
    }
}

static struct {
    cr_cuda cu;
    uint64_t warp; /* threads */
    void *seeds, *out;
    uint64_t chains;
    size_t esize;
} st;

static void free_buffers(void)
{
    cr_cuda_free(&st.seeds);
    cr_cuda_free(&st.out);
    st.chains = 0;
}

static void fc_close(void)
{
    free_buffers();
    cr_cuda_close_timed(&st.cu);
}

static cr_status fc_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    cr_status s = cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
    if (s != CR_OK)
        return s;
    st.warp = info->warp_size ? info->warp_size : 32;
    return CR_OK;
}

static cr_status fc_supports(cr_dtype, char *, size_t) { return CR_OK; }

static unsigned fc_lanes(cr_dtype) { return 1; }

static const char *fc_schedule(void) { return "the device's own warp scheduling"; }

static cr_status fc_prepare(cr_dtype t, uint64_t work_items, unsigned ilp, const void *seeds, char *err,
                            size_t errlen)
{
    free_buffers();
    const uint64_t chains = work_items * ilp;
    const size_t bytes = (size_t)chains * cr_dtype_size(t);
    CR_CUDA_CHECK(cudaMalloc(&st.seeds, bytes), "cudaMalloc(seeds)", err, errlen);
    CR_CUDA_CHECK(cudaMalloc(&st.out, bytes), "cudaMalloc(out)", err, errlen);
    CR_CUDA_CHECK(cudaMemcpy(st.seeds, seeds, bytes, cudaMemcpyHostToDevice), "cudaMemcpy(seeds)", err, errlen);
    st.chains = chains;
    st.esize = cr_dtype_size(t);
    return CR_OK;
}

static cr_status fc_run(cr_dtype t, unsigned ilp, uint32_t iters, uint64_t work_items, uint64_t work_group, double a,
                        double b, cr_timing *tm, char *err, size_t errlen)
{
    const void *k = t == CR_FLOAT ? kernel_of<float>(ilp) : kernel_of<double>(ilp);
    if (k == nullptr) {
        snprintf(err, errlen, "%u chains per thread is outside 1..%u", ilp, FMA_MAX_ILP);
        return CR_ERR;
    }
    if (cr_cuda_check_geometry(work_items, work_group, st.cu.max_group, err, errlen) != CR_OK)
        return CR_ERR;
    if (work_items * ilp > st.chains || cr_dtype_size(t) != st.esize) {
        snprintf(err, errlen, "%llu threads with %u chains do not match the %llu chains prepared",
                 (unsigned long long)work_items, ilp, (unsigned long long)st.chains);
        return CR_ERR;
    }
    float af = (float)a, bf = (float)b;
    unsigned n = iters;
    void *seeds = st.seeds, *out = st.out;
    void *args_f[] = {&seeds, &out, &af, &bf, &n};
    void *args_d[] = {&seeds, &out, &a, &b, &n};
    const dim3 grid((unsigned)(work_items / work_group)), block((unsigned)work_group);
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaLaunchKernel(k, grid, block, t == CR_FLOAT ? args_f : args_d, 0, 0), "kernel launch", err,
                  errlen);
    /* A fault inside the kernel surfaces at the synchronisation. */
    return cr_cuda_timer_stop(&st.cu.timer, 0, tm, err, errlen);
}

static cr_status fc_download(void *dst, uint64_t n, char *err, size_t errlen)
{
    return cr_cuda_download(dst, st.out, n, st.chains, st.esize, "chains", err, errlen);
}

/* Warps per SM at full occupancy: maxThreadsPerMultiProcessor / warpSize. */
static void fc_geometry(fma_geometry *g)
{
    g->compute_units = st.cu.sms ? st.cu.sms : 1;
    g->unit_items = st.warp;
    g->unit_name = "warps";
    g->max_units_per_cu = st.cu.threads_per_sm / st.warp;
    g->max_work_group = st.cu.max_group ? st.cu.max_group : 1024;
    g->groups_per_cu = 1;
}

/* A kernel's registers and shared memory can hold fewer threads a block
 * than the device. */
static cr_status fc_work_group_limit(cr_dtype t, unsigned ilp, uint64_t *limit, char *err, size_t errlen)
{
    const void *k = t == CR_FLOAT ? kernel_of<float>(ilp) : kernel_of<double>(ilp);
    if (k == nullptr) {
        snprintf(err, errlen, "%u chains per thread is outside 1..%u", ilp, FMA_MAX_ILP);
        return CR_ERR;
    }
    cudaFuncAttributes attr;
    CR_CUDA_CHECK(cudaFuncGetAttributes(&attr, k), "cudaFuncGetAttributes", err, errlen);
    uint64_t device = st.cu.max_group ? st.cu.max_group : 1024;
    *limit = (uint64_t)attr.maxThreadsPerBlock < device ? (uint64_t)attr.maxThreadsPerBlock : device;
    return CR_OK;
}

extern "C" {
extern const fma_backend fma_cuda_backend;
const fma_backend fma_cuda_backend = {
    {"cuda", cr_cuda_list, fc_open, fc_close}, fc_supports, fc_lanes, fc_schedule, fc_prepare, fc_run, fc_download,
    fc_geometry, fc_work_group_limit,
};
}
