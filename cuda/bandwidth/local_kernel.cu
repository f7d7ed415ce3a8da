#include "local_kernel.h"

#include <cstdint>

#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"

/* One round (elements.h): every row of from at the thread's column into
 * to at the next row and the mirrored column, then the barrier that keeps
 * this round's loads before the next round's stores. All K loads come
 * first: ptxas cannot tell the halves apart, and would otherwise wait for
 * each load before the store behind it and the next load. */
template <typename T, unsigned K>
__device__ __forceinline__ void local_round(const T *from, T *to, unsigned l)
{
    T v[K];
#pragma unroll
    for (unsigned k = 0; k < K; ++k)
        v[k] = from[k * BW_LOCAL_GROUP + l];
#pragma unroll
    for (unsigned k = 0; k < K; ++k)
        to[BW_LOCAL_TO(k, l, K)] = v[k];
    __syncthreads();
}

/* The OpenCL bw_local_v<v>'s rounds (opencl/bandwidth/kernels.cl): one
 * block of BW_LOCAL_GROUP threads per tile, the two halves taking turns
 * two rounds an iteration. The iterations stay a loop, so that the PTX
 * shows each round's K loads and K stores of the vector width between
 * two barriers. */
template <typename T>
__device__ __forceinline__ void local_stream(const T *__restrict__ in, T *__restrict__ out)
{
    constexpr unsigned K = BW_LOCAL_LOADS(sizeof(T) / 4);
    __shared__ T a[K * BW_LOCAL_GROUP], b[K * BW_LOCAL_GROUP];
    const unsigned l = threadIdx.x;
    const uint64_t tile = (uint64_t)blockIdx.x * (K * BW_LOCAL_GROUP);
#pragma unroll
    for (unsigned k = 0; k < K; ++k)
        a[k * BW_LOCAL_GROUP + l] = in[tile + k * BW_LOCAL_GROUP + l];
    __syncthreads();
    local_round<T, K>(a, b, l);
#pragma unroll 1
    for (unsigned r = 1; r < BW_LOCAL_ROUNDS; r += 2) {
        local_round<T, K>(b, a, l);
        local_round<T, K>(a, b, l);
    }
#pragma unroll
    for (unsigned k = 0; k < K; ++k)
        out[tile + k * BW_LOCAL_GROUP + l] = b[k * BW_LOCAL_GROUP + l];
}

/* One kernel per width, with C linkage so that the PTX names stay plain
 * for the static checks. */
#define LOCAL_KERNEL(name, T)                                                                                    \
    extern "C" __global__ void __launch_bounds__(BW_LOCAL_GROUP) name(const T *__restrict__ in,                 \
                                                                        T *__restrict__ out)                     \
    {                                                                                                            \
        local_stream<T>(in, out);                                                                                \
    }
LOCAL_KERNEL(bw_local_v1, uint32_t)
LOCAL_KERNEL(bw_local_v2, uint2)
LOCAL_KERNEL(bw_local_v4, uint4)

bool bw_local_has_width(unsigned v) { return v == 1 || v == 2 || v == 4; }

cudaError_t bw_launch_local(const void *in, void *out, uint64_t bytes, unsigned v, cudaStream_t s)
{
    const uint64_t blocks = bytes / BW_LOCAL_TILE_BYTES;
    if (blocks == 0 || blocks > 0x7fffffffu || !bw_local_has_width(v))
        return cudaErrorInvalidValue;
    if (v == 1)
        bw_local_v1<<<(unsigned)blocks, BW_LOCAL_GROUP, 0, s>>>((const uint32_t *)in, (uint32_t *)out);
    else if (v == 2)
        bw_local_v2<<<(unsigned)blocks, BW_LOCAL_GROUP, 0, s>>>((const uint2 *)in, (uint2 *)out);
    else
        bw_local_v4<<<(unsigned)blocks, BW_LOCAL_GROUP, 0, s>>>((const uint4 *)in, (uint4 *)out);
    return cudaGetLastError();
}
