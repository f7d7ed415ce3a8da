#include "path_kernels.h"

#include "grid.cuh"

extern "C" {
#include "bandwidth/backend.h"
}

/* The element operations are bench/bandwidth/elements.h's, as in the
 * OpenCL kernels; the loops differ on purpose (grid-stride over uint4, or
 * float4 for the workloads, where OpenCL follows layout.cl). The contract
 * allows sizes in multiples of 4, the uint4 loops take 16: in every kernel
 * the tail words (at most 3) go to the first threads. */

/* Sums every thread's value over the block through red (BLOCK elements);
 * thread 0 stores the sum in out. Every thread must reach it. */
template <typename T> __device__ __forceinline__ void block_sum_to(T *red, T value, T *out)
{
    red[threadIdx.x] = value;
    __syncthreads();
    for (unsigned half = BLOCK / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            red[threadIdx.x] += red[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = red[0];
}

/* What one element of a sum kernel adds: a read kernel's four words mod
 * 2^64, the reduce's four floats in double. */
__device__ __forceinline__ uint64_t element_sum(uint4 v) { return BW_WORD_SUM4(v); }
__device__ __forceinline__ double element_sum(float4 v) { return (double)v.x + (double)v.y + (double)v.z + (double)v.w; }

/* Sums every E (a uint32_t word, or a float) of in, as vectors V of four
 * and the tail alone, into S; one partial per block. A read kernel's sum
 * keeps the loads live and lets the host check them. */
template <typename E, typename V, typename S>
__global__ void RESIDENT bw_sum(const V *__restrict__ in, S *__restrict__ partial, uint64_t n4, unsigned tail)
{
    __shared__ S red[BLOCK];
    const uint64_t gid = thread_index();
    S sum = 0;
    for (uint64_t i = gid; i < n4; i += grid_threads())
        sum += element_sum(in[i]);
    if (gid < tail)
        sum += reinterpret_cast<const E *>(in + n4)[gid];
    block_sum_to(red, sum, &partial[blockIdx.x]);
}

__global__ void RESIDENT bw_write(uint4 *__restrict__ out, uint64_t n4, unsigned tail, uint32_t seed)
{
    const uint64_t gid = thread_index();
    for (uint64_t i = gid; i < n4; i += grid_threads()) {
        const uint64_t w = 4 * i;
        out[i] = make_uint4(BW_PATTERN_WORD(w, seed), BW_PATTERN_WORD(w + 1, seed), BW_PATTERN_WORD(w + 2, seed),
                            BW_PATTERN_WORD(w + 3, seed));
    }
    if (gid < tail)
        reinterpret_cast<uint32_t *>(out + n4)[gid] = BW_PATTERN_WORD(4 * n4 + gid, seed);
}

/* The workloads of the memory-movement techniques: c = a + b, one float
 * addition per element. */
__global__ void RESIDENT bw_vector_add(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                       float4 *__restrict__ c, uint64_t n4, unsigned tail)
{
    const uint64_t gid = thread_index();
    for (uint64_t i = gid; i < n4; i += grid_threads()) {
        const float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    if (gid < tail)
        reinterpret_cast<float *>(c + n4)[gid] =
            reinterpret_cast<const float *>(a + n4)[gid] + reinterpret_cast<const float *>(b + n4)[gid];
}

cudaError_t bw_launch_read(const void *in, uint64_t *partial, uint64_t bytes, unsigned blocks, cudaStream_t s)
{
    bw_sum<uint32_t><<<blocks, BLOCK, 0, s>>>((const uint4 *)in, partial, bytes / 16, (unsigned)(bytes % 16 / 4));
    return cudaGetLastError();
}

cudaError_t bw_launch_write(void *out, uint64_t bytes, uint32_t seed, unsigned blocks, cudaStream_t s)
{
    bw_write<<<blocks, BLOCK, 0, s>>>((uint4 *)out, bytes / 16, (unsigned)(bytes % 16 / 4), seed);
    return cudaGetLastError();
}

cudaError_t bw_launch_vector_add(const void *a, const void *b, void *c, uint64_t bytes, unsigned blocks,
                                 cudaStream_t s)
{
    bw_vector_add<<<blocks, BLOCK, 0, s>>>((const float4 *)a, (const float4 *)b, (float4 *)c, bytes / 16,
                                           (unsigned)(bytes % 16 / 4));
    return cudaGetLastError();
}

cudaError_t bw_launch_reduce(const void *in, double *partial, uint64_t bytes, unsigned blocks, cudaStream_t s)
{
    bw_sum<float><<<blocks, BLOCK, 0, s>>>((const float4 *)in, partial, bytes / 16, (unsigned)(bytes % 16 / 4));
    return cudaGetLastError();
}
