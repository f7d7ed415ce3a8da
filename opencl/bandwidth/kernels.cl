/* Bandwidth kernels, after layout.cl and bench/bandwidth/elements.h. Buffers
 * are viewed as uint4 so that every work-item moves 16 bytes per access.
 * The CUDA twin (cuda/bandwidth/path_kernels.cu) differs on purpose in its loops
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

/* Streams local memory (elements.h): one work-group of BW_LOCAL_GROUP
 * work-items per tile of the buffer, as vectors T of v words. The two
 * halves take turns, two rounds an iteration so that each is named as it
 * is: a round loads every row of one at the work-item's column, all loads
 * before the first store (a compiler that cannot tell the halves apart
 * would otherwise wait for each load before the next), stores them into
 * the other, and the barrier after it keeps the round's loads before the
 * next round's stores. One kernel per width, bw_local_v<v>. */
#define BW_LOCAL_ROUND(T, from, to, loads, l)                                                   \
    do {                                                                                        \
        T v_[loads];                                                                            \
        _Pragma("unroll") for (uint k_ = 0; k_ < (loads); ++k_)                                 \
            v_[k_] = (from)[k_ * BW_LOCAL_GROUP + (l)];                                         \
        _Pragma("unroll") for (uint k_ = 0; k_ < (loads); ++k_)                                 \
            (to)[BW_LOCAL_TO(k_, (l), (loads))] = v_[k_];                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    } while (0)

#define BW_LOCAL_KERNEL(T, v)                                                                   \
    kernel __attribute__((reqd_work_group_size(BW_LOCAL_GROUP, 1, 1))) void bw_local_v##v(      \
        global const T *restrict in, global T *restrict out)                                    \
    {                                                                                           \
        local T a[BW_LOCAL_LOADS(v) * BW_LOCAL_GROUP], b[BW_LOCAL_LOADS(v) * BW_LOCAL_GROUP];   \
        const uint l = (uint)get_local_id(0);                                                   \
        const size_t tile = get_group_id(0) * (size_t)(BW_LOCAL_LOADS(v) * BW_LOCAL_GROUP);     \
        for (uint k = 0; k < BW_LOCAL_LOADS(v); ++k)                                            \
            a[k * BW_LOCAL_GROUP + l] = in[tile + k * BW_LOCAL_GROUP + l];                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                           \
        BW_LOCAL_ROUND(T, a, b, BW_LOCAL_LOADS(v), l);                                             \
        for (uint r = 1; r < BW_LOCAL_ROUNDS; r += 2) {                                         \
            BW_LOCAL_ROUND(T, b, a, BW_LOCAL_LOADS(v), l);                                         \
            BW_LOCAL_ROUND(T, a, b, BW_LOCAL_LOADS(v), l);                                         \
        }                                                                                       \
        for (uint k = 0; k < BW_LOCAL_LOADS(v); ++k)                                            \
            out[tile + k * BW_LOCAL_GROUP + l] = b[k * BW_LOCAL_GROUP + l];                     \
    }

BW_LOCAL_KERNEL(uint, 1)
BW_LOCAL_KERNEL(uint2, 2)
BW_LOCAL_KERNEL(uint4, 4)
BW_LOCAL_KERNEL(uint8, 8)
BW_LOCAL_KERNEL(uint16, 16)
