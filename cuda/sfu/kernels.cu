/* The precise and the inline-PTX kernels of the SFU benchmark and their
 * partitions; compiled with -ftz=false (see kernel_list.h). Precise is what
 * CUDA gives without fast-math flags, as in Li's Table 6.1: x/y, 1/x,
 * sqrtf(x), 1/sqrtf(x) (Li's accurate reciprocal square root, not rsqrtf),
 * powf, expf, logf, sinf, cosf, exp2f, log2f, tanf; in double x/y, 1/x,
 * sqrt, 1/sqrt. */
#include "sfu/kernel_list.h"
#include "sfu/kernels.cuh"
#include "sfu/ops_ptx.cuh"

/* Every function in float, Li's four in double, with its precise and its
 * inline-PTX expression: X(enum, name, type, precise, ptx). */
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

/* The two operations of a function, the kernels of each and of their
 * partition, and the list entries of all three. */
#define SFU_FUNC_KERNELS(e, func, T, precise_expr, ptx_expr)                                                       \
    SFU_OP(precise, func, T, precise_expr)                                                                         \
    SFU_OP(ptx, func, T, ptx_expr)                                                                                 \
    SFU_KERNELS(precise, func, T)                                                                                  \
    SFU_KERNELS(ptx, func, T)                                                                                      \
    SFU_PARTITION_KERNELS(func, T)                                                                                 \
    SFU_LIST_ENTRY(precise, func, T)                                                                               \
    SFU_LIST_ENTRY(ptx, func, T)                                                                                   \
    SFU_LIST_ENTRY(partition, func, T)
SFU_CUDA_FUNCS(SFU_FUNC_KERNELS)

#define SFU_PRECISE_CASE(e, func, T, p, q) SFU_LIST_CASE(e, precise, func, T)
#define SFU_PTX_CASE(e, func, T, p, q) SFU_LIST_CASE(e, ptx, func, T)
#define SFU_PARTITION_CASE(e, func, T, p, q) SFU_LIST_CASE(e, partition, func, T)

extern "C" const sfu_kernel_list_entry *sfu_kernel_list_plain(sfu_func f, cr_dtype t, sfu_version v)
{
    if (v == SFU_PRECISE) {
        SFU_CUDA_FUNCS(SFU_PRECISE_CASE)
    } else if (v == SFU_PTX_APPROX) {
        SFU_CUDA_FUNCS(SFU_PTX_CASE)
    }
    return NULL;
}

extern "C" const sfu_kernel_list_entry *sfu_kernel_list_partition(sfu_func f, cr_dtype t)
{
    SFU_CUDA_FUNCS(SFU_PARTITION_CASE)
    return NULL;
}
