/* The statistics of every level, as text or as CSV. */
#ifndef CACHESIM_REPORT_H
#define CACHESIM_REPORT_H

#include "simulate.h"

#include <stdio.h>

/* Hits over accesses (reads + writes); 0 without accesses. */
double cs_report_hit_rate(const cs_cache_stats *s);

void cs_report_text(FILE *out, const char *trace_name, const cs_sim_options *o, const cs_hierarchy *h,
                 const cs_sim_summary *summary);
void cs_report_csv(FILE *out, const cs_hierarchy *h);

#endif
