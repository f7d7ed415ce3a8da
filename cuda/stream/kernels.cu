/* CUDA kernels of the stream benchmark. Every kernel runs exactly the
 * threads it is launched with, T in all, thread t owning the elements
 * t, t + T, t + 2T, ... of the arrays (an interleaved, grid-stride split:
 * a warp's accesses coalesce).
 *
 * Each thread takes its elements unroll<T> at a time: it issues the loads of
 * t + jUT, ..., t + (jU + U-1)T from every array it reads before it stores
 * any result, so that 16 bytes per array per thread (four floats, two
 * doubles) are in flight at once. One element at a time leaves HBM3 short
 * of the bytes in flight it needs at full occupancy; the same 16 bytes in
 * either type keep the concurrency sweep's work-items comparable across
 * types, and double at four would need more registers than full occupancy
 * leaves. The last, partial step goes one element at a time. */
#include "kernels.h"

#include "stream/elements.h"

/* Bounds for the largest block at two per SM cap registers at 32 per thread,
 * so the full occupancy default_geometry asks for (2048 threads per SM on
 * sm_80 and sm_90) stays resident with any block size. */
#define RESIDENT __launch_bounds__(1024, 2)

template <typename T>
struct unroll {
    static constexpr unsigned value = 16 / sizeof(T);
};

/* The arrays each kernel reads (elements.h) and the one it writes. */
__host__ __device__ constexpr bool reads(stream_kernel k, stream_array x)
{
    return k == STREAM_COPY ? x == STREAM_A
         : k == STREAM_MUL  ? x == STREAM_C
         : k == STREAM_ADD  ? x != STREAM_C
                            : x != STREAM_A; /* triad */
}
__host__ __device__ constexpr stream_array written(stream_kernel k)
{
    return k == STREAM_MUL ? STREAM_B : k == STREAM_TRIAD ? STREAM_A : STREAM_C;
}

/* Element i of kernel K, on arrays or on registers. */
template <typename T, stream_kernel K>
__device__ __forceinline__ void element(T *a, T *b, T *c, T s, size_t i)
{
    if constexpr (K == STREAM_COPY)
        STREAM_COPY_AT(a, b, c, s, i);
    else if constexpr (K == STREAM_MUL)
        STREAM_MUL_AT(a, b, c, s, i);
    else if constexpr (K == STREAM_ADD)
        STREAM_ADD_AT(a, b, c, s, i);
    else
        STREAM_TRIAD_AT(a, b, c, s, i);
}

template <typename T, stream_kernel K>
__global__ void RESIDENT elementwise(T *__restrict__ a, T *__restrict__ b, T *__restrict__ c, T s, size_t n)
{
    constexpr unsigned U = unroll<T>::value;
    T *const arrays[3] = {a, b, c};
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* i < n here, so i + (U-1)T cannot wrap for any T a launch can have. */
    for (; i < n && i + (U - 1) * threads < n; i += U * threads) {
        T reg[3][U];
#pragma unroll
        for (unsigned x = 0; x < 3; ++x)
            if (reads(K, (stream_array)x))
#pragma unroll
                for (unsigned u = 0; u < U; ++u)
                    reg[x][u] = arrays[x][i + u * threads];
#pragma unroll
        for (unsigned u = 0; u < U; ++u)
            element<T, K>(reg[0], reg[1], reg[2], s, u);
        constexpr unsigned out = written(K);
#pragma unroll
        for (unsigned u = 0; u < U; ++u)
            arrays[out][i + u * threads] = reg[out][u];
    }
    for (; i < n; i += threads)
        element<T, K>(a, b, c, s, i);
}

/* Sums blocks of at most STREAM_DOT_BLOCK products into the thread's running
 * sum, then a tree over the block; one partial per block, in double for the
 * host's pairwise sum. The products' loads go unroll<T> at a time like the
 * other kernels', but the adds stay one chain in element order: one
 * accumulator, because more chains need more registers than full occupancy
 * leaves for double (ptxas spills), and the sum is then exactly the
 * one-element-at-a-time kernel's (STREAM_DOT_BLOCK is a multiple of any
 * unroll<T>, so a step never straddles two blocks). */
template <typename T>
__global__ void RESIDENT dot_kernel(const T *__restrict__ a, const T *__restrict__ b, double *__restrict__ partial,
                                    size_t n)
{
    constexpr unsigned U = unroll<T>::value;
    static_assert(STREAM_DOT_BLOCK % U == 0, "a step of loads must not straddle two blocks");
    extern __shared__ __align__(8) unsigned char shared[];
    T *red = reinterpret_cast<T *>(shared);
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T sum = 0;
    while (i < n) {
        T block = 0;
        unsigned k = 0;
        for (; k < STREAM_DOT_BLOCK && i + (U - 1) * threads < n; k += U, i += U * threads) {
            T x[U], y[U];
#pragma unroll
            for (unsigned u = 0; u < U; ++u)
                x[u] = a[i + u * threads], y[u] = b[i + u * threads];
#pragma unroll
            for (unsigned u = 0; u < U; ++u)
                block += STREAM_DOT_AT(x, y, u);
        }
        for (; k < STREAM_DOT_BLOCK && i < n; ++k, i += threads)
            block += STREAM_DOT_AT(a, b, i);
        sum += block;
    }
    red[threadIdx.x] = sum;
    __syncthreads();
    /* Block sizes need not be powers of two (see work_group_for). */
    for (unsigned active = blockDim.x; active > 1;) {
        unsigned half = (active + 1) / 2;
        if (threadIdx.x < active - half)
            red[threadIdx.x] += red[threadIdx.x + half];
        __syncthreads();
        active = half;
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = red[0];
}

template <typename T>
static void launch(stream_kernel k, unsigned blocks, unsigned group, void *a, void *b, void *c, double scalar,
                   uint64_t n, double *partial)
{
    T *x = (T *)a, *y = (T *)b, *z = (T *)c;
    /* Indexed by stream_kernel; dot has a kernel of its own. */
    static void (*const element_kernels[])(T *, T *, T *, T, size_t) = {
        elementwise<T, STREAM_COPY>, elementwise<T, STREAM_MUL>, elementwise<T, STREAM_ADD>,
        elementwise<T, STREAM_TRIAD>};
    if (k == STREAM_DOT)
        dot_kernel<T><<<blocks, group, group * sizeof(T)>>>(x, y, partial, n);
    else
        element_kernels[k]<<<blocks, group>>>(x, y, z, (T)scalar, n);
}

void stream_cuda_launch(stream_kernel k, cr_dtype t, unsigned blocks, unsigned group, void *a, void *b, void *c,
                        double scalar, uint64_t n, double *partial)
{
    if (t == CR_DOUBLE)
        launch<double>(k, blocks, group, a, b, c, scalar, n, partial);
    else
        launch<float>(k, blocks, group, a, b, c, scalar, n, partial);
}
