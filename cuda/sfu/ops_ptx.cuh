/* Li's SFU versions (thesis, Tables 6.1 and 6.2) as inline PTX: one
 * .approx.ftz instruction per function where PTX has one, otherwise the
 * shortest composition of them. .ftz is written on every instruction, so
 * these versions flush subnormal inputs and results whatever -ftz the file
 * is compiled with; that per-call control is why Li used PTX rather than
 * -use_fast_math. The asm statements are not volatile: they are pure, and
 * the chain's data dependences and its freshened y (sfu/chain.h) keep them
 * from being folded or moved out of the loop. */
#ifndef CR_SFU_OPS_PTX_CUH
#define CR_SFU_OPS_PTX_CUH

/* The single instructions: X(name, type, asm constraint of the type,
 * instruction), each becoming sfu_ptx_<name>.
 *
 * The multiplications are asm too, so that they stay Li's mul.ftz.f32 and
 * the compiler cannot fold them into a neighbouring fma. In double (Table
 * 6.2) the SFU has only reciprocal and reciprocal square root, on the high
 * word; mul.rn rather than mul keeps division's product a separate DMUL, as
 * in Li's operation counts. */
#define SFU_PTX_UNARY(X)                                                                                           \
    X(rcp_f32, float, "f", "rcp.approx.ftz.f32")                                                                   \
    X(sqrt_f32, float, "f", "sqrt.approx.ftz.f32")                                                                 \
    X(rsqrt_f32, float, "f", "rsqrt.approx.ftz.f32")                                                               \
    X(exp2_f32, float, "f", "ex2.approx.ftz.f32")                                                                  \
    X(log2_f32, float, "f", "lg2.approx.ftz.f32")                                                                  \
    X(sin_f32, float, "f", "sin.approx.ftz.f32")                                                                   \
    X(cos_f32, float, "f", "cos.approx.ftz.f32")                                                                   \
    X(rcp_f64, double, "d", "rcp.approx.ftz.f64")                                                                  \
    X(rsqrt_f64, double, "d", "rsqrt.approx.ftz.f64")
#define SFU_PTX_BINARY(X)                                                                                          \
    X(div_f32, float, "f", "div.approx.ftz.f32")                                                                   \
    X(mul_f32, float, "f", "mul.ftz.f32")                                                                          \
    X(mul_f64, double, "d", "mul.rn.f64")

#define SFU_PTX_UNARY_FN(name, T, c, insn)                                                                         \
    __device__ __forceinline__ T sfu_ptx_##name(T x)                                                               \
    {                                                                                                              \
        T d;                                                                                                       \
        asm(insn " %0, %1;" : "=" c(d) : c(x));                                                                    \
        return d;                                                                                                  \
    }
#define SFU_PTX_BINARY_FN(name, T, c, insn)                                                                        \
    __device__ __forceinline__ T sfu_ptx_##name(T x, T y)                                                          \
    {                                                                                                              \
        T d;                                                                                                       \
        asm(insn " %0, %1, %2;" : "=" c(d) : c(x), c(y));                                                          \
        return d;                                                                                                  \
    }
SFU_PTX_UNARY(SFU_PTX_UNARY_FN)
SFU_PTX_BINARY(SFU_PTX_BINARY_FN)

/* 2^(y log2 x): defined for x > 0, as OpenCL's powr. */
__device__ __forceinline__ float sfu_ptx_pow_f32(float x, float y)
{
    return sfu_ptx_exp2_f32(sfu_ptx_mul_f32(sfu_ptx_log2_f32(x), y));
}

/* e^x = 2^(x log2 e); 0x3FB8AA3B is log2 e rounded to float. */
__device__ __forceinline__ float sfu_ptx_exp_f32(float x)
{
    return sfu_ptx_exp2_f32(sfu_ptx_mul_f32(x, __int_as_float(0x3FB8AA3B)));
}

/* ln x = log2 x * ln 2; 0x3F317218 is ln 2 rounded to float. */
__device__ __forceinline__ float sfu_ptx_log_f32(float x)
{
    return sfu_ptx_mul_f32(sfu_ptx_log2_f32(x), __int_as_float(0x3F317218));
}

/* PTX has no tan.approx: sin/cos with the approximate division, which is
 * also what CUDA's __tanf compiles to. */
__device__ __forceinline__ float sfu_ptx_tan_f32(float x)
{
    return sfu_ptx_div_f32(sfu_ptx_sin_f32(x), sfu_ptx_cos_f32(x));
}

/* Double division and square root built from the SFU's two. */
__device__ __forceinline__ double sfu_ptx_div_f64(double x, double y)
{
    return sfu_ptx_mul_f64(x, sfu_ptx_rcp_f64(y));
}

__device__ __forceinline__ double sfu_ptx_sqrt_f64(double x)
{
    return sfu_ptx_rcp_f64(sfu_ptx_rsqrt_f64(x));
}

#endif
