/* The host's truth of the local-memory path: what its kernel leaves in the
 * destination, replayed round by round with the kernels' own index
 * function (elements.h). */
#ifndef CR_BANDWIDTH_LOCAL_ROTATION_H
#define CR_BANDWIDTH_LOCAL_ROTATION_H

#include <stdint.h>

/* Work-groups (tiles) a buffer of words needs: the last one may be partial. */
uint64_t bw_local_tiles(uint64_t words);

/* The bytes of local memory one run over words moves: every round's load
 * and store of every word of every tile, partial tile included. */
uint64_t bw_local_traffic_bytes(uint64_t words);

/* The index within a tile whose word ends at index l after all rounds. */
uint32_t bw_local_source(uint32_t l);

/* The first word of out (words long) that differs from the rotation of in,
 * a word past the end of in counting as zero; UINT64_MAX if none. */
uint64_t bw_local_first_mismatch(const uint32_t *out, const uint32_t *in, uint64_t words);

#endif
