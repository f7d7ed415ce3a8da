/* A run's CSVs read back from the database as the shared reader reads them
 * from the files (shared/result_reader.h): the header's columns in their
 * order, every record with its line, every field as text ("" where empty).
 * A number comes back as the shortest text that reads as the same number,
 * so that whatever reads the fields as numbers gets what the file held;
 * text comes back as it was. This lets a tool that reads runs take them
 * from the database rather than from their directories. */
#ifndef CR_DB_TABLES_H
#define CR_DB_TABLES_H

#include "shared/result_reader.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/* The id of the run imported from path (absolute, as db_import() keeps it).
 * Returns 0, or -1 with err ("PATH: not in the database"). */
int db_find_run(sqlite3 *db, const char *path, sqlite3_int64 *run_id, char *err, size_t errlen);

/* The run's device directories in name order ("" for a run that is one
 * device's directory), or the CSV files of its device directory dir in name
 * order, as a malloc'ed list for db_free_names(). Returns 0, or -1 with
 * err. */
int db_run_devices(sqlite3 *db, sqlite3_int64 run_id, char ***dirs, size_t *n, char *err, size_t errlen);
int db_device_files(sqlite3 *db, sqlite3_int64 run_id, const char *dir, char ***names, size_t *n, char *err,
                    size_t errlen);

/* Whether the run has a run-log.csv. */
bool db_has_run_log(sqlite3 *db, sqlite3_int64 run_id);

/* The CSV name of device directory dir, or the run log for a NULL dir, into
 * t (cr_csv_free() frees it; t->path is "RUN/DIR/NAME"). Returns 0, or -1
 * with err when it is not in the database or does not read. */
int db_load_table(sqlite3 *db, sqlite3_int64 run_id, const char *dir, const char *name, cr_csv_table *t,
                  char *err, size_t errlen);

#endif
