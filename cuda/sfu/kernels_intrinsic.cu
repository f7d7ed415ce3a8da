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
#include "sfu/kernel_list.h"
#include "sfu/kernels.cuh"

/* X(enum, name, intrinsic expression), float only. */
#define SFU_INTRINSIC_FUNCS(X)                                                                                     \
    X(SFU_DIV, div, __fdividef(x, y))                                                                              \
    X(SFU_RSQRT, rsqrt, rsqrtf(x))                                                                                 \
    X(SFU_POW, pow, __powf(x, y))                                                                                  \
    X(SFU_EXP, exp, __expf(x))                                                                                     \
    X(SFU_LOG, log, __logf(x))                                                                                     \
    X(SFU_SIN, sin, __sinf(x))                                                                                     \
    X(SFU_COS, cos, __cosf(x))                                                                                     \
    X(SFU_EXP2, exp2, exp2f(x))                                                                                    \
    X(SFU_LOG2, log2, __log2f(x))                                                                                  \
    X(SFU_TAN, tan, __tanf(x))

#define SFU_INTRINSIC_KERNELS(e, func, expr)                                                                       \
    SFU_OP(intrinsic, func, f32, expr)                                                                             \
    SFU_KERNELS(intrinsic, func, f32)                                                                              \
    SFU_LIST_ENTRY(intrinsic, func, f32)
SFU_INTRINSIC_FUNCS(SFU_INTRINSIC_KERNELS)

#define SFU_INTRINSIC_CASE(e, func, expr) SFU_LIST_CASE(e, intrinsic, func, f32)

extern "C" const sfu_kernel_list_entry *sfu_kernel_list_intrinsic(sfu_func f)
{
    const cr_dtype t = CR_FLOAT;
    SFU_INTRINSIC_FUNCS(SFU_INTRINSIC_CASE)
    return NULL;
}
