/* The line and sector of each level but the last, against prefetchers,
 * in two chases:
 *  - pairs: blocks of 9 lines (as the API reports the line; few, to keep
 *    the span within the TLB's reach) in a random order, each loaded at
 *    its start and then at offset d into it (8 B up to 8 lines), over more
 *    blocks than the level holds lines and fewer than half what the next
 *    level serves whole, in three passes. The first load of a
 *    block misses the level; the second hits it iff the first one's fill
 *    reached d: the time per load steps up at d = the unit a miss fills
 *    (the sector, or the line where there are none). The random block
 *    order leaves a prefetcher no stream or stride to follow; the odd
 *    block size spreads the blocks over every set (blocks a power of two
 *    apart would share a few sets and miss the next level too).
 *  - odd stride: a random chase at 3 units' stride over footprints from
 *    the capacity to four times it, in three passes too. The odd stride spreads the elements
 *    over every set; while lines are a unit, each element holds a line of
 *    its own and three times the capacity fits; lines of several units
 *    hold an element each all the same, so less fits (cc_tag_line_of). */
#include "cache/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#define CC_BLOCK_LINES 9
#define CC_PAIR_MIN 8u
#define CC_PAIR_MAX_LINES 8
/* Passes of the pair and odd-stride chases (passes.c): one disturbed
 * point would be a step. */
#define CC_PAIR_PASSES 3

static const unsigned odd_quarters[] = {4, 5, 6, 7, 8, 10, 12, 14, 16};

typedef struct {
    uint64_t footprint[sizeof odd_quarters / sizeof odd_quarters[0]];
    uint64_t stride;
    const char *name;
} odd_chase;

/* The odd-stride chase at its i-th footprint, unrecorded. */
static int odd_point(cc_state *s, void *ctx, size_t i, cr_result *row, double *x)
{
    const odd_chase *oc = ctx;
    uint64_t footprint = oc->footprint[i];
    cc_row_init(s, row, "odd-stride", "line");
    row->size_bytes = footprint;
    *x = (double)footprint;
    cr_result_add_param(row, "level=%s;stride=%" PRIu64 ";elements=%" PRIu64, oc->name, oc->stride,
                        footprint / oc->stride);
    return cc_measure_random(s, footprint, oc->stride, row);
}

/* The odd-stride chase of level k at stride (3 units), footprints the
 * capacity times 1 to 4 in the capacity sweep's steps, in passes like the
 * pairs. */
static int odd_stride(cc_state *s, unsigned k, const char *name, uint64_t stride)
{
    cc_level_data *d = &s->level[k];
    uint64_t cap = (uint64_t)s->levels.level[k].capacity;
    d->odd_stride = stride;
    odd_chase oc = {.stride = stride, .name = name};
    size_t n = 0;
    for (size_t i = 0; i < sizeof odd_quarters / sizeof odd_quarters[0]; ++i) {
        uint64_t footprint = cap / 4 * odd_quarters[i] / stride * stride;
        if (cc_span_ok(s, footprint) && footprint / stride >= 4)
            oc.footprint[n++] = footprint;
    }
    cc_passes ps = {.n = n, .passes = CC_PAIR_PASSES, .measure = odd_point, .ctx = &oc, .series = &d->odd};
    return cc_measure_passes(s, &ps);
}

typedef struct {
    uint64_t blocks;
    unsigned block;
    char name[8];
} pair_chase;

/* The pair chase at the i-th offset (8 B doubling), unrecorded. */
static int pair_point(cc_state *s, void *ctx, size_t i, cr_result *row, double *x)
{
    const pair_chase *pc = ctx;
    unsigned off = CC_PAIR_MIN << i;
    cc_row_init(s, row, "pair", "line");
    row->size_bytes = pc->blocks * pc->block;
    *x = off;
    cr_result_add_param(row, "level=%s;offset=%u;blocks=%" PRIu64 ";block_bytes=%u", pc->name, off, pc->blocks,
                        pc->block);
    cc_order o;
    if (cc_order_pairs(&o, pc->blocks, pc->block / 8, off / 8, s->cfg.seed) != 0) {
        fprintf(stderr, "%s: error: out of memory for the pair chain\n", s->ses.opt.program);
        return -1;
    }
    int rc = cc_measure_chain(s, &o, 0, row);
    cc_order_free(&o);
    return rc;
}

int cc_sweep_line(cc_state *s)
{
    unsigned line = s->line0, block = CC_BLOCK_LINES * line;
    /* --quick: the first level only (the line is usually every level's). */
    unsigned levels = s->ses.opt.quick && s->levels.count ? 1 : s->levels.count;
    for (unsigned k = 0; k < s->levels.count; ++k) {
        cc_level_data *d = &s->level[k];
        if (k >= levels) {
            snprintf(d->line_why, sizeof d->line_why, "--quick probes the first level's line only");
            continue;
        }
        uint64_t cap = (uint64_t)s->levels.level[k].capacity;
        /* Four times the level's lines of blocks, at most half what the
         * next level serves whole in the lines two loads of each touch (so
         * that the first loads hit it); at least one and a half times what
         * this level serves whole, and twice where half its loads miss, so
         * that most first loads miss it and at most half the second lines
         * are still there from the round before. */
        uint64_t blocks = 4 * cap / line;
        uint64_t least = (uint64_t)fmax(1.5 * s->levels.level[k].onset, 2.0 * (double)cap);
        if (k + 1 < s->levels.count) {
            uint64_t next = (uint64_t)s->levels.level[k + 1].onset;
            if (blocks * 2 * line > next / 2)
                blocks = next / 4 / line;
        }
        if (2 * blocks * line < least) {
            snprintf(d->line_why, sizeof d->line_why,
                     "no footprint is at least twice this level's capacity and at most half what the next serves "
                     "whole");
            continue;
        }
        if (!cc_span_ok(s, blocks * block)) {
            snprintf(d->line_why, sizeof d->line_why,
                     "the pair chase would span %" PRIu64 " MiB, above what one chase may (1 GiB, and the device's "
                     "largest allocation)",
                     blocks * block >> 20);
            continue;
        }
        d->pair_span = blocks * block;
        pair_chase pc = {.blocks = blocks, .block = block};
        cc_level_name(s, k, pc.name, sizeof pc.name);
        size_t offsets = 0;
        while ((CC_PAIR_MIN << offsets) <= CC_PAIR_MAX_LINES * line)
            ++offsets;
        cc_passes ps = {.n = offsets, .passes = CC_PAIR_PASSES, .measure = pair_point, .ctx = &pc, .series = &d->pairs};
        if (cc_measure_passes(s, &ps) != 0)
            return -1;
        cc_fill_unit(d->pairs.p, d->pairs.n, &d->unit);
        d->unit_plausible = cc_fill_step_plausible(d->pairs.p, d->pairs.n, &d->unit, s->levels.level[k].ns,
                                                   cc_next_ns(&s->levels, k));
        if (d->unit_plausible && odd_stride(s, k, pc.name, (uint64_t)d->unit.x * CC_ODD) != 0)
            return -1;
    }
    return 0;
}
