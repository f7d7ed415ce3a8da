/* The host's replay of the local-memory rotation. */
#include "bandwidth/local_rotation.h"

#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"

uint64_t bw_local_tiles(uint64_t words) { return (words + BW_LOCAL_TILE - 1) / BW_LOCAL_TILE; }

uint64_t bw_local_traffic_bytes(uint64_t words)
{
    return bw_local_tiles(words) * BW_LOCAL_TILE * sizeof(uint32_t) * 2 * BW_LOCAL_ROUNDS;
}

/* Replayed round by round rather than in closed form, so that the truth
 * follows whatever the kernels' index function says. */
uint32_t bw_local_source(uint32_t l)
{
    for (unsigned r = 0; r < BW_LOCAL_ROUNDS; ++r)
        l = BW_LOCAL_SOURCE(l);
    return l;
}

uint64_t bw_local_first_mismatch(const uint32_t *out, const uint32_t *in, uint64_t words)
{
    uint32_t source[BW_LOCAL_TILE];
    for (uint32_t l = 0; l < BW_LOCAL_TILE; ++l)
        source[l] = bw_local_source(l);
    for (uint64_t i = 0; i < words; ++i) {
        uint64_t from = i - i % BW_LOCAL_TILE + source[i % BW_LOCAL_TILE];
        if (out[i] != (from < words ? in[from] : 0))
            return i;
    }
    return UINT64_MAX;
}
