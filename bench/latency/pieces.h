/* A chain split into pieces: separate allocations, for a device whose
 * largest allocation cannot hold the footprint. Word w of the chain lives
 * in piece w >> shift, at offset w & (2^shift - 1) of it, so the words
 * stored in the chain stay its own word indices: the cycle, the check of
 * where a walk ends and the host's walk over one buffer are unchanged, and
 * a walker over pieces finds each load's buffer with a shift and a mask,
 * never a division (chase.h, LT_CHASE_PIECES). */
#ifndef CR_LATENCY_PIECES_H
#define CR_LATENCY_PIECES_H

#include "cr.h"
#include "latency/chase.h"

#include <stdint.h>

typedef struct {
    uint64_t words;  /* the whole chain */
    unsigned shift;  /* a piece holds 2^shift words, the last one possibly fewer */
    unsigned pieces; /* 1 .. LT_MAX_PIECES */
} lt_layout;

/* The layout of a chain of words (>= 1) in pieces of piece_bytes, a power
 * of two of at least one word; piece_bytes 0: one piece, whatever its
 * size. Returns 0, or -1 (l untouched) for a piece size that is not such a
 * power of two or a chain that needs more than LT_MAX_PIECES pieces. */
int lt_layout_make(lt_layout *l, uint64_t words, uint64_t piece_bytes);

/* Pieces of piece_bytes (a power of two) that bytes needs, rounded up. */
uint64_t lt_pieces_for(uint64_t bytes, uint64_t piece_bytes);

/* The first word of piece p (< l->pieces), and how many words it holds. */
static inline uint64_t lt_piece_first(const lt_layout *l, unsigned p) { return (uint64_t)p << l->shift; }
static inline uint64_t lt_piece_words(const lt_layout *l, unsigned p)
{
    uint64_t first = lt_piece_first(l, p), full = UINT64_C(1) << l->shift;
    return l->words - first < full ? l->words - first : full;
}

/* The check every backend's prepare makes: CR_ERR, with why in err (named
 * after who), for a layout of more pieces than it can walk. */
cr_status lt_layout_check(const lt_layout *l, unsigned max_pieces, const char *who, char *err, size_t errlen);

/* The check every walker makes before a walk: start must be a word of the
 * uploaded chain of `words` words (0 while none is). CR_ERR, with why in
 * err, where it is not: a wild start would be a wild read. */
cr_status lt_chain_check_start(uint64_t start, uint64_t words, char *err, size_t errlen);

/* The largest power of two at most v (>= 1). */
uint64_t lt_pow2_floor(uint64_t v);

#endif
