/* The level rows of the latency benchmark: each cache level and main
 * memory, from the footprint row that stands for it (levels.h picks
 * which). */
#include "latency/run.h"

#include "latency/levels.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A level row from the footprint row that stands for it. */
static void copy_point(cr_result *row, const lt_point *p, const char *why)
{
    char fp[32];
    cr_format_bytes(p->footprint, fp, sizeof fp);
    row->size_bytes = p->footprint;
    if (!p->measured) {
        cr_result_unmeasured(row);
        snprintf(row->note, sizeof row->note, "the footprint row at %s was not measured", fp);
        row->valid = false;
        return;
    }
    row->stats = p->row.stats;
    memcpy(row->timer, p->row.timer, sizeof row->timer);
    memcpy(row->stop, p->row.stop, sizeof row->stop);
    row->ops_per_rep = p->row.ops_per_rep;
    row->figure = p->row.figure;
    row->figure_best = p->row.figure_best;
    row->ref_ratio = p->row.ref_ratio;
    row->valid = p->row.valid;
    char pieces[96] = "";
    if (p->layout.pieces > 1)
        snprintf(pieces, sizeof pieces, "; chain in %u pieces, with the piece choice (the overhead row)",
                 p->layout.pieces);
    snprintf(row->note, sizeof row->note, "%s the footprint row at %s (%s)%s", p->row.valid ? "from" : "INVALID:", fp,
             why, pieces);
}

/* A level row whose latency is main memory's, or that lies past the
 * level's end with no footprint the level serves whole above twice the
 * smaller level: flagged, with the figures, so that neither the report nor
 * a reader takes it for the level's. */
static void judge_level(cr_result *row, const lt_cache_level *l, double memory_ns, double end_ns, uint64_t end_bytes)
{
    if (!row->valid)
        return;
    char fp[32], at[32];
    cr_format_bytes(row->size_bytes, fp, sizeof fp);
    cr_format_bytes(end_bytes, at, sizeof at);
    if (lt_level_is_memory(row->figure, memory_ns))
        CR_FLAG(row, "not-a-cache-level",
                "%.4g ns is within %.2g x main memory's %.4g ns: at %s the %s no longer serves this process (a cache "
                "shared with others, or smaller than reported), so this is memory's latency, not the level's",
                row->figure, LT_NOT_A_LEVEL_RATIO, memory_ns, fp, l->name);
    else if (end_ns > 0)
        CR_FLAG(row, "not-a-cache-level",
                "%.4g ns is %.2g x the %.4g ns at %s, past the %s's end (a step of %.2gx between neighbouring "
                "footprints), and no footprint above twice the smaller level's is served whole: the %s serves this "
                "process less than that (a cache shared with others, or smaller than reported)",
                row->figure, row->figure / end_ns, end_ns, at, l->name, LT_LEVEL_JUMP, l->name);
}

int lt_record_levels(lt_state *s, lt_endpoint *ep)
{
    uint64_t fps[64];
    double ns[64];
    size_t n = ep->npoints < 64 ? ep->npoints : 64;
    for (size_t i = 0; i < n; ++i) {
        fps[i] = ep->points[i].footprint;
        ns[i] = ep->points[i].measured && ep->points[i].row.valid ? ep->points[i].row.figure : NAN;
    }
    const lt_caches *c = &ep->caches;
    char a[32], b[32];
    /* Main memory's latency first: each level is judged against it. */
    long km = lt_memory_pick(fps, n, c->count ? c->level[c->count - 1].bytes : 0);
    double memory_ns = km >= 0 && ep->points[km].measured && ep->points[km].row.valid ? ep->points[km].row.figure : 0;
    for (unsigned i = 0; i < c->count; ++i) {
        const lt_cache_level *l = &c->level[i];
        uint64_t smaller = i ? c->level[i - 1].bytes : 0;
        cr_result row;
        lt_init_row(&row, ep, l->name, "level");
        cr_result_add_param(&row, "cache_bytes=%" PRIu64, l->bytes);
        uint64_t below = i > 1 ? c->level[i - 2].bytes : 0;
        long half = lt_level_pick(fps, n, l->bytes, smaller);
        long k = lt_level_pick_served(fps, ns, half, smaller, below, memory_ns);
        long end = lt_level_end(fps, ns, half, smaller, below);
        /* Past the level's end, and left there: nothing above twice the smaller level is served whole. */
        bool unserved = k == half && lt_level_past_end(fps, ns, half, smaller, below);
        cr_format_bytes(l->bytes, a, sizeof a);
        if (k < 0) {
            cr_result_unmeasured(&row);
            cr_format_bytes(smaller, b, sizeof b);
            snprintf(row.note, sizeof row.note, "no swept footprint above %s and at most half the %s %s (%s)",
                     smaller ? b : "0 B", a, l->name, l->source);
        } else {
            cr_result_add_param(&row, "footprint=%" PRIu64, fps[k]);
            lt_add_pieces(&row, &ep->points[k].layout);
            char why[320], at[32];
            cr_format_bytes(half >= 0 ? fps[half] : 0, at, sizeof at);
            if (k == half)
                snprintf(why, sizeof why, "at most half the %s %s, size from %s", a, l->name, l->source);
            else
                snprintf(why, sizeof why,
                         "the largest footprint the level serves whole here: at %s, half the %s %s (size from %s), "
                         "the walk took %.4g ns, %s, so others share the level or it is smaller than reported",
                         at, a, l->name, l->source, ns[half],
                         k == end ? "past the step of 2x or more that follows this footprint" : "memory's");
            copy_point(&row, &ep->points[k], why);
            lt_add_cycles(&row, ep->points[k].cycles, ep);
            judge_level(&row, l, memory_ns, unserved ? ns[end] : NAN, unserved ? fps[end] : 0);
        }
        if (cr_session_record(&s->ses, &row) != 0)
            return -1;
    }
    cr_result row;
    lt_init_row(&row, ep, "memory", "level");
    uint64_t llc = c->count ? c->level[c->count - 1].bytes : 0;
    if (llc)
        cr_result_add_param(&row, "cache_bytes=%" PRIu64, llc);
    long k = lt_memory_pick(fps, n, llc);
    cr_format_bytes(n ? fps[n - 1] : 0, b, sizeof b);
    cr_format_bytes(llc, a, sizeof a);
    if (k < 0) {
        cr_result_unmeasured(&row);
        if (llc)
            snprintf(row.note, sizeof row.note,
                     "no main-memory latency: the largest footprint, %s, is below %dx the %s last-level cache", b,
                     LT_MEMORY_FACTOR, a);
        else
            snprintf(row.note, sizeof row.note,
                     "no main-memory latency: the device reports no cache size, so no footprint is known to be "
                     "beyond its caches");
    } else {
        cr_result_add_param(&row, "footprint=%" PRIu64, fps[k]);
        lt_add_pieces(&row, &ep->points[k].layout);
        char why[96];
        snprintf(why, sizeof why, "%.0fx the %s last-level cache", (double)fps[k] / (double)llc, a);
        copy_point(&row, &ep->points[k], why);
        lt_add_cycles(&row, ep->points[k].cycles, ep);
    }
    return cr_session_record(&s->ses, &row);
}
