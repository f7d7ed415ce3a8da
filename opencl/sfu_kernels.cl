/* SFU benchmark kernels (semantics in bench/sfu.h). One program holds one
 * function in one type, chosen at build time:
 *   -DSFU_T=float|double   the type (and -DSFU_IS_DOUBLE for double)
 *   -DSFU_FN_<name>        the function ("div", "rcp", ... as in bench/sfu_functions.h)
 *   -DSFU_FAST_VERSIONS=1  also the native_ and half_ kernels (float only: OpenCL 1.2
 *                          has native_ and half_ functions for float alone)
 * The same source built with -cl-fast-relaxed-math gives the relaxed-math
 * version: its "precise" kernels then compile the built-in under relaxed math.
 *
 * Every kernel takes fast_units: work-groups g with (g % SFU_PARTITION_UNITS)
 * < fast_units compute the native_ expression instead of the kernel's own
 * (Li's warp partition; a work-group is the unit, so whole SIMD groups take
 * one path). The choice is made once per work-item, outside the loop, as Li
 * hoists the branch out of the loop. */
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* PoCL defines min and max as object-like macros; nothing here needs them. */
#undef min
#undef max

#define SFU_PARTITION_UNITS 64
typedef SFU_T T;
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

/* out[i] = f(x[i], y[i]) for i < n; the launch is rounded up to whole work-groups. */
#define EVAL_KERNEL(VER, EXPR)                                                                        \
    kernel void sfu_eval_##VER(global const T *restrict x, global const T *restrict y,                  \
                               global T *restrict out, ulong n, uint fast_units)                        \
    {                                                                                                   \
        size_t i = get_global_id(0);                                                                    \
        if (i >= n)                                                                                     \
            return;                                                                                     \
        T a = x[i], b = y[i];                                                                           \
        out[i] = takes_fast_path(fast_units) ? F_FAST(a, b) : EXPR(a, b);                               \
    }

/* y with the bits of (it & zero) set: y itself, as the host passes zero =
 * 0, but a value the compiler must take as new in every iteration. Without
 * it a relaxed-math build turns x/y into x * (1/y) with the reciprocal
 * hoisted out of the loop, and times a multiply. The mask is off the
 * chain's dependence path, so latency is unchanged. */
#if defined(SFU_IS_DOUBLE)
#define FRESH(y, it) as_double(as_ulong(y) | (ulong)((it) & zero))
#else
#define FRESH(y, it) as_float(as_uint(y) | ((it) & zero))
#endif

/* ILP independent chains x <- a*f(x, y) + b, s += x. The chains live in
 * separate variables of a fully unrolled inner loop, so that nothing but
 * the chains' own dependences orders the calls. */
#define CHAIN_LOOP(ILP, EXPR)                                                                          \
    for (uint it = 0; it < iters; ++it) {                                                               \
        _Pragma("unroll") for (uint j = 0; j < ILP; ++j)                                                \
        {                                                                                               \
            x[j] = a * EXPR(x[j], FRESH(y[j], it)) + b;                                                 \
            s[j] += x[j];                                                                               \
        }                                                                                               \
    }

#define CHAIN_KERNEL(NAME, VER, ILP, EXPR)                                                             \
    kernel void sfu_##NAME##_##VER(global const T *restrict x0, global const T *restrict y0,            \
                                   global T *restrict xout, global T *restrict sout, uint iters, T a,  \
                                   T b, uint fast_units, uint zero)                                     \
    {                                                                                                   \
        size_t base = get_global_id(0) * ILP;                                                           \
        T x[ILP], y[ILP], s[ILP];                                                                       \
        _Pragma("unroll") for (uint j = 0; j < ILP; ++j)                                                \
        {                                                                                               \
            x[j] = x0[base + j];                                                                        \
            y[j] = y0[base + j];                                                                        \
            s[j] = (T)0;                                                                                \
        }                                                                                               \
        if (takes_fast_path(fast_units)) {                                                              \
            CHAIN_LOOP(ILP, F_FAST)                                                                     \
        } else {                                                                                        \
            CHAIN_LOOP(ILP, EXPR)                                                                       \
        }                                                                                               \
        _Pragma("unroll") for (uint j = 0; j < ILP; ++j)                                                \
        {                                                                                               \
            xout[base + j] = x[j];                                                                      \
            sout[base + j] = s[j];                                                                      \
        }                                                                                               \
    }

/* chainN runs N chains per work-item: chain1 is the latency kernel, the
 * others the throughput kernels of every --ilp (up to SFU_MAX_ILP = 8). */
#define VERSION_KERNELS(VER, EXPR)                                                                     \
    EVAL_KERNEL(VER, EXPR)                                                                              \
    CHAIN_KERNEL(chain1, VER, 1, EXPR)                                                                  \
    CHAIN_KERNEL(chain2, VER, 2, EXPR)                                                                  \
    CHAIN_KERNEL(chain3, VER, 3, EXPR)                                                                  \
    CHAIN_KERNEL(chain4, VER, 4, EXPR)                                                                  \
    CHAIN_KERNEL(chain5, VER, 5, EXPR)                                                                  \
    CHAIN_KERNEL(chain6, VER, 6, EXPR)                                                                  \
    CHAIN_KERNEL(chain7, VER, 7, EXPR)                                                                  \
    CHAIN_KERNEL(chain8, VER, 8, EXPR)

VERSION_KERNELS(precise, F_PRECISE)
#if SFU_FAST_VERSIONS
VERSION_KERNELS(native, F_NATIVE)
VERSION_KERNELS(half, F_HALF)
#endif
