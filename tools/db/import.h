/* Importing runs into the results database: every device's metadata, every
 * results row with its flags and its parameters split into typed key/value
 * pairs, every other CSV cell by cell, and the run log. A run is known by
 * its absolute path: imported again, it replaces what was there (or is left
 * alone when its CSVs are unchanged), so that importing twice adds nothing. */
#ifndef CR_DB_IMPORT_H
#define CR_DB_IMPORT_H

#include <sqlite3.h>
#include <stddef.h>

typedef struct {
    size_t runs;      /* runs (cluster nodes) read */
    size_t unchanged; /* of which already in the database as they are */
    size_t rows;      /* CSV records inserted */
} db_import_summary;

/* Imports the runs of every directory (see db/run_dirs.h) in one
 * transaction: all of them or, on any error, none. Returns 0, or -1 with
 * err: "FILE:LINE: why" for a CSV that does not read, "DIR: why" for a
 * directory that is not a run.
 *
 * For the tests of an interrupted import: with CROSSROOF_DB_KILL_AFTER_ROWS=N
 * in the environment the process kills itself (SIGKILL) once N records are
 * inserted, in the middle of the transaction. */
int db_import(sqlite3 *db, const char *const *dirs, size_t ndirs, db_import_summary *sum, char *err, size_t errlen);

#endif
