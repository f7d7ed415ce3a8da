/* The cache benchmark's detection rows in the report: per level and
 * parameter, the value found (or "undetermined"), the host's reference and
 * whether they match, the confidence and the evidence. */
#ifndef CR_CACHE_REPORT_DETECT_H
#define CR_CACHE_REPORT_DETECT_H

#include "report/model.h"

void rp_cache_detect(rp_section *sec, const char *file, const cr_csv_table *t);

#endif
