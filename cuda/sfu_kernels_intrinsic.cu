/* The intrinsic kernels of the SFU benchmark: CUDA's fast single-precision
 * functions, compiled with -ftz=true as Li used them ("intrinsic &
 * -ftz=true", Table 6.1); without it nvcc emits the non-.ftz forms, which
 * keep subnormals at the cost of extra scaling around the SFU operation.
 * The whole unit flushes, the chain's own fma and add included, which is
 * what a program built that way gets.
 *
 * rsqrtf is not spelt with underscores but is the SFU reciprocal square
 * root. CUDA has no __exp2f: exp2f itself compiles to the one ex2.approx
 * instruction (-use_fast_math leaves it alone for that reason), so under
 * -ftz=true exp2f is the intrinsic version. 1/x and sqrt(x) have no
 * intrinsic (Li: "not provided"); their fast versions are PTX only. */
#include "sfu_kernel_table.h"
#include "sfu_kernels.cuh"

SFU_OP(intrinsic, div, f32, __fdividef(x, y))
SFU_OP(intrinsic, rsqrt, f32, rsqrtf(x))
SFU_OP(intrinsic, pow, f32, __powf(x, y))
SFU_OP(intrinsic, exp, f32, __expf(x))
SFU_OP(intrinsic, log, f32, __logf(x))
SFU_OP(intrinsic, sin, f32, __sinf(x))
SFU_OP(intrinsic, cos, f32, __cosf(x))
SFU_OP(intrinsic, exp2, f32, exp2f(x))
SFU_OP(intrinsic, log2, f32, __log2f(x))
SFU_OP(intrinsic, tan, f32, __tanf(x))

#define SFU_INTRINSIC_FUNCS(X)                                                                                     \
    X(SFU_DIV, div)                                                                                                \
    X(SFU_RSQRT, rsqrt)                                                                                            \
    X(SFU_POW, pow)                                                                                                \
    X(SFU_EXP, exp)                                                                                                \
    X(SFU_LOG, log)                                                                                                \
    X(SFU_SIN, sin)                                                                                                \
    X(SFU_COS, cos)                                                                                                \
    X(SFU_EXP2, exp2)                                                                                              \
    X(SFU_LOG2, log2)                                                                                              \
    X(SFU_TAN, tan)

#define SFU_INTRINSIC_KERNELS(e, func) SFU_KERNELS(intrinsic, func, f32)
SFU_INTRINSIC_FUNCS(SFU_INTRINSIC_KERNELS)

#define SFU_INTRINSIC_SET(e, func)                                                                                 \
    static const sfu_cuda_kernel_set intrinsic_##func##_set = SFU_SET(intrinsic, func, f32);
SFU_INTRINSIC_FUNCS(SFU_INTRINSIC_SET)

#define SFU_INTRINSIC_CASE(e, func)                                                                                \
    if (f == e)                                                                                                    \
        return &intrinsic_##func##_set;

extern "C" const sfu_cuda_kernel_set *sfu_cuda_intrinsic_kernels(sfu_func f)
{
    SFU_INTRINSIC_FUNCS(SFU_INTRINSIC_CASE)
    return NULL;
}
