/* The host's replay of the local-memory stream. */
#include "bandwidth/local_replay.h"

#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"

#define TILE_WORDS (BW_LOCAL_TILE_BYTES / 4u)

bool bw_local_width_fits(unsigned v)
{
    return v >= 1 && v <= BW_LOCAL_ITEM_BYTES / 4u && (v & (v - 1)) == 0;
}

unsigned bw_local_loads(unsigned v) { return BW_LOCAL_LOADS(v); }

uint64_t bw_local_traffic_bytes(uint64_t bytes) { return bytes * 2 * BW_LOCAL_ROUNDS; }

/* Replayed round by round rather than in closed form, so that the truth
 * follows whatever the kernels' move says. */
uint32_t bw_local_final_place(uint32_t e, unsigned v)
{
    const unsigned loads = BW_LOCAL_LOADS(v);
    for (unsigned r = 0; r < BW_LOCAL_ROUNDS; ++r)
        e = BW_LOCAL_TO(e / BW_LOCAL_GROUP, e % BW_LOCAL_GROUP, loads);
    return e;
}

uint64_t bw_local_first_mismatch(const uint32_t *out, const uint32_t *in, uint64_t words, unsigned v)
{
    uint32_t source[TILE_WORDS]; /* per element of a tile: the element whose value ends there */
    const uint32_t elements = TILE_WORDS / v;
    for (uint32_t e = 0; e < elements; ++e)
        source[bw_local_final_place(e, v)] = e;
    for (uint64_t i = 0; i < words; ++i) {
        const uint64_t tile = i - i % TILE_WORDS;
        const uint32_t w = (uint32_t)(i % TILE_WORDS);
        if (out[i] != in[tile + (uint64_t)source[w / v] * v + w % v])
            return i;
    }
    return UINT64_MAX;
}
