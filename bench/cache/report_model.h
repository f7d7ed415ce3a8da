/* The cache benchmark's model rows in the report: predicted against
 * measured time per access, per pattern and footprint, with Crawford's
 * eq. 7.1 error and the hit rate of each level. */
#ifndef CR_CACHE_REPORT_MODEL_H
#define CR_CACHE_REPORT_MODEL_H

#include "report/model.h"

void rp_cache_model(rp_section *sec, const char *file, const cr_csv_table *t);

#endif
