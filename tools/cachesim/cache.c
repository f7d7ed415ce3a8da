#include "cache.h"
#include "replacement.h"
#include "reuse.h"

#include <stdlib.h>

struct cs_cache {
    cs_cache_geometry geometry;
    unsigned sets, lines;
    cs_cache_way *ways; /* sets x geometry.ways */
    cs_reuse_stack *reuse;
    uint64_t rng, clock;
    cs_cache_stats stats;
};

cs_cache *cs_cache_new(const cs_cache_geometry *g, uint64_t seed)
{
    cs_cache *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->geometry = *g;
    c->sets = cs_geometry_sets(g);
    c->lines = cs_geometry_lines(g);
    c->rng = seed;
    c->ways = calloc(c->lines, sizeof *c->ways);
    c->reuse = cs_reuse_new();
    if (c->ways == NULL || c->reuse == NULL) {
        cs_cache_free(c);
        return NULL;
    }
    return c;
}

static void send(cs_cache_traffic *below, uint64_t address, bool write)
{
    below->requests[below->count++] = (cs_cache_request){address, write};
}

/* A miss on an absent line, by the line's reuse distance over the whole
 * stream: never seen, too far for a fully associative cache of this
 * capacity, or near enough that only the set mapping lost it. */
static void classify(cs_cache *c, uint64_t distance)
{
    if (distance == CS_REUSE_FIRST_TOUCH)
        ++c->stats.cold;
    else if (distance >= c->lines)
        ++c->stats.capacity;
    else
        ++c->stats.conflict;
}

static cs_cache_way *lookup(cs_cache_way *set, unsigned ways, uint64_t line)
{
    for (unsigned w = 0; w < ways; ++w)
        if (set[w].valid && set[w].line == line)
            return &set[w];
    return NULL;
}

/* The way a fill of line takes in set, its dirty victim written back. */
static cs_cache_way *fill_way(cs_cache *c, cs_cache_way *set, uint64_t line, cs_cache_traffic *below)
{
    const cs_cache_geometry *g = &c->geometry;
    cs_cache_way *way = &set[cs_replacement_victim(set, g->ways, g->policy, &c->rng)];
    if (way->valid && way->dirty) {
        ++c->stats.write_backs;
        send(below, way->line * g->line_bytes, true);
    }
    *way = (cs_cache_way){.line = line, .valid = true};
    return way;
}

bool cs_cache_access(cs_cache *c, uint64_t address, bool write, cs_cache_traffic *below)
{
    const cs_cache_geometry *g = &c->geometry;
    below->count = 0;
    uint64_t line = address / g->line_bytes;
    uint64_t sector_bit = UINT64_C(1) << (address % g->line_bytes / g->sector_bytes);
    uint64_t sector_address = address / g->sector_bytes * g->sector_bytes;
    cs_cache_way *set = &c->ways[(size_t)(line & (c->sets - 1)) * g->ways];
    uint64_t distance = cs_reuse_touch(c->reuse, line);
    ++c->clock;
    ++*(write ? &c->stats.writes : &c->stats.reads);

    cs_cache_way *way = lookup(set, g->ways, line);
    if (way && (way->sectors & sector_bit)) {
        way->last_use = c->clock;
        ++way->uses;
        c->stats.prefetch_hits += way->prefetched;
        way->prefetched = false;
        if (write && g->write == CS_WRITE_BACK_ALLOCATE)
            way->dirty = true;
        else if (write)
            send(below, address, true);
        return false;
    }
    ++*(write ? &c->stats.write_misses : &c->stats.read_misses);
    if (way)
        ++c->stats.sector_misses;
    else
        classify(c, distance);
    if (write && g->write == CS_WRITE_THROUGH_NO_ALLOCATE) {
        send(below, address, true);
        return true;
    }
    if (way == NULL)
        way = fill_way(c, set, line, below);
    send(below, sector_address, false);
    way->sectors |= sector_bit;
    way->last_use = c->clock;
    ++way->uses;
    way->prefetched = false;
    way->dirty |= write;
    return true;
}

void cs_cache_prefetch(cs_cache *c, uint64_t line, cs_cache_traffic *below)
{
    const cs_cache_geometry *g = &c->geometry;
    below->count = 0;
    cs_cache_way *set = &c->ways[(size_t)(line & (c->sets - 1)) * g->ways];
    if (lookup(set, g->ways, line) != NULL)
        return;
    cs_cache_way *way = fill_way(c, set, line, below);
    send(below, line * g->line_bytes, false);
    way->sectors = ~UINT64_C(0);
    way->last_use = ++c->clock;
    way->prefetched = true;
    ++c->stats.prefetches;
}

const cs_cache_stats *cs_cache_statistics(const cs_cache *c)
{
    return &c->stats;
}

const cs_cache_geometry *cs_cache_config(const cs_cache *c)
{
    return &c->geometry;
}

void cs_cache_free(cs_cache *c)
{
    if (c == NULL)
        return;
    free(c->ways);
    cs_reuse_free(c->reuse);
    free(c);
}
