/* The statistics of every level, as text or as CSV. */
#ifndef CACHESIM_REPORT_H
#define CACHESIM_REPORT_H

#include "simulate.h"

#include <stdio.h>

/* Hits over accesses (reads + writes); 0 without accesses. */
double report_hit_rate(const cache_stats *s);

void report_text(FILE *out, const char *trace_name, const sim_options *o, const hierarchy *h,
                 const sim_summary *summary);
void report_csv(FILE *out, const hierarchy *h);

#endif
