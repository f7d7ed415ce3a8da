/* The latency benchmark's footprints against the device and the host:
 * where a chain is split into pieces, the largest footprint either holds,
 * the default sweep up to beyond the last-level cache. */
#include "latency/run.h"

#include "latency/levels.h"

#include "topology.h"

#include <inttypes.h>
#include <stdio.h>

void lt_find_caches(lt_state *s, lt_endpoint *ep)
{
    ep->be->caches(&ep->caches);
    if (ep->info.is_cpu)
        lt_caches_from_topology(s->ses.topo, &ep->caches);
}

static uint64_t lt_llc_of(const lt_endpoint *ep)
{
    return ep->caches.count ? ep->caches.level[ep->caches.count - 1].bytes : 0;
}

/* What the footprints need no device for: a start that can be a whole
 * number of lines (every line is a power of two of 8 bytes or more), no
 * more than the pieces of --piece-bytes hold, and no more than the host's
 * memory holds for the chain alone. */
int lt_check_options(lt_state *s)
{
    const lt_config *c = &s->cfg;
    if (c->piece_bytes && s->dev.be->max_pieces < 2)
        return cr_fail_usage(&s->ses, "--piece-bytes: %s", s->dev.be->one_piece_why);
    if (c->footprint.start == 0)
        return 0;
    if (c->footprint.start % 8 != 0)
        return cr_fail_usage(&s->ses, "footprint %" PRIu64 " B is not a multiple of the line (a power of two of 8 "
                                      "bytes or more)", c->footprint.start);
    uint64_t end = cr_range_value(&c->footprint, cr_range_count(&c->footprint) - 1);
    uint64_t pieces = c->piece_bytes * LT_MAX_PIECES, room = cr_host_memory_bytes() / 10 * 9;
    char a[32], b[32];
    cr_format_bytes(end, a, sizeof a);
    if (c->piece_bytes && end > pieces) {
        cr_format_bytes(pieces, b, sizeof b);
        return cr_fail_usage(&s->ses, "--footprint reaches %s, above the %s that %d pieces of --piece-bytes hold", a,
                             b, LT_MAX_PIECES);
    }
    if (room && end > room) {
        cr_format_bytes(room, b, sizeof b);
        return cr_fail_usage(&s->ses, "--footprint reaches %s, above the %s host memory holds (90%% of it)", a, b);
    }
    return 0;
}

/* Host bytes a footprint needs: the chain and its order, the host's copy,
 * and a CPU or APU device's buffer, which lives in the same memory. */
static double host_bytes_per_footprint_byte(const lt_state *s)
{
    double n = 1 + 8.0 / s->line_bytes;
    if (s->use_host)
        n += 1;
    if (s->dev.info.unified_memory)
        n += 1;
    return n;
}

/* Where the device's chains go: one buffer up to s->one_alloc, pieces of
 * s->piece_bytes beyond (the largest allocation, rounded down to a power
 * of two, or --piece-bytes). Sets *limit to the largest footprint the
 * device takes, and *why to what sets it. */
static int plan_pieces(lt_state *s, uint64_t *limit, char *why, size_t whylen)
{
    const cr_device_info *d = &s->dev.info;
    const lt_backend *be = s->dev.be;
    char a[32], b[32];
    s->one_alloc = d->max_alloc_bytes;
    s->piece_bytes = be->max_pieces > 1 ? lt_pow2_floor(d->max_alloc_bytes | 1) : 0;
    snprintf(why, whylen, "its largest allocation, or half its memory");
    if (s->cfg.piece_bytes) {
        if (be->max_pieces < 2)
            return cr_fail_usage(&s->ses, "--piece-bytes: %s", be->one_piece_why);
        if (s->cfg.piece_bytes > d->max_alloc_bytes) {
            cr_format_bytes(s->cfg.piece_bytes, a, sizeof a);
            cr_format_bytes(d->max_alloc_bytes, b, sizeof b);
            return cr_fail_usage(&s->ses, "--piece-bytes %s is above the device's largest allocation, %s", a, b);
        }
        s->one_alloc = s->piece_bytes = s->cfg.piece_bytes;
        snprintf(why, whylen, "%d pieces of --piece-bytes, or half its memory", LT_MAX_PIECES);
    } else if (s->piece_bytes >= s->line_bytes) {
        snprintf(why, whylen, "%d pieces of its largest allocation, or half its memory", LT_MAX_PIECES);
    } else {
        s->piece_bytes = 0; /* no piece would hold a line */
    }
    *limit = s->piece_bytes * LT_MAX_PIECES > s->one_alloc ? s->piece_bytes * LT_MAX_PIECES : s->one_alloc;
    if (d->global_mem_bytes / 2 < *limit)
        *limit = d->global_mem_bytes / 2;
    return 0;
}

int lt_check_footprints(lt_state *s)
{
    lt_config *c = &s->cfg;
    uint64_t limit = 0;
    char device_why[96];
    int rc = plan_pieces(s, &limit, device_why, sizeof device_why);
    if (rc != 0)
        return rc;
    uint64_t phys = cr_host_memory_bytes();
    uint64_t host_limit = phys ? (uint64_t)((double)phys * 0.9 / host_bytes_per_footprint_byte(s)) : UINT64_MAX;
    char a[32], b[32];
    if (c->footprint.start != 0) {
        if (c->footprint.start % s->line_bytes != 0)
            return cr_fail_usage(&s->ses, "footprint %" PRIu64 " B is not a multiple of the %u-byte line",
                                 c->footprint.start, s->line_bytes);
        uint64_t end = cr_range_value(&c->footprint, cr_range_count(&c->footprint) - 1);
        if (end > limit || end > host_limit) {
            cr_format_bytes(end, a, sizeof a);
            cr_format_bytes(end > limit ? limit : host_limit, b, sizeof b);
            if (end > limit)
                return cr_fail_usage(&s->ses, "--footprint reaches %s, above the %s the device allows (%s)", a, b,
                                     device_why);
            return cr_fail_usage(&s->ses,
                                 "--footprint reaches %s, above the %s host memory holds (90%% of it, for the chain and "
                                 "its copies)",
                                 a, b);
        }
        s->pieces_used = end > s->one_alloc;
        return 0;
    }
    uint64_t llc = lt_llc_of(&s->dev);
    if (s->use_host && lt_llc_of(&s->host) > llc)
        llc = lt_llc_of(&s->host);
    bool quick = s->ses.opt.quick;
    uint64_t factor = quick ? 4 : 2;
    /* No cache size known: a top that is beyond any cache built so far. */
    uint64_t want = llc ? llc * (quick ? LT_MEMORY_FACTOR : 2 * LT_MEMORY_FACTOR)
                        : (quick ? UINT64_C(256) << 20 : UINT64_C(1) << 30);
    uint64_t cap = limit < host_limit ? limit : host_limit;
    uint64_t end = LT_MIN_FOOTPRINT;
    while (end < want && end <= cap / factor)
        end *= factor;
    if (end < want) {
        cr_format_bytes(end, a, sizeof a);
        cr_session_note(&s->ses, "footprint sweep capped at %s by the %s", a,
                        cap == limit ? "device's allocation limit" : "host's memory");
    }
    c->footprint = (cr_range){LT_MIN_FOOTPRINT, end, factor};
    s->pieces_used = end > s->one_alloc;
    return 0;
}
