/* Reading a results directory into a run: its devices, each device's
 * metadata, which benchmarks ran and how they ended, the headlines of
 * every CSV, every figure. */
#ifndef CR_REPORT_EXTRACT_H
#define CR_REPORT_EXTRACT_H

#include "report/model.h"

#include <stddef.h>

/* What rp_load_run() found wrong: the exit status it calls for. */
enum { RP_BAD_DATA = 1, RP_NOT_A_RUN = 2 };

/* Reads every device of the run at path, every CSV through the shared
 * reader (shared/result_reader.h) as what its name says it is. Returns 0,
 * or with err: RP_BAD_DATA when a CSV does not read ("PATH:LINE: why"),
 * RP_NOT_A_RUN when path is not a directory or holds no results. */
int rp_load_run(const char *path, rp_run *run, char *err, size_t errlen);

#endif
