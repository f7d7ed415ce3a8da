/* The access patterns of the cache model's validation, written once for the
 * OpenCL C kernel (embedded as source before opencl/cache/patterns.cl), the
 * CUDA kernel (cuda/cache/patterns.cu) and the host's replay that makes the
 * trace (patterns.c): a cursor walks one pattern and says, access after
 * access, which buffer, which 64-bit element and whether it is a store.
 *
 * The cursor advances counters instead of dividing an access number into
 * coordinates, so that no division stands beside every load: the kernel's
 * time per access is then the load's latency plus a few additions, which
 * out-of-order cores overlap with the load before.
 *
 * Every element holds cc_value(buffer, element), and a store writes that
 * same value back, so memory never changes: a run's checksum (the sum of
 * the values it loaded) is known in advance and proves that every load
 * read the element the pattern names. */
#ifndef CR_CACHE_PATTERN_INDEX_H
#define CR_CACHE_PATTERN_INDEX_H

#if defined(__OPENCL_VERSION__)
#define CC_U64 ulong
#define CC_FN static inline
#define CC_GLOBAL __global
#elif defined(__CUDACC__)
#define CC_U64 unsigned long long
#define CC_FN static __host__ __device__ __forceinline__
#define CC_GLOBAL
#else
#include <stdint.h>
#define CC_U64 uint64_t
#define CC_FN static inline
#define CC_GLOBAL
#endif

enum {
    CC_STREAM = 0,    /* b[i] = a[i]: load a[i], store b[i] */
    CC_CHASE = 1,     /* one element per line, lines in a pseudo-random cyclic order */
    CC_STRIDE = 2,    /* every step-th element, wrapping over the buffer */
    CC_STENCIL = 3,   /* 2-D 5-point stencil over the interior of an n x n grid */
    CC_TRANSPOSE = 4, /* naive transpose of an n x n matrix: b[j][i] = a[i][j] */
    CC_MATMUL = 5,    /* c += a * b, n x n, in step x step tiles */
    CC_PATTERNS = 6
};

/* One pattern at one size. words: elements of each buffer. n: the matrix
 * side (stencil, transpose, matmul) or the lines (chase, 2^bits). step:
 * elements per line (chase), the stride in elements (stride), the tile side
 * (matmul). pass: accesses before the pattern repeats. accesses: how many
 * one run makes (the kernel's loop count). */
typedef struct cc_pattern_shape {
    unsigned kind, buffers, bits;
    CC_U64 words, n, step, pass, accesses;
} cc_pattern_shape;

typedef struct {
    CC_U64 offset;        /* element of the buffer */
    unsigned buffer;      /* 0, 1, 2 */
    unsigned write;       /* 1: a store */
    unsigned instruction; /* which load or store of the loop body it is */
} cc_access;

typedef struct {
    CC_U64 i, j, c, t, a, b, q;
    unsigned phase;
} cc_cursor;

/* What every element holds: its buffer above bit 48, its index below. */
CC_FN CC_U64 cc_value(unsigned buffer, CC_U64 offset) { return ((CC_U64)(buffer + 1) << 48) | offset; }

/* A bijection of the bits-bit numbers (odd multipliers and xor-shifts are
 * each invertible modulo 2^bits), so that lines 0, 1, 2, ... visit every
 * line once per pass in an order no stride prefetcher follows. */
CC_FN CC_U64 cc_chase_line(CC_U64 i, unsigned bits)
{
    CC_U64 mask = bits >= 64 ? ~(CC_U64)0 : (((CC_U64)1 << bits) - 1);
    unsigned shift = bits / 2 + 1;
    CC_U64 x = (i * (CC_U64)0x9E3779B97F4A7C15UL) & mask;
    x ^= x >> shift;
    x = (x * (CC_U64)0xBF58476D1CE4E5B9UL) & mask;
    x ^= x >> shift;
    return x;
}

CC_FN void cc_cursor_start(const cc_pattern_shape *s, cc_cursor *c)
{
    c->i = c->j = c->c = c->t = c->a = c->b = c->q = 0;
    c->phase = 0;
    if (s->kind == CC_STENCIL) {
        c->i = c->j = 1;
        c->c = s->n + 1;
    }
}

CC_FN cc_access cc_access_at(CC_U64 offset, unsigned buffer, unsigned write, unsigned instruction)
{
    cc_access a;
    a.offset = offset;
    a.buffer = buffer;
    a.write = write;
    a.instruction = instruction;
    return a;
}

CC_FN cc_access cc_stencil_next(const cc_pattern_shape *s, cc_cursor *c)
{
    CC_U64 n = s->n;
    unsigned p = c->phase;
    if (p < 5) {
        CC_U64 at = p == 0 ? c->c - n : p == 1 ? c->c - 1 : p == 2 ? c->c : p == 3 ? c->c + 1 : c->c + n;
        c->phase = p + 1;
        return cc_access_at(at, 0, 0, p);
    }
    cc_access out = cc_access_at(c->c, 1, 1, 5);
    c->phase = 0;
    ++c->j;
    ++c->c;
    if (c->j == n - 1) {
        c->j = 1;
        c->c += 2;
        if (++c->i == n - 1) {
            c->i = 1;
            c->c = n + 1;
        }
    }
    return out;
}

CC_FN cc_access cc_transpose_next(const cc_pattern_shape *s, cc_cursor *c)
{
    CC_U64 n = s->n;
    if (c->phase == 0) {
        c->phase = 1;
        return cc_access_at(c->c, 0, 0, 0);
    }
    cc_access out = cc_access_at(c->t, 1, 1, 1);
    c->phase = 0;
    ++c->j;
    ++c->c;
    c->t += n;
    if (c->j == n) {
        c->j = 0;
        c->t = ++c->i;
        if (c->i == n)
            c->i = c->c = c->t = 0;
    }
    return out;
}

/* Tiles a (rows), b (columns), c (the inner dimension); inside one, row i
 * and column j; then c[i][j] is loaded, step pairs a[i][k], b[k][j] follow
 * and c[i][j] is stored. */
CC_FN cc_access cc_matmul_next(const cc_pattern_shape *s, cc_cursor *c)
{
    CC_U64 n = s->n, t = s->step, row = c->a + c->i, col = c->b + c->j;
    switch (c->phase) {
    case 0:
        c->phase = 1;
        c->q = 0;
        return cc_access_at(row * n + col, 2, 0, 0);
    case 1:
        c->phase = 2;
        return cc_access_at(row * n + c->c + c->q, 0, 0, 1);
    case 2: {
        cc_access out = cc_access_at((c->c + c->q) * n + col, 1, 0, 2);
        c->phase = ++c->q == t ? 3 : 1;
        return out;
    }
    default:
        break;
    }
    cc_access out = cc_access_at(row * n + col, 2, 1, 3);
    c->phase = 0;
    if (++c->j == t) {
        c->j = 0;
        if (++c->i == t) {
            c->i = 0;
            c->c += t;
            if (c->c == n) {
                c->c = 0;
                c->b += t;
                if (c->b == n) {
                    c->b = 0;
                    c->a += t;
                    if (c->a == n)
                        c->a = 0;
                }
            }
        }
    }
    return out;
}

/* The access the cursor stands on; then moves it to the next one. */
CC_FN cc_access cc_cursor_next(const cc_pattern_shape *s, cc_cursor *c)
{
    cc_access out;
    switch (s->kind) {
    case CC_STREAM:
        if (c->phase == 0) {
            c->phase = 1;
            return cc_access_at(c->i, 0, 0, 0);
        }
        out = cc_access_at(c->i, 1, 1, 1);
        c->phase = 0;
        if (++c->i == s->words)
            c->i = 0;
        return out;
    case CC_CHASE:
        out = cc_access_at(cc_chase_line(c->i, s->bits) * s->step, 0, 0, 0);
        if (++c->i == s->n)
            c->i = 0;
        return out;
    case CC_STRIDE:
        out = cc_access_at(c->i, 0, 0, 0);
        c->i += s->step;
        if (c->i >= s->words)
            c->i -= s->words;
        return out;
    case CC_STENCIL:
        return cc_stencil_next(s, c);
    case CC_TRANSPOSE:
        return cc_transpose_next(s, c);
    default:
        return cc_matmul_next(s, c);
    }
}

/* The kernel's loop, also run by the host's tests: `accesses` accesses of
 * the pattern over buffers b0, b1, b2 (CC_GLOBAL CC_U64 pointers), each
 * address made dependent on the value loaded before (mask is 0 at run time,
 * which the compiler cannot know), the loaded values summed into sum. */
#define CC_RUN(shape, b0, b1, b2, accesses, mask, sum)                                             \
    do {                                                                                           \
        cc_cursor cc_cur_;                                                                         \
        cc_cursor_start(&(shape), &cc_cur_);                                                       \
        CC_U64 cc_carry_ = 0;                                                                      \
        for (CC_U64 cc_k_ = 0; cc_k_ < (accesses); ++cc_k_) {                                      \
            cc_access cc_a_ = cc_cursor_next(&(shape), &cc_cur_);                                  \
            CC_GLOBAL CC_U64 *cc_p_ = cc_a_.buffer == 0 ? (b0) : cc_a_.buffer == 1 ? (b1) : (b2);   \
            CC_U64 cc_at_ = cc_a_.offset + cc_carry_;                                              \
            if (cc_a_.write) {                                                                     \
                cc_p_[cc_at_] = cc_value(cc_a_.buffer, cc_a_.offset);                              \
            } else {                                                                               \
                CC_U64 cc_v_ = cc_p_[cc_at_];                                                      \
                (sum) += cc_v_;                                                                    \
                cc_carry_ = cc_v_ & (mask);                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#endif
