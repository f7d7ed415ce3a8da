/* A run directory imported into a results database in memory, for the
 * report's tests that read a run back from the database alone. Include
 * after cmocka.h. */
#ifndef CR_REPORT_TESTS_DB_RUN_H
#define CR_REPORT_TESTS_DB_RUN_H

#include "db/import.h"
#include "db/schema.h"
#include "db/tables.h"

#include <limits.h>
#include <stdlib.h>

/* The database holding dir's run, its id into *id; the test fails where
 * the import does. */
static inline sqlite3 *import_run(const char *dir, sqlite3_int64 *id)
{
    sqlite3 *db;
    char err[1024] = "", abs[PATH_MAX];
    db_import_summary sum;
    assert_int_equal(db_open_memory(&db, err, sizeof err), 0);
    assert_non_null(realpath(dir, abs));
    if (db_import(db, &dir, 1, &sum, err, sizeof err) != 0 || db_find_run(db, abs, id, err, sizeof err) != 0)
        fail_msg("%s", err);
    return db;
}

#endif
