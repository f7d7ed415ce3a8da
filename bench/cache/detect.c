/* The detection rows: one per level and parameter (sweep "detect",
 * variant "<level>-<parameter>"), each with its value (or
 * "undetermined" and why), the host's own value where the device is the
 * host CPU, whether they match within one sweep step, the confidence and
 * the points it rests on; and the geometry the cache model starts from. */
#include "cache/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cc_level_name(const cc_state *s, unsigned k, char *out, size_t len)
{
    if (k == 0 && s->ses.info.is_cpu)
        snprintf(out, len, "L1d");
    else
        snprintf(out, len, "L%u", k + 1);
}

typedef struct {
    const char *parameter;
    const char *unit;
    double value;          /* NaN: undetermined */
    const char *text;      /* the value in words, where it is one (LRU-like, write-back) */
    double reference;      /* NaN: none */
    const double *swept;   /* for the match: the values swept, sorted; NULL: exact */
    size_t nswept;
    cc_confidence conf;
    double available; /* the share of a level smaller than its nominal size this process has; NaN: none */
    char evidence[160];
    char note[464]; /* a row's note (480), less "undetermined: " */
} finding;

/* Whole numbers (bytes, ways, sets) in full; others to 6 digits. */
static const char *number(double v, char *out, size_t len)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(out, len, "%.0f", v);
    else
        snprintf(out, len, "%.6g", v);
    return out;
}

static int record_finding(cc_state *s, unsigned k, const finding *f)
{
    char name[8];
    if (k < CC_MAX_LEVELS)
        cc_level_name(s, k, name, sizeof name);
    else
        snprintf(name, sizeof name, "memory");
    char variant[48];
    snprintf(variant, sizeof variant, "%s-%s", name, f->parameter);
    cr_result row;
    cc_row_init(s, &row, variant, "detect");
    snprintf(row.unit, sizeof row.unit, "%s", f->unit);
    bool known = isfinite(f->value);
    row.figure = row.figure_best = known ? f->value : NAN;
    if (known && strcmp(f->unit, "B") == 0)
        row.size_bytes = (uint64_t)f->value;
    char value[32], reference[32];
    if (!known)
        snprintf(value, sizeof value, "undetermined");
    else if (f->text)
        snprintf(value, sizeof value, "%s", f->text);
    else
        number(f->value, value, sizeof value);
    cr_result_add_param(&row, "level=%s;parameter=%s;value=%s", name, f->parameter, value);
    if (isfinite(f->reference)) {
        bool match = known && (f->swept ? cc_within_one_step(f->swept, f->nswept, f->value, f->reference)
                                        : f->value == f->reference);
        cr_result_add_param(&row, "reference=%s;match=%s", number(f->reference, reference, sizeof reference),
                            match ? "yes" : "no");
        if (!match && isfinite(f->available))
            cr_result_add_param(&row, "available_share=%.3f", f->available);
    }
    if (known)
        cr_result_add_param(&row, "confidence=%s", cc_confidence_name(f->conf));
    cr_result_add_param(&row, "evidence=%s", f->evidence[0] ? f->evidence : "none");
    snprintf(row.note, sizeof row.note, "%s%s", known ? "" : "undetermined: ", f->note);
    return cr_session_record(&s->ses, &row);
}

static void say(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

static finding blank(const char *parameter, const char *unit)
{
    return (finding){.parameter = parameter, .unit = unit, .value = NAN, .reference = NAN, .available = NAN};
}

/* A finding read off the same points as from: its evidence and confidence,
 * no reference of its own. */
static finding derived(const finding *from, const char *parameter, const char *unit, double value)
{
    finding d = blank(parameter, unit);
    d.value = value;
    d.conf = from->conf;
    snprintf(d.evidence, sizeof d.evidence, "%s", from->evidence);
    return d;
}

/* The latency of the level after k: the next level's, or memory's. */
/* The swept x of a series, in order. */
static size_t swept_of(const cc_series *sr, double *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < sr->n && n < cap; ++i)
        out[n++] = sr->p[i].x;
    return n;
}

static const cc_ref_level *ref_of(const cc_state *s, unsigned k)
{
    return k < s->ref.count ? &s->ref.level[k] : NULL;
}

static int capacity_rows(cc_state *s, unsigned k, const double *swept, size_t nswept)
{
    const cc_boundary *b = &s->levels.level[k];
    const cc_ref_level *r = ref_of(s, k);
    const cc_point *p = s->capacity.p;
    finding f = blank("capacity", "B");
    f.value = b->capacity;
    f.reference = r && r->size ? (double)r->size : NAN;
    f.swept = swept;
    f.nswept = nswept;
    f.conf = b->conf;
    say(f.evidence, sizeof f.evidence, "capacity:%.0f-%.0f>%.0f;half-miss:%.0f", p[b->first].x, p[b->last].x,
        b->last + 1 < s->capacity.n ? p[b->last + 1].x : NAN, b->half_miss);
    bool gradual = !cc_within_one_step(swept, nswept, b->capacity, b->onset);
    char shared[240];
    f.available = cc_share_available(swept, nswept, f.value, f.reference, r ? r->shared_cpus : "", shared,
                                     sizeof shared);
    say(f.note, sizeof f.note,
        "at %.3f ns from %.0f B to %.0f B (noise %.1f%% a step), %.0f%% slower after %.0f B; half the loads miss from "
        "%.0f B on (interpolated; the nearest footprint swept is the capacity)%s%s",
        b->ns, p[b->first].x, b->onset, 100 * b->noise, 100 * b->rise, p[b->last].x, b->half_miss,
        isfinite(f.available) ? "; " : "",
        isfinite(f.available) ? shared
        : gradual ? ": misses begin well before the level is full, so part of it is held by others (another thread or "
                    "tenant on this core, the hypervisor), its sets fill unevenly (a physically indexed level over pages "
                    "placed at random) or its replacement is not LRU"
                  : "");
    if (record_finding(s, k, &f) != 0)
        return -1;
    finding whole = derived(&f, "served-whole", "B", b->onset);
    say(whole.note, sizeof whole.note,
        "the largest footprint with no load beyond the level (the end of its flat stretch)%s",
        gradual ? ": what a program has of it while the others keep theirs" : ": the capacity, within a step");
    if (record_finding(s, k, &whole) != 0)
        return -1;
    finding l = derived(&f, "latency", "ns", b->ns);
    say(l.note, sizeof l.note, "median ns per load of the level's flat stretch of the capacity sweep");
    return record_finding(s, k, &l);
}

/* The level's way size (sets x line) from the grid, 0 where it shows none. */
static double grid_way_size(const cc_state *s, unsigned k, double *boundary0)
{
    double thr = cc_between(s->levels.level[k].ns, cc_next_ns(&s->levels, k));
    double strides[CC_GRID_STRIDES], bound[CC_GRID_STRIDES];
    size_t ng = 0;
    for (unsigned g = 0; g < CC_GRID_STRIDES && s->grid[g].n; ++g) {
        strides[ng] = (double)(CC_GRID_MIN_STRIDE << g);
        bound[ng++] = isfinite(thr) ? cc_last_below(s->grid[g].p, s->grid[g].n, thr) : 0;
    }
    *boundary0 = ng ? bound[0] : 0;
    return cc_grid_way_size(strides, bound, ng);
}

static int line_rows(cc_state *s, unsigned k, unsigned *line_out, unsigned *sector_out)
{
    cc_level_data *d = &s->level[k];
    const cc_ref_level *r = ref_of(s, k);
    const cc_step *unit = &d->unit;
    finding f = blank("line", "B"), sec = blank("sector", "B");
    f.reference = sec.reference = r && r->line ? r->line : NAN;
    double level_ns = s->levels.level[k].ns, thr = cc_between(level_ns, cc_next_ns(&s->levels, k));
    /* Against the capacity sweep's boundary read as the odd stride's is
     * (the last footprint below the threshold), not the half-miss
     * capacity: where a transition is gradual the two lie apart. */
    double fits = cc_last_below(s->capacity.p, s->capacity.n, thr);
    cc_tag_line tag = {0};
    if (unit->found)
        cc_tag_line_of(d->odd.p, d->odd.n, fits > 0 ? fits : s->levels.level[k].capacity, thr, unit->x, CC_ODD,
                       &tag);
    if (!unit->found) {
        if (d->line_why[0])
            say(f.note, sizeof f.note, "the pair chase did not run: %s", d->line_why);
        else
            say(f.note, sizeof f.note, "the pair chase shows no step");
        snprintf(sec.note, sizeof sec.note, "%s", f.note);
    } else if (!d->unit_plausible) {
        double step_ns = d->pairs.p[unit->at].ns;
        say(f.evidence, sizeof f.evidence, "pair:%.3f@%.0f>%.3f@%.0f", unit->low_ns, unit->x / 2, step_ns, unit->x);
        snprintf(sec.evidence, sizeof sec.evidence, "%s", f.evidence);
        say(f.note, sizeof f.note,
            "the pair chase steps at %.0f B by %.3f ns per load (%.3f -> %.3f), under %.0f%% of the %.3f ns a second "
            "load missing the level would add: the second line is mostly found in the level (a prefetcher brought it: "
            "the step is then the level before's line) or beyond it in a cheaper way (a DRAM row still open), so "
            "the level's own fill is not seen",
            unit->x, step_ns - unit->low_ns, unit->low_ns, step_ns, 100 * CC_PAIR_MIN_SHARE,
            (cc_next_ns(&s->levels, k) - level_ns) / 2);
        snprintf(sec.note, sizeof sec.note, "%s", f.note);
    } else {
        say(sec.evidence, sizeof sec.evidence, "pair:%.3f@%.0f>%.3f@%.0f", unit->low_ns, unit->x / 2, unit->high_ns,
            unit->x);
        sec.value = unit->x;
        sec.conf = unit->conf;
        say(sec.note, sizeof sec.note,
            "a second load at offset d after a miss hits up to d = %.0f B and misses from %.0f B on (%.3f -> %.3f ns "
            "per load): a miss fills %.0f B",
            unit->x / 2, unit->x, unit->low_ns, unit->high_ns, unit->x);
        if (tag.found)
            say(f.evidence, sizeof f.evidence, "%s+odd:%.0f@%" PRIu64 "=%.2fx", sec.evidence, tag.boundary,
                d->odd_stride, tag.ratio);
        else
            snprintf(f.evidence, sizeof f.evidence, "%s", sec.evidence);
        if (!tag.found) {
            say(f.note, sizeof f.note,
                "a miss fills %.0f B, but the odd-stride chase misses already at the capacity (threshold %.3f ns), so "
                "whether a line holds several such sectors is not seen",
                unit->x, thr);
        } else if (tag.at_least) {
            say(f.note, sizeof f.note,
                "at a %" PRIu64 "-B stride only as much fits as at the line's (%.2fx): a line holds the whole "
                "stride, at least %.0f B; the exact line is not seen",
                d->odd_stride, tag.ratio, tag.line);
        } else {
            f.value = tag.line;
            /* Sectors or a prefetcher: the value is one of two readings. */
            f.conf = tag.line == unit->x ? unit->conf : CC_CONF_LOW;
            if (tag.line == unit->x)
                say(f.note, sizeof f.note,
                    "at a %" PRIu64 "-B stride %.2fx as much fits as at the line's: one element per %.0f-B line, "
                    "filled whole (no sectors)",
                    d->odd_stride, tag.ratio, tag.line);
            else
                say(f.note, sizeof f.note,
                    "at a %" PRIu64 "-B stride %.2fx as much fits as at the line's: one element per %.0f B, while a "
                    "miss fills %.0f B: a %.0f-B line filled in sectors, or %.0f-B lines with a prefetcher fetching "
                    "the neighbouring line on each miss (this chase cannot tell the two apart)",
                    d->odd_stride, tag.ratio, tag.line, unit->x, tag.line, unit->x);
        }
    }
    *line_out = isfinite(f.value) ? (unsigned)f.value : 0;
    *sector_out = isfinite(sec.value) ? (unsigned)sec.value : 0;
    if (record_finding(s, k, &f) != 0)
        return -1;
    return record_finding(s, k, &sec);
}

static int ways_rows(cc_state *s, unsigned k, unsigned line, unsigned *ways_out)
{
    cc_level_data *d = &s->level[k];
    const cc_ref_level *r = ref_of(s, k);
    finding w = blank("ways", "ways"), sets = blank("sets", "sets"), rep = blank("replacement", "share");
    w.reference = r && r->ways ? r->ways : NAN;
    sets.reference = r && r->sets ? r->sets : NAN;
    double thr = cc_between(s->levels.level[k].ns, cc_next_ns(&s->levels, k));
    cc_step step = {0};
    char pages[96] = "";
    if (d->huge_share >= 0)
        say(pages, sizeof pages, "; %.0f%% of the chain's pages huge (THP %s)", 100 * d->huge_share, s->thp);
    double boundary0 = 0, way_size = grid_way_size(s, k, &boundary0);
    char grid[96] = "";
    if (way_size > 0)
        say(grid, sizeof grid, "; the grid's boundary moves from stride %.0f B: %.0f ways of %.0f B", way_size,
            s->levels.level[k].capacity / way_size, way_size);
    if (d->ways_why[0]) {
        say(w.note, sizeof w.note, "%s", d->ways_why);
    } else if (!isfinite(thr)) {
        say(w.note, sizeof w.note, "no latency beyond this level was measured to tell a miss from a hit");
    } else {
        cc_find_step(d->ways.p, d->ways.n, thr, &step);
        if (!step.found) {
            say(w.note, sizeof w.note,
                "no jump above %.3f ns with up to %zu addresses %" PRIu64 " B apart: more ways than that, or the "
                "addresses do not share a set (a physically indexed level on 4 KiB pages, or a hashed index)%s%s",
                thr, d->ways.n, d->ways_stride, pages, grid);
        } else {
            w.value = step.x - 1;
            w.conf = step.conf;
            say(w.evidence, sizeof w.evidence, "ways:%.3f@%.0f>%.3f@%.0f+stride:%" PRIu64, step.low_ns, step.x - 1,
                step.high_ns, step.x, d->ways_stride);
            say(w.note, sizeof w.note,
                "%.0f addresses %" PRIu64 " B apart stay at %.3f ns, %.0f go to %.3f ns (threshold %.3f)%s%s",
                step.x - 1, d->ways_stride, step.low_ns, step.x, step.high_ns, thr, pages, grid);
        }
    }
    *ways_out = isfinite(w.value) ? (unsigned)w.value : 0;
    if (isfinite(w.value) && line) {
        sets.value = floor(s->levels.level[k].capacity / (w.value * line));
        sets.conf = w.conf < s->levels.level[k].conf ? w.conf : s->levels.level[k].conf;
        snprintf(sets.evidence, sizeof sets.evidence, "%s", w.evidence);
        say(sets.note, sizeof sets.note, "capacity %.0f B / (%.0f ways x %u B line)", s->levels.level[k].capacity,
            w.value, line);
    } else {
        say(sets.note, sizeof sets.note, "needs the ways and the line");
    }
    cc_replacement rp;
    cc_find_replacement(d->ways.p, d->ways.n, &step, &rp);
    if (rp.found) {
        rep.value = rp.miss_share;
        rep.text = rp.miss_share >= CC_LRU_SHARE ? "LRU-like" : "not-LRU";
        rep.conf = rp.conf;
        snprintf(rep.evidence, sizeof rep.evidence, "%s", w.evidence);
        char beyond[96] = "";
        if (rp.measured_share > 1)
            snprintf(beyond, sizeof beyond, " (%.0f%% measured: slower than the misses beyond it, read as all)",
                     100 * rp.measured_share);
        say(rep.note, sizeof rep.note,
            "ways + 1 addresses in one set, visited cyclically: %.3f ns against %.3f hit and %.3f miss, %.0f%% of the "
            "loads miss%s (LRU: all)",
            rp.at_ns, rp.hit_ns, rp.miss_ns, 100 * rp.miss_share, beyond);
    } else {
        say(rep.note, sizeof rep.note, "needs the ways and points beyond them");
    }
    if (record_finding(s, k, &w) != 0 || record_finding(s, k, &sets) != 0)
        return -1;
    return record_finding(s, k, &rep);
}

static int write_rows(cc_state *s, unsigned k, cc_level *geo)
{
    cc_level_data *d = &s->level[k];
    finding a = blank("write-allocate", "share"), b = blank("write-back", "ratio");
    if (!d->write_measured) {
        say(a.note, sizeof a.note, "%s", d->write_why[0] ? d->write_why : "not measured");
        snprintf(b.note, sizeof b.note, "%s", a.note);
    } else {
        cc_verdict_alloc va;
        cc_write_allocate(d->load_ns, d->store_ns, d->cold_ns, d->noise, &va);
        say(a.evidence, sizeof a.evidence, "write:%.3f,%.3f,%.3f@%" PRIu64, d->load_ns, d->store_ns, d->cold_ns,
            d->write_footprint);
        const char *how = va.load_at_zero
                              ? "after a load pass %.3f (below the one-load overhead: taken as 0), a store pass %.3f, "
                                "an eviction %.3f ns per load over %" PRIu64 " B: stored lines are %.0f%% of the way "
                                "to evicted"
                              : "after a load pass %.3f, a store pass %.3f, an eviction %.3f ns per load over %" PRIu64
                                " B: stored lines are %.0f%% of the way to evicted";
        if (va.known) {
            a.value = va.share;
            a.text = va.allocate ? "allocate" : "no-allocate";
            a.conf = va.conf;
            say(a.note, sizeof a.note, how, d->load_ns, d->store_ns, d->cold_ns, d->write_footprint, 100 * va.share);
        } else {
            char why[256];
            say(why, sizeof why, how, d->load_ns, d->store_ns, d->cold_ns, d->write_footprint, 100 * va.share);
            say(a.note, sizeof a.note, "%s; neither near 0 nor near 100%% beyond the noise (%.0f%% of the gap)", why,
                100 * d->noise);
        }
        cc_verdict_back vb;
        double noise = d->noise < 0.1 ? 0.02 : 0.1;
        cc_write_back(d->store_in_ns, d->store_out_ns, noise, &vb);
        say(b.evidence, sizeof b.evidence, "write:%.3f@%" PRIu64 ",%.3f@%" PRIu64, d->store_in_ns, d->write_footprint,
            d->store_out_ns, d->store_out_footprint);
        const char *how_b = "%.3f ns per store into %" PRIu64 " B that fits, %.3f into %" PRIu64 " B that does not "
                            "(x%.2f)";
        char why[256];
        say(why, sizeof why, how_b, d->store_in_ns, d->write_footprint, d->store_out_ns, d->store_out_footprint,
            vb.ratio);
        if (vb.known) {
            b.value = vb.ratio;
            b.text = "write-back";
            b.conf = vb.conf;
            say(b.note, sizeof b.note, "%s: repeated stores stay in the level", why);
        } else {
            say(b.note, sizeof b.note,
                "%s, below x%.1f: write-through, or write-back with misses a prefetcher hides from the sequential "
                "store stream; these look alike",
                why, CC_WRITE_BACK_RATIO);
        }
        /* The model needs both; write-through is never asserted, so a
         * level's policy is known only as write-back (and allocating or not). */
        geo->write_policy_known = va.known && vb.known;
        geo->write_allocate = va.known && va.allocate;
        geo->write_back = vb.known && vb.write_back;
    }
    if (record_finding(s, k, &a) != 0)
        return -1;
    return record_finding(s, k, &b);
}

/* The footprint from which the L1-bypassing load kind (1) is faster than
 * the L1-cached one (0) for good, by 5%. */
static int bypass_row(cc_state *s)
{
    finding f = blank("bypass-footprint", "B");
    if (s->be->n_load_kinds < 2) {
        say(f.note, sizeof f.note, "%s", s->be->load_kinds_why ? s->be->load_kinds_why : "one kind of load");
        return record_finding(s, 0, &f);
    }
    const cc_series *ca = &s->loads[0], *cg = &s->loads[1];
    size_t n = ca->n < cg->n ? ca->n : cg->n, from = n;
    while (from > 0 && ca->p[from - 1].valid && cg->p[from - 1].valid && cg->p[from - 1].ns < 0.95 * ca->p[from - 1].ns)
        --from;
    if (from < n) {
        f.value = ca->p[from].x;
        f.conf = CC_CONF_MEDIUM;
        say(f.evidence, sizeof f.evidence, "loads:%s=%.3f,%s=%.3f@%.0f", s->be->load_kinds[0], ca->p[from].ns,
            s->be->load_kinds[1], cg->p[from].ns, ca->p[from].x);
        say(f.note, sizeof f.note, "from this footprint on, %s loads are at least 5%% faster than %s ones",
            s->be->load_kinds[1], s->be->load_kinds[0]);
    } else {
        say(f.note, sizeof f.note, "%s loads never beat %s ones by 5%% up to the largest footprint swept",
            s->be->load_kinds[1], s->be->load_kinds[0]);
    }
    return record_finding(s, 0, &f);
}

int cc_detect(cc_state *s)
{
    double swept[512];
    size_t nswept = swept_of(&s->capacity, swept, 512);
    cc_geometry *g = &s->geo;
    memset(g, 0, sizeof *g);
    if (s->levels.count == 0) {
        finding f = blank("capacity", "B");
        say(f.note, sizeof f.note, "the capacity sweep shows no step of %.0f%% or more%s", 100 * CC_RISE,
            s->capacity.n ? "" : " (not run)");
        return record_finding(s, 0, &f);
    }
    for (unsigned k = 0; k < s->levels.count; ++k) {
        cc_level *l = &g->level[g->count++];
        cc_level_name(s, k, l->name, sizeof l->name);
        l->capacity = (uint64_t)s->levels.level[k].capacity;
        l->served_whole = (uint64_t)s->levels.level[k].onset;
        l->latency_ns = s->levels.level[k].ns;
        unsigned line = 0, sector = 0, ways = 0;
        if (capacity_rows(s, k, swept, nswept) != 0 || line_rows(s, k, &line, &sector) != 0 ||
            ways_rows(s, k, line ? line : s->line0, &ways) != 0 || write_rows(s, k, l) != 0)
            return -1;
        l->line = line;
        l->sector = sector ? sector : line;
        l->ways = ways;
    }
    finding m = blank("latency", "ns");
    if (s->levels.has_memory) {
        m.value = g->memory_ns = s->levels.memory_ns;
        m.conf = s->levels.level[s->levels.count - 1].conf;
        say(m.evidence, sizeof m.evidence, "capacity:%.0f-", s->capacity.p[s->levels.memory_first].x);
        say(m.note, sizeof m.note, "median ns per load of the capacity sweep's last flat stretch, beyond every level");
    } else {
        say(m.note, sizeof m.note, "the capacity sweep does not go far enough beyond the last level to flatten");
    }
    if (record_finding(s, CC_MAX_LEVELS, &m) != 0)
        return -1;
    return s->be->n_load_kinds || s->cfg.sweeps >> CC_SWEEP_LOADS & 1 ? bypass_row(s) : 0;
}
