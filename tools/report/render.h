/* The report as Markdown (report.md) and as one self-contained HTML file
 * (report.html). */
#ifndef CR_REPORT_RENDER_H
#define CR_REPORT_RENDER_H

#include "report/model.h"

#include <stddef.h>
#include <stdio.h>

/* Writes report.md and report.html into the run directory. Returns 0 or -1
 * with err. */
int rp_write_reports(const rp_run *run, char *err, size_t errlen);
void rp_render_markdown(FILE *f, const rp_run *run);
/* HTML with every figure embedded as a base64 data: URI; returns -1 with
 * err when a figure cannot be read. */
int rp_render_html(FILE *f, const rp_run *run, char *err, size_t errlen);

#endif
