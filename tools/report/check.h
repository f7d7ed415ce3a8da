/* Checking a written report against the files it cites. */
#ifndef CR_REPORT_CHECK_H
#define CR_REPORT_CHECK_H

#include <stddef.h>
#include <stdio.h>

/* Verifies run_dir/report.html and report.md: the page is made of the
 * markup the report writes and no other (report/check_markup.h: no script,
 * no event handler, nothing loaded from elsewhere), every embedded image
 * decodes to a PNG identical to the run's file it names, every linked file
 * exists (links are percent-encoded), every linked CSV reads as the report
 * reads it (the shared reader, by what its name says it is), every figure
 * of the run is in the report. Problems go to `problems` one line each; returns their
 * count, or -1 when the report cannot be read at all. */
int rp_check_report(const char *run_dir, FILE *problems, size_t *images, size_t *links);

#endif
