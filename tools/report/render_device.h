/* One device in the report: its first screen (the headline figures, the
 * X-graph and bandwidth against size), then its sections; and the
 * appendix of what directories without a device hold. */
#ifndef CR_REPORT_RENDER_DEVICE_H
#define CR_REPORT_RENDER_DEVICE_H

#include "report/render_markup.h"

/* Device number i (from 0) of the run, one the API found. Returns -1 with
 * err where a figure cannot be written. */
int rp_render_device(FILE *f, const rp_run *run, size_t i, const rp_markup *m, char *err, size_t errlen);
/* Whether a directory without a device holds anything to show. */
bool rp_offline_has_results(const rp_device *d);
/* Its sections with results, one level down, under its own heading. */
int rp_render_offline(FILE *f, const rp_run *run, size_t i, const rp_markup *m, char *err, size_t errlen);

#endif
