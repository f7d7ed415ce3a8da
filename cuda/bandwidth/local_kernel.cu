#include "local_kernel.h"

#include "grid.cuh"

#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"

static_assert(BW_LOCAL_TILE == BLOCK, "a block is one tile, one word per thread");

/* The OpenCL bw_local's rounds (opencl/bandwidth/kernels.cl) over a
 * grid-stride loop of tiles, the tile index uniform in a block so that
 * every thread reaches every barrier. Two tiles take turns: a round reads
 * one and writes the other, and the barrier after it keeps every read of
 * a round before the next round's writes. The rounds stay a loop, so that
 * the PTX shows one shared load and store per round. C linkage keeps the
 * PTX name plain for the static checks. */
extern "C" __global__ void RESIDENT bw_local(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, uint64_t n)
{
    __shared__ uint32_t tiles[2][BW_LOCAL_TILE];
    const unsigned l = threadIdx.x;
    const uint64_t ntiles = (n + BW_LOCAL_TILE - 1) / BW_LOCAL_TILE;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
        const uint64_t i = tile * BW_LOCAL_TILE + l;
        uint32_t *from = tiles[0], *to = tiles[1];
        from[l] = i < n ? in[i] : 0u;
        __syncthreads();
#pragma unroll 1
        for (unsigned r = 0; r < BW_LOCAL_ROUNDS; ++r) {
            to[l] = from[BW_LOCAL_SOURCE(l)];
            __syncthreads();
            uint32_t *swap = from;
            from = to;
            to = swap;
        }
        if (i < n)
            out[i] = from[l];
        __syncthreads(); /* the next tile's load overwrites what this one's last round read */
    }
}

cudaError_t bw_launch_local(const void *in, void *out, uint64_t bytes, unsigned blocks, cudaStream_t s)
{
    bw_local<<<blocks, BLOCK, 0, s>>>((const uint32_t *)in, (uint32_t *)out, bytes / 4);
    return cudaGetLastError();
}
