/* The pointer chase (bench/latency/chase.h, included before this): one
 * work-item follows the chain. The result is stored so that the walk cannot
 * be optimised away, and read back to verify where it ended. */
#define LT_U64 ulong

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void chase(__global const ulong *next, ulong start, ulong steps, __global ulong *end)
{
    ulong idx = start;
    LT_CHASE(next, idx, steps);
    end[0] = idx;
}

/* The chase over a chain in pieces. OpenCL 1.2 has no array of buffers,
 * so the pieces are LT_MAX_PIECES arguments (those past the chain's last
 * piece repeat its first) and each load's buffer is chosen by a balanced
 * tree of selects on the piece's five bits: the same short, branch-free
 * cost for every piece, whatever their number. */
#if LT_MAX_PIECES != 32
#error "chase_pieces takes 32 buffer arguments"
#endif
#define LT_PIECES8(x)                                                                              \
    __global const ulong *x##0, __global const ulong *x##1, __global const ulong *x##2,            \
        __global const ulong *x##3, __global const ulong *x##4, __global const ulong *x##5,        \
        __global const ulong *x##6, __global const ulong *x##7
#define LT_SEL2(p, x, y) (((p) & 1) ? (y) : (x))
#define LT_SEL8(p, x)                                                                              \
    (((p) & 4) ? (((p) & 2) ? LT_SEL2(p, x##6, x##7) : LT_SEL2(p, x##4, x##5))                    \
               : (((p) & 2) ? LT_SEL2(p, x##2, x##3) : LT_SEL2(p, x##0, x##1)))
#define LT_PIECE(p)                                                                                \
    (((p) & 16) ? (((p) & 8) ? LT_SEL8(p, d) : LT_SEL8(p, c)) : (((p) & 8) ? LT_SEL8(p, b) : LT_SEL8(p, a)))

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void chase_pieces(LT_PIECES8(a), LT_PIECES8(b), LT_PIECES8(c), LT_PIECES8(d), ulong start, ulong steps, uint shift,
                  __global ulong *end)
{
    ulong idx = start, mask = ((ulong)1 << shift) - 1;
    LT_CHASE_PIECES(LT_PIECE, idx, steps, shift, mask);
    end[0] = idx;
}
