/* The precise and the inline-PTX kernels of the SFU benchmark and their
 * partitions; compiled with -ftz=false (see cuda/sfu_kernel_table.h).
 * Precise is what CUDA gives without fast-math flags, as in Li's Table 6.1:
 * x/y, 1/x, sqrtf(x), 1/sqrtf(x) (Li's accurate reciprocal square root, not
 * rsqrtf), powf, expf, logf, sinf, cosf, exp2f, log2f, tanf; in double x/y,
 * 1/x, sqrt, 1/sqrt. */
#include "sfu_kernel_table.h"
#include "sfu_kernels.cuh"
#include "sfu_ops_ptx.cuh"

SFU_OP(precise, div, f32, x / y)
SFU_OP(precise, rcp, f32, 1.0f / x)
SFU_OP(precise, sqrt, f32, sqrtf(x))
SFU_OP(precise, rsqrt, f32, 1.0f / sqrtf(x))
SFU_OP(precise, pow, f32, powf(x, y))
SFU_OP(precise, exp, f32, expf(x))
SFU_OP(precise, log, f32, logf(x))
SFU_OP(precise, sin, f32, sinf(x))
SFU_OP(precise, cos, f32, cosf(x))
SFU_OP(precise, exp2, f32, exp2f(x))
SFU_OP(precise, log2, f32, log2f(x))
SFU_OP(precise, tan, f32, tanf(x))
SFU_OP(precise, div, f64, x / y)
SFU_OP(precise, rcp, f64, 1.0 / x)
SFU_OP(precise, sqrt, f64, sqrt(x))
SFU_OP(precise, rsqrt, f64, 1.0 / sqrt(x))

SFU_OP(ptx, div, f32, sfu_ptx_div_f32(x, y))
SFU_OP(ptx, rcp, f32, sfu_ptx_rcp_f32(x))
SFU_OP(ptx, sqrt, f32, sfu_ptx_sqrt_f32(x))
SFU_OP(ptx, rsqrt, f32, sfu_ptx_rsqrt_f32(x))
SFU_OP(ptx, pow, f32, sfu_ptx_pow_f32(x, y))
SFU_OP(ptx, exp, f32, sfu_ptx_exp_f32(x))
SFU_OP(ptx, log, f32, sfu_ptx_log_f32(x))
SFU_OP(ptx, sin, f32, sfu_ptx_sin_f32(x))
SFU_OP(ptx, cos, f32, sfu_ptx_cos_f32(x))
SFU_OP(ptx, exp2, f32, sfu_ptx_exp2_f32(x))
SFU_OP(ptx, log2, f32, sfu_ptx_log2_f32(x))
SFU_OP(ptx, tan, f32, sfu_ptx_tan_f32(x))
SFU_OP(ptx, div, f64, sfu_ptx_div_f64(x, y))
SFU_OP(ptx, rcp, f64, sfu_ptx_rcp_f64(x))
SFU_OP(ptx, sqrt, f64, sfu_ptx_sqrt_f64(x))
SFU_OP(ptx, rsqrt, f64, sfu_ptx_rsqrt_f64(x))

/* Every function in float, Li's four in double: X(enum, name, type). */
#define SFU_CUDA_FUNCS(X)                                                                                          \
    X(SFU_DIV, div, f32)                                                                                           \
    X(SFU_RCP, rcp, f32)                                                                                           \
    X(SFU_SQRT, sqrt, f32)                                                                                         \
    X(SFU_RSQRT, rsqrt, f32)                                                                                       \
    X(SFU_POW, pow, f32)                                                                                           \
    X(SFU_EXP, exp, f32)                                                                                           \
    X(SFU_LOG, log, f32)                                                                                           \
    X(SFU_SIN, sin, f32)                                                                                           \
    X(SFU_COS, cos, f32)                                                                                           \
    X(SFU_EXP2, exp2, f32)                                                                                         \
    X(SFU_LOG2, log2, f32)                                                                                         \
    X(SFU_TAN, tan, f32)                                                                                           \
    X(SFU_DIV, div, f64)                                                                                           \
    X(SFU_RCP, rcp, f64)                                                                                           \
    X(SFU_SQRT, sqrt, f64)                                                                                         \
    X(SFU_RSQRT, rsqrt, f64)

#define SFU_ALL_KERNELS(e, func, T)                                                                                \
    SFU_KERNELS(precise, func, T)                                                                                  \
    SFU_KERNELS(ptx, func, T)                                                                                      \
    SFU_PARTITION_KERNELS(func, T)
SFU_CUDA_FUNCS(SFU_ALL_KERNELS)

#define SFU_ALL_SETS(e, func, T)                                                                                   \
    static const sfu_cuda_kernel_set precise_##func##_##T##_set = SFU_SET(precise, func, T);                      \
    static const sfu_cuda_kernel_set ptx_##func##_##T##_set = SFU_SET(ptx, func, T);                              \
    static const sfu_cuda_kernel_set partition_##func##_##T##_set = SFU_SET(partition, func, T);
SFU_CUDA_FUNCS(SFU_ALL_SETS)

/* ver: precise, ptx or partition. */
#define SFU_SET_CASE(e, func, T, ver)                                                                              \
    if (f == e && t == (sizeof(T) == 4 ? CR_FLOAT : CR_DOUBLE))                                                    \
        return &ver##_##func##_##T##_set;
#define SFU_PRECISE_CASE(e, func, T) SFU_SET_CASE(e, func, T, precise)
#define SFU_PTX_CASE(e, func, T) SFU_SET_CASE(e, func, T, ptx)
#define SFU_PARTITION_CASE(e, func, T) SFU_SET_CASE(e, func, T, partition)

extern "C" const sfu_cuda_kernel_set *sfu_cuda_plain_kernels(sfu_func f, cr_dtype t, sfu_version v)
{
    if (v == SFU_PRECISE) {
        SFU_CUDA_FUNCS(SFU_PRECISE_CASE)
    } else if (v == SFU_PTX_APPROX) {
        SFU_CUDA_FUNCS(SFU_PTX_CASE)
    }
    return NULL;
}

extern "C" const sfu_cuda_kernel_set *sfu_cuda_partition_kernels(sfu_func f, cr_dtype t)
{
    SFU_CUDA_FUNCS(SFU_PARTITION_CASE)
    return NULL;
}
