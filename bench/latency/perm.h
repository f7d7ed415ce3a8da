/* The pointer-chase chain: one random cycle through every element of a
 * buffer, one element per cache line, so that every step loads a line of
 * its own in an order no prefetcher can guess.
 *
 * The chain is built from its visiting order: order[0] = 0, order[1..n-1]
 * a Fisher–Yates shuffle of the other lines (seeded splitmix64), and each
 * visited line points at the next, the last back at the first. That gives
 * every cyclic permutation of the n lines with the same probability, the
 * distribution Sattolo's algorithm draws from; unlike Sattolo's in-place
 * form it keeps the order, so the word a walk of any length ends on is one
 * look-up (verification costs nothing, however long the walk). */
#ifndef CR_LATENCY_PERM_H
#define CR_LATENCY_PERM_H

#include "cr.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t lines;      /* elements, one per line, >= 1 */
    uint64_t line_words; /* 64-bit words per line: the element stride */
    uint64_t *order;     /* order[k]: the line visited k-th (lines entries) */
    uint64_t *next;      /* lines * line_words words; word order[k] * line_words holds
                          * order[k + 1] * line_words (the last: 0); every other word 0 */
} lt_chain;

/* Builds the chain. Returns 0, or -1 (nothing allocated) when lines or
 * line_words is zero, the buffer's size overflows, or memory runs out. */
int lt_chain_build(lt_chain *c, uint64_t lines, uint64_t line_words, uint64_t seed);
void lt_chain_free(lt_chain *c);

/* The word the walk stands on at cycle position pos (< lines). */
static inline uint64_t lt_chain_word(const lt_chain *c, uint64_t pos) { return c->order[pos] * c->line_words; }

/* The cycle position steps loads after position pos (< lines). */
static inline uint64_t lt_chain_advance(const lt_chain *c, uint64_t pos, uint64_t steps)
{
    return (pos + steps % c->lines) % c->lines;
}

/* The visiting order the chain is built from, into v (n >= 1 entries):
 * v[0] = 0, v[1..n-1] the other elements shuffled by seed. */
void lt_order_from_zero(uint64_t *v, uint64_t n, uint64_t seed);

/* A uniform draw from [0, bound) (bound >= 1), unbiased (Lemire's
 * multiply-and-reject). */
uint64_t lt_uniform_below(uint64_t bound, uint64_t *state);

#endif
