#include "cache/model.h"
#include "cache/reference.h"
#include "cr.h"
#include "error.h"
#include "latency/pieces.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The prefetched lines on their way, the oldest overwritten first: a
 * prefetcher keeps few in flight, and one asked for 64 prefetches ago has
 * long arrived. */
#define IN_FLIGHT 64

struct cc_model {
    unsigned count;
    cs_cache *level[CC_MAX_LEVELS];
    cs_prefetcher prefetcher;
    uint64_t line_bytes; /* the first level's, what the prefetcher counts in */
    double latency_ns[CC_MAX_LEVELS + 1]; /* each level's, then memory's */
    double now_ns; /* when the next access starts: the one before has been served */
    struct {
        uint64_t line;
        double ready_ns;
        bool used;
    } flight[IN_FLIGHT];
    unsigned next_flight;
};

static void add_assumed(cc_model_config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_assumed(cc_model_config *c, const char *fmt, ...)
{
    size_t used = strlen(c->assumed);
    if (used && used + 2 < sizeof c->assumed)
        used += (size_t)snprintf(c->assumed + used, sizeof c->assumed - used, "; ");
    if (used >= sizeof c->assumed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->assumed + used, sizeof c->assumed - used, fmt, ap);
    va_end(ap);
}

/* The associativity to simulate, and where it came from. */
static unsigned pick_ways(const cc_level *l, unsigned host_way, unsigned long long lines, cc_ways_source *src)
{
    if (l->ways) {
        *src = CC_WAYS_DETECTED;
        return l->ways;
    }
    if (host_way) {
        *src = CC_WAYS_SYSFS;
        return host_way;
    }
    if (lines <= CC_FULL_ASSOC_MAX_LINES) {
        *src = CC_WAYS_FULL;
        return (unsigned)lines;
    }
    *src = CC_WAYS_ASSUMED;
    return CC_WAYS_FALLBACK;
}

/* A level whose line is undetermined takes the nearest level's (above it
 * first): lines of neighbouring levels are mostly equal, and the row says
 * it was assumed. 0 where no level has one. */
static unsigned line_of(const cc_geometry *g, unsigned i, cc_model_config *c)
{
    if (g->level[i].line)
        return g->level[i].line;
    for (unsigned d = 1; d < g->count; ++d) {
        const cc_level *near = i >= d && g->level[i - d].line ? &g->level[i - d]
                               : i + d < g->count && g->level[i + d].line ? &g->level[i + d]
                                                                           : NULL;
        if (near) {
            add_assumed(c, "%s line undetermined: the %s's %u B assumed", g->level[i].name, near->name, near->line);
            return near->line;
        }
    }
    return 0;
}

static int configure_level(const cc_geometry *g, unsigned i, unsigned host_way, cc_model_config *c, char *err,
                           size_t errlen)
{
    cc_level level = g->level[i];
    const cc_level *l = &level;
    level.line = line_of(g, i, c);
    if (l->capacity == 0 || l->line == 0 || !(l->latency_ns > 0))
        return cr_errf(err, errlen, "level %s has no %s: nothing to simulate", l->name,
                       l->capacity == 0 ? "capacity" : l->line == 0 ? "line size" : "latency");
    unsigned long long lines = l->capacity / l->line;
    cc_ways_source src;
    unsigned ways = pick_ways(l, host_way, lines, &src);
    if (ways == 0 || lines < ways)
        return cr_errf(err, errlen, "level %s: %u ways of %u B lines do not fit %llu B", l->name, ways, l->line,
                       (unsigned long long)l->capacity);
    /* The simulator indexes sets by address bits: a capacity between two
     * powers of two is simulated with the sets of the smaller one. */
    unsigned long long sets = lt_pow2_floor(lines / ways), bytes = sets * ways * l->line;
    if (bytes != l->capacity)
        add_assumed(c, "%s capacity %llu B simulated as %llu B (a power-of-two number of sets)", l->name,
                    (unsigned long long)l->capacity, bytes);
    if (src == CC_WAYS_SYSFS)
        add_assumed(c, "%s ways undetermined: %u from the host's sysfs", l->name, ways);
    else if (src == CC_WAYS_FULL)
        add_assumed(c, "%s ways undetermined: fully associative (%u ways)", l->name, ways);
    else if (src == CC_WAYS_ASSUMED)
        add_assumed(c, "%s ways undetermined, %llu lines too many to search one by one: %u ways assumed", l->name,
                    lines, ways);
    /* The simulator has WTNA and WBWA: allocation decides which. */
    bool wb = !l->write_policy_known || l->write_allocate;
    if (!l->write_policy_known)
        add_assumed(c, "%s write policy undetermined: WBWA assumed", l->name);
    else if (l->write_back != l->write_allocate)
        add_assumed(c, "%s write-%s with%s write-allocate: simulated as %s", l->name,
                    l->write_back ? "back" : "through", l->write_allocate ? "" : "out", wb ? "WBWA" : "WTNA");
    c->level[i] = (cs_cache_geometry){
        .size_kb = (unsigned)(bytes / 1024),
        .line_bytes = l->line,
        .ways = ways,
        .sector_bytes = l->sector && l->sector <= l->line ? l->sector : l->line,
        .policy = CS_POLICY_LRU,
        .write = wb ? CS_WRITE_BACK_ALLOCATE : CS_WRITE_THROUGH_NO_ALLOCATE,
    };
    if (bytes % 1024 != 0)
        return cr_errf(err, errlen, "level %s: %llu B is not a whole number of KiB", l->name, bytes);
    char why[CR_ERRLEN];
    if (cs_geometry_check(&c->level[i], why, sizeof why) != 0)
        return cr_errf(err, errlen, "level %s: %s", l->name, why);
    c->latency_ns[i] = l->latency_ns;
    c->ways_source[i] = src;
    snprintf(c->name[i], sizeof c->name[i], "%.*s", (int)sizeof c->name[i] - 1, l->name);
    return 0;
}

int cc_model_configure(const cc_geometry *g, const unsigned *host_ways, cc_model_config *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (g->count == 0 || g->count > CC_MAX_LEVELS)
        return cr_errf(err, errlen, "%u cache levels detected: nothing to simulate", g->count);
    if (!(g->memory_ns > 0))
        return cr_errf(err, errlen, "no memory latency detected");
    for (unsigned i = 0; i < g->count; ++i)
        if (configure_level(g, i, host_ways ? host_ways[i] : 0, out, err, errlen) != 0)
            return -1;
    out->count = g->count;
    out->memory_ns = g->memory_ns;
    return 0;
}

void cc_sysfs_ways(const char *root, unsigned ways[CC_MAX_LEVELS])
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/cpu0/cache", root);
    cc_reference ref;
    cc_reference_read(dir, &ref);
    for (unsigned k = 0; k < CC_MAX_LEVELS; ++k)
        ways[k] = ref.level[k].ways;
}

cc_model *cc_model_new(const cc_model_config *c)
{
    cc_model *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->count = c->count;
    cs_prefetcher_init(&m->prefetcher, &c->prefetch);
    m->line_bytes = c->count ? c->level[0].line_bytes : 0;
    for (unsigned i = 0; i < c->count; ++i)
        m->latency_ns[i] = c->latency_ns[i];
    m->latency_ns[c->count] = c->memory_ns;
    for (unsigned i = 0; i < IN_FLIGHT; ++i)
        m->flight[i].used = true;
    for (unsigned i = 0; i < c->count; ++i) {
        m->level[i] = cs_cache_new(&c->level[i], UINT64_C(1) + i);
        if (m->level[i] == NULL) {
            cc_model_free(m);
            return NULL;
        }
    }
    return m;
}

static uint64_t misses_of(const cs_cache *c)
{
    const cs_cache_stats *s = cs_cache_statistics(c);
    return s->read_misses + s->write_misses;
}

/* Level depth handles one request: what it sends below goes on down. The
 * request is the access itself (demand) or what a level above sent for it;
 * a demand that misses passes its demand on to the last request it sends
 * (the fill, or the store passed down), never to a write-back. Returns the
 * level that served the demand, or count (memory); for other requests
 * count. */
static unsigned follow(cc_model *m, unsigned depth, uint64_t address, bool write, bool demand, cc_model_counts *n)
{
    if (depth == m->count)
        return m->count;
    uint64_t before = misses_of(m->level[depth]);
    cs_cache_traffic below;
    cs_cache_access(m->level[depth], address, write, &below);
    bool missed = misses_of(m->level[depth]) != before;
    if (missed && depth + 1 == m->count)
        ++n->last_level_misses;
    if (missed && demand && depth == 0 && !write)
        ++n->l1_read_misses;
    unsigned served = demand && !missed ? depth : m->count;
    for (int r = 0; r < below.count; ++r) {
        bool carries = demand && missed && r == below.count - 1;
        unsigned s = follow(m, depth + 1, below.requests[r].address, below.requests[r].write, carries, n);
        if (carries)
            served = s;
    }
    return served;
}

/* When a first-level hit on line can be served: where the line is a
 * prefetch on its way, when it arrives (and it is on its way no more);
 * otherwise at once. */
static double arrival(cc_model *m, uint64_t line)
{
    for (unsigned i = 0; i < IN_FLIGHT; ++i)
        if (!m->flight[i].used && m->flight[i].line == line) {
            m->flight[i].used = true;
            return m->flight[i].ready_ns;
        }
    return 0;
}

/* The prefetcher's lines after an access that started at start_ns: each
 * fetched into the first level, from the level that holds it, and on its
 * way until that level's latency has passed. */
static void prefetch_after(cc_model *m, uint64_t address, bool missed, double start_ns, cc_model_counts *counts)
{
    uint64_t lines[CS_PREFETCH_MAX_DEGREE];
    unsigned n = cs_prefetcher_next(&m->prefetcher, address / m->line_bytes, missed, lines);
    for (unsigned i = 0; i < n; ++i) {
        cs_cache_traffic below;
        cs_cache_prefetch(m->level[0], lines[i], &below);
        unsigned source = m->count;
        /* Write-backs first, the fill last (cs_cache_prefetch): the fill's
         * level is where the line comes from. */
        for (int r = 0; r < below.count; ++r) {
            bool fill = r == below.count - 1;
            unsigned s = follow(m, 1, below.requests[r].address, below.requests[r].write, fill, counts);
            if (fill)
                source = s;
        }
        if (below.count > 0) {
            unsigned slot = m->next_flight++ % IN_FLIGHT;
            m->flight[slot].line = lines[i];
            m->flight[slot].ready_ns = start_ns + m->latency_ns[source];
            m->flight[slot].used = false;
        }
    }
    counts->prefetches += n;
}

unsigned cc_model_access(cc_model *m, uint64_t address, bool write, cc_model_counts *counts)
{
    unsigned served = follow(m, 0, address, write, true, counts);
    ++counts->accesses;
    ++*(write ? &counts->writes : &counts->reads);
    ++*(served < m->count ? &counts->hits[served] : &counts->memory);
    /* Only a prefetcher puts lines on their way: without one, no hit waits. */
    bool prefetching = m->prefetcher.config.kind != CS_PREFETCH_OFF && m->line_bytes;
    double start = m->now_ns, cost = m->latency_ns[served];
    if (served == 0 && prefetching) {
        double wait = arrival(m, address / m->line_bytes) - start;
        if (wait > cost) {
            cost = wait;
            ++counts->late_prefetches;
        }
    }
    m->now_ns += cost;
    counts->chain_ns += cost;
    if (prefetching)
        prefetch_after(m, address, served != 0, start, counts);
    return served;
}

void cc_model_free(cc_model *m)
{
    if (m == NULL)
        return;
    for (unsigned i = 0; i < m->count; ++i)
        cs_cache_free(m->level[i]);
    free(m);
}

double cc_model_predict_ns(const cc_model_config *c, const cc_model_counts *n)
{
    if (n->accesses == 0)
        return NAN;
    if (n->prefetches > 0)
        return n->chain_ns / (double)n->accesses;
    double ns = (double)n->memory * c->memory_ns;
    for (unsigned i = 0; i < c->count; ++i)
        ns += (double)n->hits[i] * c->latency_ns[i];
    return ns / (double)n->accesses;
}

double cc_error_pct(double measured, double predicted)
{
    if (!(measured > 0) || !isfinite(measured) || !isfinite(predicted))
        return NAN;
    return 100.0 * fabs((measured - predicted) / measured);
}

int cc_model_premise_fails(const cc_geometry *g, const cc_model_counts *n, uint64_t span)
{
    for (unsigned l = 0; l < g->count && n->accesses > 0; ++l) {
        const cc_level *v = &g->level[l];
        bool gradual = v->served_whole > 0 && (double)v->served_whole < CC_GRADUAL * (double)v->capacity;
        if (gradual && span > v->served_whole && (double)n->hits[l] >= CC_PREMISE_SHARE * (double)n->accesses)
            return (int)l;
    }
    return -1;
}
