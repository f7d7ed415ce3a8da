/* SFU benchmark kernels (semantics in sfu/backend.h), built after
 * sfu/chain.h (the chain's step, shared with the CUDA kernels and the
 * host's replay). One program holds one function in one type, chosen at
 * build time:
 *   -DSFU_T=float|double   the type (and -DSFU_IS_DOUBLE for double)
 *   -DSFU_FN_<name>        the function ("div", "rcp", ... as in sfu/functions.h)
 *   -DSFU_FAST_VERSIONS=1  also the native_ and half_ kernels (float only: OpenCL 1.2
 *                          has native_ and half_ functions for float alone)
 *   -DSFU_LANES=N          also the vector chain kernels sfu_vchain<E>_<version>, whose
 *                          work-items each run N of the contract's work-items in the
 *                          lanes of one SFU_T<N> vector (N = 2, 4, 8, 16; 1: none)
 * The same source built with -cl-fast-relaxed-math gives the relaxed-math
 * version: its "precise" kernels then compile the built-in under relaxed math.
 *
 * Every kernel takes fast_units: work-groups g with (g % SFU_PARTITION_UNITS)
 * < fast_units compute the native_ expression instead of the kernel's own
 * (Li's warp partition; a work-group is the unit, so whole SIMD groups take
 * one path). The choice is made once per work-item, outside the loop, as Li
 * hoists the branch out of the loop.
 *
 * Why vector chains: a CPU runtime (PoCL) spreads the work-items of a group
 * over SIMD lanes only when the kernel has no loop of its own; the chain
 * kernels have one, so every scalar chain runs on one lane and a throughput
 * run would time scalar library calls, not the SIMD unit. A vector chain
 * puts N contract work-items in the N lanes explicitly: chain j of OpenCL
 * work-item w is lane l of the vector at vload index w*E + j, which holds
 * contract work-item w*N + l's chain j. The host lays the seeds out so and
 * puts the results back into the contract's order (backend.c).
 *
 * The functions themselves are OpenCL's built-ins, not the CUDA kernels'
 * expressions: each backend measures its own API's versions. */
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* PoCL defines min and max as object-like macros; nothing here needs them. */
#undef min
#undef max

#define SFU_PARTITION_UNITS 64
typedef SFU_T T;
#define PASTE_(a, b) a##b
#define PASTE(a, b) PASTE_(a, b)
#if !defined(SFU_LANES)
#define SFU_LANES 1
#endif
#if SFU_LANES > 1
typedef PASTE(SFU_T, SFU_LANES) V;
#endif
#define ONE ((T)1)

/* Each function's three expressions: the built-in, native_ and half_. */
#if defined(SFU_FN_div)
#define F_PRECISE(x, y) ((x) / (y))
#define F_NATIVE(x, y) native_divide(x, y)
#define F_HALF(x, y) half_divide(x, y)
#elif defined(SFU_FN_rcp)
#define F_PRECISE(x, y) (ONE / (x))
#define F_NATIVE(x, y) native_recip(x)
#define F_HALF(x, y) half_recip(x)
#elif defined(SFU_FN_sqrt)
#define F_PRECISE(x, y) sqrt(x)
#define F_NATIVE(x, y) native_sqrt(x)
#define F_HALF(x, y) half_sqrt(x)
#elif defined(SFU_FN_rsqrt)
#define F_PRECISE(x, y) rsqrt(x)
#define F_NATIVE(x, y) native_rsqrt(x)
#define F_HALF(x, y) half_rsqrt(x)
#elif defined(SFU_FN_pow)
/* x > 0 throughout: powr, whose native_ and half_ forms exist. */
#define F_PRECISE(x, y) powr(x, y)
#define F_NATIVE(x, y) native_powr(x, y)
#define F_HALF(x, y) half_powr(x, y)
#elif defined(SFU_FN_exp)
#define F_PRECISE(x, y) exp(x)
#define F_NATIVE(x, y) native_exp(x)
#define F_HALF(x, y) half_exp(x)
#elif defined(SFU_FN_log)
#define F_PRECISE(x, y) log(x)
#define F_NATIVE(x, y) native_log(x)
#define F_HALF(x, y) half_log(x)
#elif defined(SFU_FN_sin)
#define F_PRECISE(x, y) sin(x)
#define F_NATIVE(x, y) native_sin(x)
#define F_HALF(x, y) half_sin(x)
#elif defined(SFU_FN_cos)
#define F_PRECISE(x, y) cos(x)
#define F_NATIVE(x, y) native_cos(x)
#define F_HALF(x, y) half_cos(x)
#elif defined(SFU_FN_exp2)
#define F_PRECISE(x, y) exp2(x)
#define F_NATIVE(x, y) native_exp2(x)
#define F_HALF(x, y) half_exp2(x)
#elif defined(SFU_FN_log2)
#define F_PRECISE(x, y) log2(x)
#define F_NATIVE(x, y) native_log2(x)
#define F_HALF(x, y) half_log2(x)
#elif defined(SFU_FN_tan)
#define F_PRECISE(x, y) tan(x)
#define F_NATIVE(x, y) native_tan(x)
#define F_HALF(x, y) half_tan(x)
#else
#error "no SFU_FN_<name> given"
#endif

/* The fast path of a partition; double has no native_ functions, so its
 * kernels only ever run with fast_units = 0 and the path is the built-in. */
#if SFU_FAST_VERSIONS
#define F_FAST F_NATIVE
#else
#define F_FAST F_PRECISE
#endif

static bool takes_fast_path(uint fast_units)
{
    return (uint)(get_group_id(0) % SFU_PARTITION_UNITS) < fast_units;
}

/* y as iteration it hands it to f (SFU_CHAIN_FRESH_BITS, sfu/chain.h, as
 * the CUDA kernels do): y itself, as the host passes zero = 0, but a value
 * the compiler must take as new in every iteration. Without it a compiler
 * may compute 1/y once before the loop (a relaxed-math build turns x/y
 * into x * (1/y)) and time a multiply. In double the mask goes into the
 * high word, the one an SFU reciprocal reads. */
#if defined(SFU_IS_DOUBLE)
#define FRESH_AS(y, it, AS_T, AS_BITS) AS_T(SFU_CHAIN_FRESH_BITS(AS_BITS(y), ulong, it, zero, 32))
#define FRESH(y, it) FRESH_AS(y, it, as_double, as_ulong)
#define VFRESH(y, it) FRESH_AS(y, it, PASTE(as_double, SFU_LANES), PASTE(as_ulong, SFU_LANES))
#else
#define FRESH_AS(y, it, AS_T, AS_BITS) AS_T(SFU_CHAIN_FRESH_BITS(AS_BITS(y), uint, it, zero, 0))
#define FRESH(y, it) FRESH_AS(y, it, as_float, as_uint)
#define VFRESH(y, it) FRESH_AS(y, it, PASTE(as_float, SFU_LANES), PASTE(as_uint, SFU_LANES))
#endif

/* Loads and stores of the scalar and the vector kernels: element i, or
 * the N elements from i * N on. */
#define LOAD1(i, p) ((p)[i])
#define STORE1(v, i, p) ((p)[i] = (v))
#define VLOAD(i, p) PASTE(vload, SFU_LANES)(i, p)
#define VSTORE(v, i, p) PASTE(vstore, SFU_LANES)(v, i, p)

/* ILP independent chains x <- a*f(x, y) + b, s += x. The chains live in
 * separate variables of a fully unrolled inner loop, so that nothing but
 * the chains' own dependences orders the calls. */
#define CHAIN_LOOP(ILP, EXPR, FRESHEN)                                                                 \
    for (uint it = 0; it < iters; ++it) {                                                               \
        _Pragma("unroll") for (uint j = 0; j < ILP; ++j)                                                \
        {                                                                                               \
            SFU_CHAIN_STEP(x[j], s[j], EXPR(x[j], FRESHEN(y[j], it)), a, b);                            \
        }                                                                                               \
    }

/* Contract work-item g's chains are the ILP elements from g * ILP on; in a
 * vector kernel, the ILP vectors from w * ILP on (in units of vectors). */
#define CHAIN_KERNEL(NAME, VER, ILP, EXPR, TYPE, LOAD, STORE, FRESHEN)                                 \
    kernel void sfu_##NAME##_##VER(global const T *restrict x0, global const T *restrict y0,            \
                                   global T *restrict xout, global T *restrict sout, uint iters, T a,  \
                                   T b, uint fast_units, uint zero)                                     \
    {                                                                                                   \
        size_t base = get_global_id(0) * ILP;                                                           \
        TYPE x[ILP], y[ILP], s[ILP];                                                                    \
        _Pragma("unroll") for (uint j = 0; j < ILP; ++j)                                                \
        {                                                                                               \
            x[j] = LOAD(base + j, x0);                                                                  \
            y[j] = LOAD(base + j, y0);                                                                  \
            s[j] = (TYPE)0;                                                                             \
        }                                                                                               \
        if (takes_fast_path(fast_units)) {                                                              \
            CHAIN_LOOP(ILP, F_FAST, FRESHEN)                                                            \
        } else {                                                                                        \
            CHAIN_LOOP(ILP, EXPR, FRESHEN)                                                              \
        }                                                                                               \
        _Pragma("unroll") for (uint j = 0; j < ILP; ++j)                                                \
        {                                                                                               \
            STORE(x[j], base + j, xout);                                                                \
            STORE(s[j], base + j, sout);                                                                \
        }                                                                                               \
    }

#define SCALAR_CHAIN(ILP, VER, EXPR) CHAIN_KERNEL(chain##ILP, VER, ILP, EXPR, T, LOAD1, STORE1, FRESH)
#if SFU_LANES > 1
#define VECTOR_CHAIN(ILP, VER, EXPR) CHAIN_KERNEL(vchain##ILP, VER, ILP, EXPR, V, VLOAD, VSTORE, VFRESH)
#else
#define VECTOR_CHAIN(ILP, VER, EXPR)
#endif
#define CHAINS(ILP, VER, EXPR) SCALAR_CHAIN(ILP, VER, EXPR) VECTOR_CHAIN(ILP, VER, EXPR)

/* chainN (and vchainN) run N chains per work-item: chain1 is the latency
 * kernel, the others the throughput kernels of every --ilp (up to
 * SFU_MAX_ILP = 8). The host measures accuracy on these same kernels (one
 * iteration with a = 1, b = -0): a separate evaluation kernel could compile
 * differently, as relaxed math does when it merges the chain's multiply
 * into 1/x and computes a reciprocal estimate instead of a division. */
#define VERSION_KERNELS(VER, EXPR)                                                                     \
    CHAINS(1, VER, EXPR)                                                                                \
    CHAINS(2, VER, EXPR)                                                                                \
    CHAINS(3, VER, EXPR)                                                                                \
    CHAINS(4, VER, EXPR)                                                                                \
    CHAINS(5, VER, EXPR)                                                                                \
    CHAINS(6, VER, EXPR)                                                                                \
    CHAINS(7, VER, EXPR)                                                                                \
    CHAINS(8, VER, EXPR)

VERSION_KERNELS(precise, F_PRECISE)
#if SFU_FAST_VERSIONS
VERSION_KERNELS(native, F_NATIVE)
VERSION_KERNELS(half, F_HALF)
#endif
