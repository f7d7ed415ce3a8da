/* The host's truth of the local-memory stream (elements.h): where every
 * element of a tile ends after all rounds, replayed round by round with
 * the kernels' own move, and the check of a destination against it. */
#ifndef CR_BANDWIDTH_LOCAL_REPLAY_H
#define CR_BANDWIDTH_LOCAL_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

/* Whether vectors of v 32-bit words fill a work-item's bytes per barrier
 * in whole loads: a power of two from 1 to BW_LOCAL_ITEM_BYTES / 4. */
bool bw_local_width_fits(unsigned v);

/* Loads (and stores) a work-item makes per barrier with vectors of v words. */
unsigned bw_local_loads(unsigned v);

/* The local-memory bytes one run over a buffer of bytes (whole tiles)
 * moves: every round's loads and stores of every element of every tile,
 * 2 x 255 x bytes. The tile's first store into local memory and its last
 * load out of it (the global load and store around the rounds) are not
 * counted: the figure is the rounds' traffic alone. */
uint64_t bw_local_traffic_bytes(uint64_t bytes);

/* The element index within a tile where the element at index e ends after
 * all rounds, for vectors of v words. */
uint32_t bw_local_final_place(uint32_t e, unsigned v);

/* The first 32-bit word of out that differs from the replay of in (both
 * words long, whole tiles of vectors of v words); UINT64_MAX if none. */
uint64_t bw_local_first_mismatch(const uint32_t *out, const uint32_t *in, uint64_t words, unsigned v);

#endif
