#include "db/sql.h"

#include "csv.h"
#include "error.h"

#include <stdint.h>
#include <stdlib.h>

/* The primary code of the last call that failed here (SQLITE_OK: none). */
static int last_failure = SQLITE_OK;

bool db_write_failed(void)
{
    switch (last_failure) {
    case SQLITE_READONLY: case SQLITE_FULL: case SQLITE_IOERR: case SQLITE_CANTOPEN: case SQLITE_BUSY:
    case SQLITE_LOCKED: case SQLITE_NOMEM: case SQLITE_CORRUPT: case SQLITE_PERM: case SQLITE_NOTADB:
        return true;
    default: return false;
    }
}

void db_forget_failure(void)
{
    last_failure = SQLITE_OK;
}

int db_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc == SQLITE_OK)
        return 0;
    last_failure = rc & 0xff;
    cr_errf(err, errlen, "%s: %s", what, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

int db_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql, char *err, size_t errlen)
{
    int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
    if (rc == SQLITE_OK)
        return 0;
    last_failure = rc & 0xff;
    return cr_errf(err, errlen, "cannot prepare a statement: %s", sqlite3_errmsg(db));
}

int db_step_done(sqlite3 *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return 0;
    last_failure = rc & 0xff;
    return cr_errf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
}

void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *text)
{
    if (text == NULL || *text == '\0')
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

void db_bind_field(sqlite3_stmt *st, int i, cr_field_kind kind, const char *text)
{
    if (text == NULL || *text == '\0') {
        sqlite3_bind_null(st, i);
        return;
    }
    uint64_t n;
    double v;
    switch (kind) {
    case CR_COUNT:
    case CR_FLAG:
    case CR_STATUS:
        /* The reader has checked the field; a count beyond SQLite's
         * integers is kept as a real rather than wrapped. */
        if (cr_count_fault(text, &n) == NULL) {
            if (n <= (uint64_t)INT64_MAX)
                sqlite3_bind_int64(st, i, (sqlite3_int64)n);
            else
                sqlite3_bind_double(st, i, (double)n);
            return;
        }
        break;
    case CR_NUMBER:
    case CR_NONNEG:
    case CR_ERROR:
        if (cr_number_fault(text, &v) == NULL) {
            sqlite3_bind_double(st, i, v);
            return;
        }
        break;
    case CR_TEXT: break;
    }
    sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

/* A value as the CSVs write it: reals with enough digits to read back. */
static void print_value(FILE *out, sqlite3_stmt *st, int c)
{
    switch (sqlite3_column_type(st, c)) {
    case SQLITE_NULL: break;
    case SQLITE_INTEGER: fprintf(out, "%lld", (long long)sqlite3_column_int64(st, c)); break;
    case SQLITE_FLOAT: cr_csv_double(out, sqlite3_column_double(st, c)); break;
    default: cr_csv_field(out, (const char *)sqlite3_column_text(st, c)); break;
    }
}

long db_print_csv(sqlite3 *db, sqlite3_stmt *st, FILE *out, char *err, size_t errlen)
{
    int ncols = sqlite3_column_count(st);
    for (int c = 0; c < ncols; ++c) {
        cr_csv_field(out, sqlite3_column_name(st, c));
        fputc(c + 1 < ncols ? ',' : '\n', out);
    }
    long rows = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int c = 0; c < ncols; ++c) {
            print_value(out, st, c);
            fputc(c + 1 < ncols ? ',' : '\n', out);
        }
        ++rows;
    }
    if (rc != SQLITE_DONE)
        return cr_errf(err, errlen, "query: %s", sqlite3_errmsg(db));
    return rows;
}
