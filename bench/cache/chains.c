#include "cache/chains.h"

#include "latency/perm.h"

#include <stdlib.h>
#include <string.h>

static int order_alloc(cc_order *o, uint64_t count)
{
    memset(o, 0, sizeof *o);
    if (count == 0 || count > SIZE_MAX / sizeof(uint64_t))
        return -1;
    o->order = malloc((size_t)count * sizeof *o->order);
    if (!o->order)
        return -1;
    o->count = count;
    return 0;
}

int cc_order_random(cc_order *o, uint64_t n, uint64_t stride_words, uint64_t seed)
{
    if (stride_words == 0 || (n && n - 1 > UINT64_MAX / stride_words) || order_alloc(o, n) != 0)
        return -1;
    lt_order_from_zero(o->order, n, seed);
    for (uint64_t k = 0; k < n; ++k)
        o->order[k] *= stride_words;
    return 0;
}

int cc_order_pairs(cc_order *o, uint64_t blocks, uint64_t block_words, uint64_t offset_words, uint64_t seed)
{
    if (offset_words == 0 || offset_words >= block_words || blocks > UINT64_MAX / 2 ||
        (blocks && blocks - 1 > UINT64_MAX / block_words) || order_alloc(o, 2 * blocks) != 0)
        return -1;
    uint64_t *b = malloc((size_t)blocks * sizeof *b);
    if (!b) {
        cc_order_free(o);
        return -1;
    }
    lt_order_from_zero(b, blocks, seed);
    for (uint64_t k = 0; k < blocks; ++k) {
        o->order[2 * k] = b[k] * block_words;
        o->order[2 * k + 1] = b[k] * block_words + offset_words;
    }
    free(b);
    return 0;
}

void cc_order_free(cc_order *o)
{
    free(o->order);
    memset(o, 0, sizeof *o);
}

uint64_t cc_order_words(const cc_order *o)
{
    uint64_t top = 0;
    for (uint64_t k = 0; k < o->count; ++k)
        top = o->order[k] > top ? o->order[k] : top;
    return top + 1;
}

void cc_chain_link(const cc_order *o, uint64_t *words)
{
    for (uint64_t k = 0; k + 1 < o->count; ++k)
        words[o->order[k]] = o->order[k + 1];
    words[o->order[o->count - 1]] = o->order[0];
}

bool cc_chain_is_cycle(const cc_order *o, const uint64_t *words, uint64_t nwords)
{
    uint64_t w = o->order[0];
    for (uint64_t k = 0; k < o->count; ++k) {
        if (w >= nwords || w != o->order[k])
            return false;
        w = words[w];
    }
    if (w != o->order[0])
        return false;
    /* Visiting them in order, once each: no word twice. */
    uint64_t *seen = calloc((size_t)((nwords + 63) / 64), sizeof *seen);
    if (!seen)
        return false;
    bool once = true;
    for (uint64_t k = 0; k < o->count && once; ++k) {
        uint64_t v = o->order[k];
        once = !(seen[v / 64] >> (v % 64) & 1);
        seen[v / 64] |= UINT64_C(1) << (v % 64);
    }
    free(seen);
    return once;
}
