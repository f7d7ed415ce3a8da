/* The few things every part of the database tool does with SQLite: run a
 * script, prepare a statement, bind a CSV field as the type its column
 * holds, print a statement's rows as CSV; each failure as one line in the
 * caller's buffer. */
#ifndef CR_DB_SQL_H
#define CR_DB_SQL_H

#include "shared/csv_schema.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether the last of the calls below that failed, failed at the database
 * itself (read-only, full, locked, an I/O error: the database's fault, not
 * the input's), since db_forget_failure. */
bool db_write_failed(void);
void db_forget_failure(void);

/* Runs every statement of sql. Returns 0, or -1 with "what: SQLite's message". */
int db_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen);

/* Prepares sql into *st. Returns 0, or -1 with err. */
int db_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql, char *err, size_t errlen);

/* Steps a statement that returns no row, then resets it for the next use.
 * Returns 0, or -1 with err. */
int db_step_done(sqlite3 *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen);

/* Binds text as a field of this kind: NULL when empty, an integer for a
 * count, a flag or a status, a real for a number ("inf" of an error column
 * stays text), text otherwise. */
void db_bind_field(sqlite3_stmt *st, int i, cr_field_kind kind, const char *text);

/* Binds text, NULL when empty. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *text);

/* Every row of st as CSV (a header of its column names first). Returns the
 * number of rows, or -1 with err. */
long db_print_csv(sqlite3 *db, sqlite3_stmt *st, FILE *out, char *err, size_t errlen);

#endif
