/* Stream kernels, after layout.cl and bench/stream/elements.h. Built with -DIS_DOUBLE=0|1 and
 * -DDOT_BLOCK=N. Each works on the window of n elements from element `first` (the arrays are
 * offset to it, so the work-items share the window as they would a whole array). */
#if IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double T;
#else
typedef float T;
#endif

kernel void stream_copy(global const T *restrict a, global T *restrict c, ulong first, ulong n)
{
    a += first, c += first;
    FOR_EACH(i, n) STREAM_COPY_AT(a, b, c, s, i);
}

kernel void stream_mul(global T *restrict b, global const T *restrict c, T s, ulong first, ulong n)
{
    b += first, c += first;
    FOR_EACH(i, n) STREAM_MUL_AT(a, b, c, s, i);
}

kernel void stream_add(global const T *restrict a, global const T *restrict b, global T *restrict c, ulong first,
                       ulong n)
{
    a += first, b += first, c += first;
    FOR_EACH(i, n) STREAM_ADD_AT(a, b, c, s, i);
}

kernel void stream_triad(global T *restrict a, global const T *restrict b, global const T *restrict c, T s,
                         ulong first, ulong n)
{
    a += first, b += first, c += first;
    FOR_EACH(i, n) STREAM_TRIAD_AT(a, b, c, s, i);
}

/* Sum of a[i]*b[i] over the elements first + j*step, j < count, in blocks of
 * DOT_BLOCK products with four independent accumulators (latency hiding on
 * CPUs, more loads in flight on GPUs). */
static T dot_range(global const T *restrict a, global const T *restrict b, ulong first, ulong step, ulong count)
{
    T total = 0;
    for (ulong j0 = 0; j0 < count; j0 += DOT_BLOCK) {
        const ulong stop = min(j0 + DOT_BLOCK, count);
        T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        ulong j = j0;
        for (; j + 4 <= stop; j += 4) {
            const ulong i = first + j * step;
            s0 += STREAM_DOT_AT(a, b, i);
            s1 += STREAM_DOT_AT(a, b, i + step);
            s2 += STREAM_DOT_AT(a, b, i + 2 * step);
            s3 += STREAM_DOT_AT(a, b, i + 3 * step);
        }
        for (; j < stop; ++j)
            s0 += STREAM_DOT_AT(a, b, first + j * step);
        total += (s0 + s1) + (s2 + s3);
    }
    return total;
}

kernel void stream_dot(global const T *restrict a, global const T *restrict b, global T *restrict partial,
                       local T *scratch, ulong first, ulong n)
{
    a += first, b += first;
    const ulong g = get_global_id(0), size = get_global_size(0);
#if CONTIGUOUS
    const ulong per = (n + size - 1) / size;
    const ulong beg = min(g * per, n);
    const T mine = dot_range(a, b, beg, 1, min(beg + per, n) - beg);
#else
    const T mine = g < n ? dot_range(a, b, g, size, (n - g + size - 1) / size) : 0;
#endif
    GROUP_SUM_TO(scratch, mine, partial[get_group_id(0)]);
}
