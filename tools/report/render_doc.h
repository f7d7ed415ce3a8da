/* The report as one document, in either format: the title and one line on
 * the run; each device the API found, its first screen then its sections;
 * one device through two APIs, the peers; what directories without a
 * device hold; the run log last. */
#ifndef CR_REPORT_RENDER_DOC_H
#define CR_REPORT_RENDER_DOC_H

#include "report/render_markup.h"

/* Returns -1 with err where a figure cannot be written. */
int rp_render_document(FILE *f, const rp_run *run, const rp_markup *m, char *err, size_t errlen);

#endif
