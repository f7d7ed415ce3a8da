/* The orders the cache benchmark's chases visit their words in, and the
 * chains that make the latency walker follow them. A chain is words of a
 * buffer, each holding the index of the word visited after it (the last
 * the first): one cycle, so a walk of any length from any of its words
 * ends on a word the host knows (order[(pos + steps) % count]).
 *
 *  - random: n elements stride_words apart, visited in a random cyclic
 *    order (order[0] is element 0, the others shuffled), which no
 *    prefetcher can guess: the footprint × stride grid, the capacity
 *    sweep, and the set-conflict chases (n addresses one capacity apart,
 *    whose cycle repeats every n loads whatever the order).
 *  - pairs: blocks of block_words in a random order, each visited at its
 *    first word and then at offset_words into it: the second load hits
 *    iff the first one's fill covers it (the line or sector size). */
#ifndef CR_CACHE_CHAINS_H
#define CR_CACHE_CHAINS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t count;  /* words the cycle visits, >= 1 */
    uint64_t *order; /* order[k]: the word visited k-th */
} cc_order;

/* Each returns 0, or -1 (nothing allocated) for an empty or overflowing
 * order or when memory runs out. pairs needs 0 < offset_words < block_words. */
int cc_order_random(cc_order *o, uint64_t n, uint64_t stride_words, uint64_t seed);
int cc_order_pairs(cc_order *o, uint64_t blocks, uint64_t block_words, uint64_t offset_words, uint64_t seed);
void cc_order_free(cc_order *o);

/* Words the buffer of the order's chain needs: its largest word + 1. */
uint64_t cc_order_words(const cc_order *o);

/* Writes the chain into words (cc_order_words of them at least): word
 * order[k] holds order[k + 1], the last the first; other words untouched. */
void cc_chain_link(const cc_order *o, uint64_t *words);

/* The word a walk of steps loads from cycle position pos ends on, and the
 * position it reaches. */
static inline uint64_t cc_order_advance(const cc_order *o, uint64_t pos, uint64_t steps)
{
    return (pos + steps % o->count) % o->count;
}

/* True where words (nwords long) hold one cycle through exactly the
 * order's words, visiting them in its order from order[0]. */
bool cc_chain_is_cycle(const cc_order *o, const uint64_t *words, uint64_t nwords);

#endif
