/* Reading a results directory into a run: its devices, each device's
 * metadata, which benchmarks ran and how they ended, the headlines of
 * every CSV, every figure. */
#ifndef CR_REPORT_EXTRACT_H
#define CR_REPORT_EXTRACT_H

#include "report/model.h"

#include <stddef.h>

/* Reads every device of the run at path. Returns 0, or -1 with err when
 * path is not a directory or holds no results. */
int rp_load_run(const char *path, rp_run *run, char *err, size_t errlen);

#endif
