/* The pattern kernel (bench/cache/pattern_index.h, embedded before this):
 * one work-item makes one run of the pattern, every address dependent on
 * the value loaded before, and stores the sum of what it loaded, which the
 * host checks. Buffers a pattern does not use repeat b0. */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void cc_pattern(__global ulong *b0, __global ulong *b1, __global ulong *b2, uint kind, uint buffers, uint bits,
                ulong words, ulong n, ulong step, ulong pass, ulong accesses, ulong mask, __global ulong *out)
{
    cc_pattern_shape s;
    s.kind = kind;
    s.buffers = buffers;
    s.bits = bits;
    s.words = words;
    s.n = n;
    s.step = step;
    s.pass = pass;
    s.accesses = accesses;
    ulong sum = 0;
    CC_RUN(s, b0, b1, b2, accesses, mask, sum);
    out[0] = sum;
}
