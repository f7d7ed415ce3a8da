/* Li's SFU versions (thesis, Tables 6.1 and 6.2) as inline PTX: one
 * .approx.ftz instruction per function where PTX has one, otherwise the
 * shortest composition of them. .ftz is written on every instruction, so
 * these versions flush subnormal inputs and results whatever -ftz the file
 * is compiled with; that per-call control is why Li used PTX rather than
 * -use_fast_math. The asm statements are not volatile: they are pure, and
 * the benchmark's data dependences already keep them from being folded. */
#ifndef CR_SFU_OPS_PTX_CUH
#define CR_SFU_OPS_PTX_CUH

__device__ __forceinline__ float sfu_ptx_div_f32(float x, float y)
{
    float d;
    asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(x), "f"(y));
    return d;
}

__device__ __forceinline__ float sfu_ptx_rcp_f32(float x)
{
    float d;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

__device__ __forceinline__ float sfu_ptx_sqrt_f32(float x)
{
    float d;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

__device__ __forceinline__ float sfu_ptx_rsqrt_f32(float x)
{
    float d;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

__device__ __forceinline__ float sfu_ptx_exp2_f32(float x)
{
    float d;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

__device__ __forceinline__ float sfu_ptx_log2_f32(float x)
{
    float d;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

__device__ __forceinline__ float sfu_ptx_sin_f32(float x)
{
    float d;
    asm("sin.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

__device__ __forceinline__ float sfu_ptx_cos_f32(float x)
{
    float d;
    asm("cos.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(x));
    return d;
}

/* The multiplications are asm too, so that they stay Li's mul.ftz.f32 and
 * the compiler cannot fold them into a neighbouring fma. */
__device__ __forceinline__ float sfu_ptx_mul_f32(float x, float y)
{
    float d;
    asm("mul.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(x), "f"(y));
    return d;
}

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

/* Double precision (Table 6.2): the SFU has only reciprocal and reciprocal
 * square root, on the high word; division and square root are built from
 * them. mul.rn rather than mul keeps the product a separate DMUL, as in Li's
 * operation counts. */
__device__ __forceinline__ double sfu_ptx_rcp_f64(double x)
{
    double d;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"(x));
    return d;
}

__device__ __forceinline__ double sfu_ptx_rsqrt_f64(double x)
{
    double d;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"(x));
    return d;
}

__device__ __forceinline__ double sfu_ptx_div_f64(double x, double y)
{
    double d;
    asm("mul.rn.f64 %0, %1, %2;" : "=d"(d) : "d"(x), "d"(sfu_ptx_rcp_f64(y)));
    return d;
}

__device__ __forceinline__ double sfu_ptx_sqrt_f64(double x)
{
    return sfu_ptx_rcp_f64(sfu_ptx_rsqrt_f64(x));
}

#endif
