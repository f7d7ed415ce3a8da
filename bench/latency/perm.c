#include "latency/perm.h"

#include "random.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 lt_u128;

uint64_t lt_uniform_below(uint64_t bound, uint64_t *state)
{
    lt_u128 m = (lt_u128)cr_splitmix64(state) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        /* Draws whose low half falls below 2^64 mod bound would make some
         * results one count likelier than others: draw again. */
        uint64_t reject = (0 - bound) % bound;
        while (low < reject) {
            m = (lt_u128)cr_splitmix64(state) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

void lt_order_from_zero(uint64_t *v, uint64_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (uint64_t k = 0; k < n; ++k)
        v[k] = k;
    /* Shuffle positions 1..n-1; a walk always starts on element 0. */
    for (uint64_t k = n - 1; n > 2 && k >= 2; --k) {
        uint64_t j = 1 + lt_uniform_below(k, &state);
        uint64_t t = v[k];
        v[k] = v[j];
        v[j] = t;
    }
}

void lt_chain_free(lt_chain *c)
{
    free(c->order);
    free(c->next);
    memset(c, 0, sizeof *c);
}

int lt_chain_build(lt_chain *c, uint64_t lines, uint64_t line_words, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    if (lines == 0 || line_words == 0 || lines > SIZE_MAX / sizeof(uint64_t) / line_words)
        return -1;
    c->order = malloc((size_t)lines * sizeof *c->order);
    /* calloc: the words between elements are uploaded too, and never read. */
    c->next = calloc((size_t)(lines * line_words), sizeof *c->next);
    if (c->order == NULL || c->next == NULL) {
        lt_chain_free(c);
        return -1;
    }
    c->lines = lines;
    c->line_words = line_words;
    lt_order_from_zero(c->order, lines, seed);
    for (uint64_t k = 0; k + 1 < lines; ++k)
        c->next[c->order[k] * line_words] = c->order[k + 1] * line_words;
    c->next[c->order[lines - 1] * line_words] = c->order[0] * line_words;
    return 0;
}
