#include "latency/levels.h"

#include <stdio.h>
#include <string.h>

long lt_level_pick(const uint64_t *footprints, size_t n, uint64_t level_bytes, uint64_t smaller_bytes)
{
    long best = -1;
    for (size_t i = 0; i < n; ++i)
        if (footprints[i] > smaller_bytes && footprints[i] <= level_bytes / 2)
            best = (long)i;
    return best;
}

long lt_memory_pick(const uint64_t *footprints, size_t n, uint64_t llc_bytes)
{
    if (n == 0 || llc_bytes == 0)
        return -1;
    uint64_t largest = footprints[n - 1];
    return largest / LT_MEMORY_FACTOR >= llc_bytes ? (long)(n - 1) : -1;
}

bool lt_level_is_memory(double level_ns, double memory_ns)
{
    return level_ns > 0 && memory_ns > 0 && level_ns * LT_NOT_A_LEVEL_RATIO >= memory_ns;
}

static bool steps_up(const double *ns, long k) { return ns[k] > 0 && ns[k + 1] >= LT_LEVEL_JUMP * ns[k]; }

long lt_level_end(const uint64_t *footprints, const double *ns, long pick, uint64_t smaller_bytes,
                  uint64_t smaller_below)
{
    bool smaller_ended = false; /* the smaller level had its own step below its size */
    for (long k = 0; k < pick; ++k) {
        if (footprints[k] > smaller_below && footprints[k] < smaller_bytes && steps_up(ns, k))
            smaller_ended = true;
        bool can_end = footprints[k] > smaller_bytes || (footprints[k] == smaller_bytes && smaller_ended);
        if (can_end && steps_up(ns, k))
            return k;
    }
    return -1;
}

bool lt_level_past_end(const uint64_t *footprints, const double *ns, long pick, uint64_t smaller_bytes,
                       uint64_t smaller_below)
{
    long end = pick < 0 ? -1 : lt_level_end(footprints, ns, pick, smaller_bytes, smaller_below);
    return end >= 0 && ns[pick] >= LT_LEVEL_JUMP * ns[end];
}

long lt_level_pick_served(const uint64_t *footprints, const double *ns, long pick, uint64_t smaller_bytes,
                          uint64_t smaller_below, double memory_ns)
{
    if (lt_level_past_end(footprints, ns, pick, smaller_bytes, smaller_below)) {
        long end = lt_level_end(footprints, ns, pick, smaller_bytes, smaller_below);
        if (footprints[end] > 2 * smaller_bytes)
            return end;
    }
    if (pick < 0 || !lt_level_is_memory(ns[pick], memory_ns))
        return pick;
    for (long k = pick - 1; k >= 0 && footprints[k] > 2 * smaller_bytes; --k)
        if (ns[k] > 0 && !lt_level_is_memory(ns[k], memory_ns))
            return k;
    return pick;
}

void lt_caches_from_topology(cr_topology *t, lt_caches *out)
{
    lt_caches found = {0};
    for (unsigned level = 1; level <= LT_MAX_LEVELS; ++level) {
        unsigned line = 0;
        uint64_t bytes = cr_topo_cache_bytes(t, level, &line);
        if (bytes == 0)
            continue;
        lt_cache_level *l = &found.level[found.count++];
        snprintf(l->name, sizeof l->name, "L%u", level);
        l->bytes = bytes;
        if (level == 1)
            snprintf(l->source, sizeof l->source, "hwloc (one L1d of the host)");
        else
            snprintf(l->source, sizeof l->source, "hwloc (one L%u of the host)", level);
        if (level == 1 && line) {
            found.line_bytes = line;
            snprintf(found.line_source, sizeof found.line_source, "hwloc L1d line");
        }
    }
    if (found.count == 0)
        return;
    if (found.line_bytes == 0) {
        found.line_bytes = out->line_bytes;
        memcpy(found.line_source, out->line_source, sizeof found.line_source);
    }
    *out = found;
}
