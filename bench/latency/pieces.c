#include "latency/pieces.h"

#include <inttypes.h>
#include <stdio.h>

uint64_t lt_pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

uint64_t lt_pieces_for(uint64_t bytes, uint64_t piece_bytes)
{
    return bytes / piece_bytes + (bytes % piece_bytes != 0);
}

int lt_layout_make(lt_layout *l, uint64_t words, uint64_t piece_bytes)
{
    if (words == 0)
        return -1;
    if (piece_bytes == 0) {
        /* One piece: every word index is below 2^63, so the shift sends
         * each to piece 0. */
        *l = (lt_layout){.words = words, .shift = 63, .pieces = 1};
        return 0;
    }
    if (piece_bytes < sizeof(uint64_t) || (piece_bytes & (piece_bytes - 1)) != 0)
        return -1;
    uint64_t piece_words = piece_bytes / sizeof(uint64_t);
    uint64_t pieces = lt_pieces_for(words, piece_words);
    if (pieces > LT_MAX_PIECES)
        return -1;
    unsigned shift = 0;
    while ((UINT64_C(1) << shift) < piece_words)
        ++shift;
    *l = (lt_layout){.words = words, .shift = shift, .pieces = (unsigned)pieces};
    return 0;
}

cr_status lt_layout_check(const lt_layout *l, unsigned max_pieces, const char *who, char *err, size_t errlen)
{
    if (l->pieces >= 1 && l->pieces <= max_pieces)
        return CR_OK;
    snprintf(err, errlen, "a chain in %u pieces: %s walks %u at most", l->pieces, who, max_pieces);
    return CR_ERR;
}

cr_status lt_chain_check_start(uint64_t start, uint64_t words, char *err, size_t errlen)
{
    if (start < words)
        return CR_OK;
    snprintf(err, errlen, "start word %" PRIu64 " outside the %" PRIu64 "-word chain", start, words);
    return CR_ERR;
}
