/* Bandwidth kernels, after layout.cl. Buffers are viewed as uint4 so that
 * every work-item moves 16 bytes per access. */

/* Sums every 32-bit word (mod 2^64): the loads cannot be optimised away and
 * the host can check the sum. One partial sum per work-group. */
kernel void bw_read(global const uint4 *restrict in, global ulong *restrict partial, local ulong *scratch, ulong n4)
{
    ulong sum = 0;
    FOR_EACH(i, n4)
    {
        const uint4 v = in[i];
        sum += (ulong)v.x + v.y + v.z + v.w;
    }
    GROUP_SUM_TO(scratch, sum, partial[get_group_id(0)]);
}

/* bw_pattern_word() of bench/bandwidth.h. */
static uint pattern(ulong i, uint seed)
{
    const uint x = (uint)i * 0x9E3779B1u;
    return (x ^ (x >> 15)) ^ seed;
}

kernel void bw_write(global uint4 *restrict out, ulong n4, uint seed)
{
    FOR_EACH(i, n4)
    {
        const ulong w = 4 * i;
        out[i] = (uint4)(pattern(w, seed), pattern(w + 1, seed), pattern(w + 2, seed), pattern(w + 3, seed));
    }
}

kernel void bw_copy(global const uint4 *restrict in, global uint4 *restrict out, ulong n4)
{
    FOR_EACH(i, n4) out[i] = in[i];
}

/* The workloads of the memory-movement techniques. */
kernel void bw_vector_add(global const float *restrict a, global const float *restrict b, global float *restrict c,
                          ulong n)
{
    FOR_EACH(i, n) c[i] = a[i] + b[i];
}

/* One double partial sum per work-group. */
kernel void bw_reduce(global const float *restrict in, global double *restrict partial, local double *scratch, ulong n)
{
    double sum = 0;
    FOR_EACH(i, n) sum += in[i];
    GROUP_SUM_TO(scratch, sum, partial[get_group_id(0)]);
}
