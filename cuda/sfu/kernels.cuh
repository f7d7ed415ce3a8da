/* The SFU benchmark's kernel bodies (semantics: sfu/backend.h) and the
 * macros that give every (function, type, version) its own extern "C"
 * kernels, so that the PTX names each one plainly for the static check
 * (bench/sfu/tests/test_sfu_ptx.c) and for the compiler reports:
 *
 *   sfu_chain_<version>_<func>_<type>_ilp<1..SFU_MAX_ILP>
 *
 * version: precise, intrinsic, ptx (inline PTX .approx.ftz) or partition
 * (precise and ptx mixed per warp); type: f32 or f64. An operation is a
 * struct with `static T f(T x, T y)`; unary ones ignore y.
 *
 * Every kernel has the same parameters, fast_units included, so that the
 * backend launches them all alike; only partition kernels read it. zero
 * is 0 (sfu/chain.h: it makes y new to the compiler in every iteration).
 *
 * The partition unit is the warp, numbered by global thread index / 32.
 * Li reads the hardware slot %warpid (0..63 per SM) instead; over a whole
 * grid both put the same fraction of warps on the fast path, and the global
 * number is reproducible, where %warpid depends on which slot the scheduler
 * gives a warp. The backend runs partitions only in blocks of whole warps
 * (or of a fraction of one), so no warp is split between the paths. */
#ifndef CR_SFU_KERNELS_CUH
#define CR_SFU_KERNELS_CUH

#include "sfu/chain.h"
#include "sfu/kernel_list.h"

/* The partition unit, in threads. */
#define SFU_WARP 32u

/* Pragmas do not expand macros. */
constexpr int sfu_max_ilp = SFU_MAX_ILP;

typedef float f32;
typedef double f64;

/* y as iteration i hands it to f: y itself, in a form nvcc cannot hoist
 * (SFU_CHAIN_FRESH_BITS, sfu/chain.h); zero is the kernel argument the
 * host sets to 0. */
__device__ __forceinline__ float sfu_fresh(float y, unsigned i, unsigned zero)
{
    return __uint_as_float(SFU_CHAIN_FRESH_BITS(__float_as_uint(y), unsigned, i, zero, 0));
}

__device__ __forceinline__ double sfu_fresh(double y, unsigned i, unsigned zero)
{
    const unsigned long long bits = (unsigned long long)__double_as_longlong(y);
    return __longlong_as_double((long long)SFU_CHAIN_FRESH_BITS(bits, unsigned long long, i, zero, 32));
}

/* ILP independent chains x <- a*f(x, y) + b, each with its running sum.
 * The iteration loop is unrolled SFU_MAX_ILP / ILP times, so that a trip
 * makes 5 to 8 calls at every ILP (ILP x floor(8 / ILP)) and the loop's own
 * counter, compare and branch weigh little per call, and about alike, from
 * the single dependent chain to eight independent ones.
 *
 * y goes into f freshened, as in the OpenCL kernels (sfu/chain.h): handed
 * over as loaded, it lets nvcc compute 1/y once before the loop, and the
 * division rows time a multiply and no MUFU (bench/sfu/tests/
 * test_sfu_sass.c reads the machine code for that). */
template <class Op, int ILP, typename T>
__device__ __forceinline__ void sfu_chain_run(const T *__restrict__ x0, const T *__restrict__ y0, T *__restrict__ xout,
                                              T *__restrict__ sout, unsigned iters, T a, T b, unsigned zero,
                                              unsigned long long g)
{
    constexpr int unroll = sfu_max_ilp / ILP;
    T x[ILP], y[ILP], s[ILP];
#pragma unroll
    for (int j = 0; j < ILP; ++j) {
        x[j] = x0[g * ILP + j];
        y[j] = y0[g * ILP + j];
        s[j] = 0;
    }
#pragma unroll(unroll)
    for (unsigned i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < ILP; ++j)
            SFU_CHAIN_STEP(x[j], s[j], Op::f(x[j], sfu_fresh(y[j], i, zero)), a, b);
    }
#pragma unroll
    for (int j = 0; j < ILP; ++j) {
        xout[g * ILP + j] = x[j];
        sout[g * ILP + j] = s[j];
    }
}

/* Whole warps take one path for the whole loop: the choice is made once,
 * outside it (Li's Listing 6.3), so the cost of partitioning is one
 * predicate per warp, not one branch per call. */
template <class Slow, class Fast, int ILP, typename T>
__device__ __forceinline__ void sfu_chain_partition(const T *__restrict__ x0, const T *__restrict__ y0,
                                                    T *__restrict__ xout, T *__restrict__ sout, unsigned iters, T a,
                                                    T b, unsigned fast_units, unsigned zero)
{
    const unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if ((g / SFU_WARP) % SFU_PARTITION_UNITS < fast_units)
        sfu_chain_run<Fast, ILP, T>(x0, y0, xout, sout, iters, a, b, zero, g);
    else
        sfu_chain_run<Slow, ILP, T>(x0, y0, xout, sout, iters, a, b, zero, g);
}

/* An operation struct: ver_func_type with f() computing expr of x and y. */
#define SFU_OP(ver, func, T, expr)                                                                                 \
    struct ver##_##func##_##T {                                                                                    \
        static __device__ __forceinline__ T f(T x, T y)                                                            \
        {                                                                                                          \
            (void)x;                                                                                               \
            (void)y;                                                                                               \
            return expr;                                                                                           \
        }                                                                                                          \
    };

#define SFU_CHAIN_PARAMS(T)                                                                                        \
    const T *x0, const T *y0, T *xout, T *sout, unsigned iters, T a, T b, unsigned fast_units, unsigned zero

#define SFU_CHAIN_KERNEL(ver, func, T, ILP)                                                                        \
    extern "C" __global__ void sfu_chain_##ver##_##func##_##T##_ilp##ILP(SFU_CHAIN_PARAMS(T))                       \
    {                                                                                                              \
        (void)fast_units;                                                                                          \
        const unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;                   \
        sfu_chain_run<ver##_##func##_##T, ILP, T>(x0, y0, xout, sout, iters, a, b, zero, g);                      \
    }

#define SFU_PARTITION_CHAIN_KERNEL(func, T, ILP)                                                                   \
    extern "C" __global__ void sfu_chain_partition_##func##_##T##_ilp##ILP(SFU_CHAIN_PARAMS(T))                    \
    {                                                                                                              \
        sfu_chain_partition<precise_##func##_##T, ptx_##func##_##T, ILP, T>(x0, y0, xout, sout, iters, a, b,       \
                                                                            fast_units, zero);                     \
    }

/* Instantiates for ILP 1..8; must follow SFU_MAX_ILP. */
static_assert(SFU_MAX_ILP == 8, "SFU_EACH_ILP lists ILP 1..SFU_MAX_ILP");
#define SFU_EACH_ILP(M, ...)                                                                                       \
    M(__VA_ARGS__, 1) M(__VA_ARGS__, 2) M(__VA_ARGS__, 3) M(__VA_ARGS__, 4) M(__VA_ARGS__, 5) M(__VA_ARGS__, 6)     \
        M(__VA_ARGS__, 7) M(__VA_ARGS__, 8)

/* The chain kernels of one version of one function. The host measures
 * their accuracy on them too (one iteration, a = 1, b = -0), so there is
 * no evaluation kernel that could compile the function differently. */
#define SFU_KERNELS(ver, func, T) SFU_EACH_ILP(SFU_CHAIN_KERNEL, ver, func, T)

/* The partition kernels of one function: precise_func_T and ptx_func_T
 * must exist. */
#define SFU_PARTITION_KERNELS(func, T) SFU_EACH_ILP(SFU_PARTITION_CHAIN_KERNEL, func, T)

/* The list entry of the kernels of one version of one function,
 * ver_func_T_entry: the host handles, chains in the order of SFU_EACH_ILP. */
#define SFU_CHAIN_PTR(ver, func, T, ILP) (const void *)sfu_chain_##ver##_##func##_##T##_ilp##ILP,
#define SFU_LIST_ENTRY(ver, func, T)                                                                               \
    static const sfu_kernel_list_entry ver##_##func##_##T##_entry = {{SFU_EACH_ILP(SFU_CHAIN_PTR, ver, func, T)}};

/* Inside a lookup of f in type t: returns that entry when they are e and T. */
#define SFU_LIST_CASE(e, ver, func, T)                                                                             \
    if (f == e && t == (sizeof(T) == 4 ? CR_FLOAT : CR_DOUBLE))                                                    \
        return &ver##_##func##_##T##_entry;

#endif
