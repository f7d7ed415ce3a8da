#include "replacement.h"

uint64_t cs_xorshift64_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Whether candidate should be evicted rather than the current choice. */
static bool evicts_before(const cs_cache_way *candidate, const cs_cache_way *chosen, cs_replacement_policy policy)
{
    if (policy == CS_POLICY_MFU && candidate->uses != chosen->uses)
        return candidate->uses > chosen->uses;
    if (policy == CS_POLICY_LFU && candidate->uses != chosen->uses)
        return candidate->uses < chosen->uses;
    return candidate->last_use < chosen->last_use;
}

unsigned cs_replacement_victim(const cs_cache_way *set, unsigned ways, cs_replacement_policy policy, uint64_t *rng)
{
    for (unsigned w = 0; w < ways; ++w)
        if (!set[w].valid)
            return w;
    if (policy == CS_POLICY_RANDOM)
        return (unsigned)(cs_xorshift64_next(rng) % ways);
    unsigned victim = 0;
    for (unsigned w = 1; w < ways; ++w)
        if (evicts_before(&set[w], &set[victim], policy))
            victim = w;
    return victim;
}
