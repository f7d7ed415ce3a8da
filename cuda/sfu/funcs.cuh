/* The functions of the SFU benchmark's -ftz=false units (kernels_plain.cu,
 * kernels_partition.cu): every function in float, Li's four in double, with
 * its precise and its inline-PTX expression, and the operation structs of
 * both. Precise is what CUDA gives without fast-math flags, as in Li's
 * Table 6.1: x/y, 1/x, sqrtf(x), 1/sqrtf(x) (Li's accurate reciprocal
 * square root, not rsqrtf), powf, expf, logf, sinf, cosf, exp2f, log2f,
 * tanf; in double x/y, 1/x, sqrt, 1/sqrt. The partitions are a unit of
 * their own so that the build compiles the two halves at once. */
#ifndef CR_SFU_FUNCS_CUH
#define CR_SFU_FUNCS_CUH

#include "sfu/kernel_list.h"
#include "sfu/kernels.cuh"
#include "sfu/ops_ptx.cuh"

/* X(enum, name, type, precise, ptx). */
#define SFU_CUDA_FUNCS(X)                                                                                          \
    X(SFU_DIV, div, f32, x / y, sfu_ptx_div_f32(x, y))                                                             \
    X(SFU_RCP, rcp, f32, 1.0f / x, sfu_ptx_rcp_f32(x))                                                             \
    X(SFU_SQRT, sqrt, f32, sqrtf(x), sfu_ptx_sqrt_f32(x))                                                          \
    X(SFU_RSQRT, rsqrt, f32, 1.0f / sqrtf(x), sfu_ptx_rsqrt_f32(x))                                                \
    X(SFU_POW, pow, f32, powf(x, y), sfu_ptx_pow_f32(x, y))                                                        \
    X(SFU_EXP, exp, f32, expf(x), sfu_ptx_exp_f32(x))                                                              \
    X(SFU_LOG, log, f32, logf(x), sfu_ptx_log_f32(x))                                                              \
    X(SFU_SIN, sin, f32, sinf(x), sfu_ptx_sin_f32(x))                                                              \
    X(SFU_COS, cos, f32, cosf(x), sfu_ptx_cos_f32(x))                                                              \
    X(SFU_EXP2, exp2, f32, exp2f(x), sfu_ptx_exp2_f32(x))                                                          \
    X(SFU_LOG2, log2, f32, log2f(x), sfu_ptx_log2_f32(x))                                                          \
    X(SFU_TAN, tan, f32, tanf(x), sfu_ptx_tan_f32(x))                                                              \
    X(SFU_DIV, div, f64, x / y, sfu_ptx_div_f64(x, y))                                                             \
    X(SFU_RCP, rcp, f64, 1.0 / x, sfu_ptx_rcp_f64(x))                                                              \
    X(SFU_SQRT, sqrt, f64, sqrt(x), sfu_ptx_sqrt_f64(x))                                                           \
    X(SFU_RSQRT, rsqrt, f64, 1.0 / sqrt(x), sfu_ptx_rsqrt_f64(x))

#define SFU_FUNC_OPS(e, func, T, precise_expr, ptx_expr)                                                           \
    SFU_OP(precise, func, T, precise_expr)                                                                         \
    SFU_OP(ptx, func, T, ptx_expr)
SFU_CUDA_FUNCS(SFU_FUNC_OPS)

#endif
