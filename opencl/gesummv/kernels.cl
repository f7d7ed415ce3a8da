/* gesummv (bench/gesummv/row.h, prepended) in type T (-DT=): exactly
 * get_global_size(0) work-items, work-item g the rows g, g + k, g + 2k, ... */
#if IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void gesummv(__global const T *A, __global const T *B, __global const T *x, __global T *y, T alpha, T beta,
                      ulong n)
{
    ulong k = get_global_size(0);
    for (ulong i = get_global_id(0); i < n; i += k)
        GESUMMV_ROW(T, ulong, A, B, x, y, n, i, alpha, beta);
}
