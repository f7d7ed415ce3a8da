#include "report.h"

#include <inttypes.h>

double cs_report_hit_rate(const cs_cache_stats *s)
{
    uint64_t accesses = s->reads + s->writes;
    return accesses ? (double)(accesses - s->read_misses - s->write_misses) / (double)accesses : 0.0;
}

void cs_report_text(FILE *out, const char *trace_name, const cs_sim_options *o, const cs_hierarchy *h,
                 const cs_sim_summary *summary)
{
    fprintf(out, "trace %s: %zu accesses, %s order", trace_name, summary->accesses,
            o->schedule == CS_SCHEDULE_WARP ? "warp" : "trace");
    if (o->schedule == CS_SCHEDULE_WARP || o->coalesce)
        fprintf(out, ", warp size %u", o->warp_size);
    if (o->coalesce)
        fprintf(out, ", %zu coalesced away", summary->coalesced);
    fputc('\n', out);
    for (size_t i = 0; i < h->count; ++i) {
        const cs_cache_geometry *g = cs_cache_config(h->level[i]);
        const cs_cache_stats *s = cs_cache_statistics(h->level[i]);
        fprintf(out, "L%zu: %u KB, %u B lines, %u-way, %u sets", i + 1, g->size_kb, g->line_bytes, g->ways,
                cs_geometry_sets(g));
        if (g->sector_bytes != g->line_bytes)
            fprintf(out, ", %u B sectors", g->sector_bytes);
        fprintf(out, ", %s, %s\n", cs_replacement_policy_names[g->policy], cs_write_policy_names[g->write]);
        fprintf(out,
                "  reads %" PRIu64 "  read misses %" PRIu64 "  writes %" PRIu64 "  write misses %" PRIu64
                "  write-backs %" PRIu64 "\n",
                s->reads, s->read_misses, s->writes, s->write_misses, s->write_backs);
        fprintf(out, "  cold %" PRIu64 "  capacity %" PRIu64 "  conflict %" PRIu64, s->cold, s->capacity,
                s->conflict);
        if (g->sector_bytes != g->line_bytes)
            fprintf(out, "  sector misses %" PRIu64, s->sector_misses);
        fprintf(out, "  hit rate %.4f\n", cs_report_hit_rate(s));
        const cs_prefetch_config *pf = &h->prefetcher[i].config;
        if (pf->kind != CS_PREFETCH_OFF)
            fprintf(out, "  prefetcher %s, degree %u, distance %u: %" PRIu64 " lines fetched, %" PRIu64 " of them hit\n",
                    cs_prefetch_kind_names[pf->kind], pf->degree, pf->distance, s->prefetches, s->prefetch_hits);
    }
}

void cs_report_csv(FILE *out, const cs_hierarchy *h)
{
    fputs("level,size_kb,line_b,assoc,sets,sector_b,policy,write_policy,reads,read_misses,writes,write_misses,"
          "write_backs,cold,capacity,conflict,sector_misses,hit_rate\n",
          out);
    for (size_t i = 0; i < h->count; ++i) {
        const cs_cache_geometry *g = cs_cache_config(h->level[i]);
        const cs_cache_stats *s = cs_cache_statistics(h->level[i]);
        fprintf(out,
                "L%zu,%u,%u,%u,%u,%u,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f\n",
                i + 1, g->size_kb, g->line_bytes, g->ways, cs_geometry_sets(g), g->sector_bytes,
                cs_replacement_policy_names[g->policy], cs_write_policy_names[g->write], s->reads, s->read_misses,
                s->writes, s->write_misses, s->write_backs, s->cold, s->capacity, s->conflict, s->sector_misses,
                cs_report_hit_rate(s));
    }
}
