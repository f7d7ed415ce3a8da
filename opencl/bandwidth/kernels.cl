/* Bandwidth kernels, after layout.cl and bench/bandwidth/elements.h. Buffers
 * are viewed as uint4 so that every work-item moves 16 bytes per access.
 * The CUDA twin (cuda/bandwidth/backend.cu) differs on purpose in its loops
 * only: grid-stride over uint4 and float4 with the tail words to the first
 * threads, where these follow layout.cl (contiguous slices on a CPU) and run
 * the workloads per float. */
#define BW_U32 uint
#define BW_U64 ulong

/* Sums every 32-bit word (mod 2^64): the loads cannot be optimised away and
 * the host can check the sum. One partial sum per work-group. */
kernel void bw_read(global const uint4 *restrict in, global ulong *restrict partial, local ulong *scratch, ulong n4)
{
    ulong sum = 0;
    FOR_EACH(i, n4)
    {
        const uint4 v = in[i];
        sum += BW_WORD_SUM4(v);
    }
    GROUP_SUM_TO(scratch, sum, partial[get_group_id(0)]);
}

kernel void bw_write(global uint4 *restrict out, ulong n4, uint seed)
{
    FOR_EACH(i, n4)
    {
        const ulong w = 4 * i;
        out[i] = (uint4)(BW_PATTERN_WORD(w, seed), BW_PATTERN_WORD(w + 1, seed), BW_PATTERN_WORD(w + 2, seed),
                         BW_PATTERN_WORD(w + 3, seed));
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

/* Streams local memory (elements.h): one work-group of BW_LOCAL_TILE
 * work-items per tile of the source, one word each; words past n load as
 * zero and are not stored. Two tiles take turns: a round reads one and
 * writes the other, so one barrier per round keeps every read of a round
 * before the next round's writes. */
kernel void bw_local(global const uint *restrict in, global uint *restrict out, local uint *tiles, ulong n)
{
    const uint l = (uint)get_local_id(0);
    const ulong i = get_group_id(0) * (ulong)BW_LOCAL_TILE + l;
    local uint *from = tiles, *to = tiles + BW_LOCAL_TILE;
    from[l] = i < n ? in[i] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < BW_LOCAL_ROUNDS; ++r) {
        to[l] = from[BW_LOCAL_SOURCE(l)];
        barrier(CLK_LOCAL_MEM_FENCE);
        local uint *swap = from;
        from = to;
        to = swap;
    }
    if (i < n)
        out[i] = from[l];
}
