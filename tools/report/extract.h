/* Reading a results directory, or a run of the results database, into a
 * run: its devices, each device's metadata, which benchmarks ran and how
 * they ended, the headlines of every CSV, every figure. */
#ifndef CR_REPORT_EXTRACT_H
#define CR_REPORT_EXTRACT_H

#include "report/model.h"

#include <sqlite3.h>
#include <stddef.h>

/* What rp_load_run() found wrong: the exit status it calls for. */
enum { RP_BAD_DATA = 1, RP_NOT_A_RUN = 2 };

/* Reads every device of the run at path, every CSV through the shared
 * reader (shared/result_reader.h) as what its name says it is. Returns 0,
 * or with err: RP_BAD_DATA when a CSV does not read ("PATH:LINE: why"),
 * RP_NOT_A_RUN when path is not a directory or holds no results. */
int rp_load_run(const char *path, rp_run *run, char *err, size_t errlen);

/* The same for the run the database holds under run_id (imported by
 * db/import.h), shown as path: the same devices, tables and numbers as
 * from its directory, but for the figures (PNGs), which the database does
 * not hold. Returns 0, RP_BAD_DATA when the database fails, RP_NOT_A_RUN
 * when the run holds no results. */
int rp_load_run_db(sqlite3 *db, sqlite3_int64 run_id, const char *path, rp_run *run, char *err, size_t errlen);

/* Whether path is a run as rp_load_run() sees it before reading a CSV: a
 * directory, with a run log or a device's results. Returns 0, or
 * RP_NOT_A_RUN with err, in rp_load_run()'s words. */
int rp_check_run_dir(const char *path, char *err, size_t errlen);

/* The device directories of the run directory at path, in name order, as
 * rp_load_run() reads them: "" alone for a run that is one device's
 * directory. */
void rp_device_dirs(const char *path, rp_strings *out);

#endif
