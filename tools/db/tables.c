#define _POSIX_C_SOURCE 200809L
#include "db/tables.h"

#include "db/run_dirs.h"
#include "db/sql.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first column of every row of sql, with id bound to ?1 and text (when
 * not NULL) to ?2, as a malloc'ed list of malloc'ed strings. */
static int collect(sqlite3 *db, const char *sql, sqlite3_int64 id, const char *text, char ***out, size_t *n,
                   char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st;
    if (db_prepare(db, &st, sql, err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    if (text)
        sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **grown = realloc(*out, cap * sizeof *grown);
            if (grown == NULL)
                break;
            *out = grown;
        }
        const unsigned char *v = sqlite3_column_text(st, 0);
        if (((*out)[*n] = strdup(v ? (const char *)v : "")) == NULL)
            break;
        ++*n;
    }
    if (rc == SQLITE_DONE) {
        sqlite3_finalize(st);
        return 0;
    }
    cr_errf(err, errlen, "%s", rc == SQLITE_ROW ? "out of memory" : sqlite3_errmsg(db));
    sqlite3_finalize(st);
    db_free_names(*out, *n);
    *out = NULL;
    *n = 0;
    return -1;
}

int db_find_run(sqlite3 *db, const char *path, sqlite3_int64 *run_id, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st, "SELECT id FROM runs WHERE path = ?", err, errlen) != 0)
        return -1;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *run_id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : cr_errf(err, errlen, "%s: not in the database", path);
}

int db_run_devices(sqlite3 *db, sqlite3_int64 run_id, char ***dirs, size_t *n, char *err, size_t errlen)
{
    return collect(db, "SELECT dir FROM devices WHERE run_id = ?1 ORDER BY dir", run_id, NULL, dirs, n, err, errlen);
}

int db_device_files(sqlite3 *db, sqlite3_int64 run_id, const char *dir, char ***names, size_t *n, char *err,
                    size_t errlen)
{
    return collect(db,
                   "SELECT f.name FROM files f JOIN devices d ON d.id = f.device_id "
                   "WHERE d.run_id = ?1 AND d.dir = ?2 ORDER BY f.name",
                   run_id, dir, names, n, err, errlen);
}

bool db_has_run_log(sqlite3 *db, sqlite3_int64 run_id)
{
    char **names;
    size_t n;
    char err[256];
    if (collect(db, "SELECT name FROM run_log_columns WHERE run_id = ?1 LIMIT 1", run_id, NULL, &names, &n, err,
                sizeof err) != 0)
        return false;
    db_free_names(names, n);
    return n > 0;
}

/* ---- a table again ---- */

/* The shortest "%.*g" text that reads back as v: the CSVs' numbers are
 * written with fewer digits than a double holds, and come back as written
 * but for the form (1.5e+09 as 1500000000). */
static void shortest_text(double v, char *buf, size_t len)
{
    for (int digits = 1; digits <= 17; ++digits) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Column c of the current row of st as a field's text. */
static char *field_text(sqlite3_stmt *st, int c)
{
    char buf[64];
    switch (sqlite3_column_type(st, c)) {
    case SQLITE_NULL: return strdup("");
    case SQLITE_INTEGER: snprintf(buf, sizeof buf, "%lld", (long long)sqlite3_column_int64(st, c)); return strdup(buf);
    case SQLITE_FLOAT: shortest_text(sqlite3_column_double(st, c), buf, sizeof buf); return strdup(buf);
    default: return strdup((const char *)sqlite3_column_text(st, c));
    }
}

/* A new record at line, its fields NULL until set; NULL when out of memory. */
static cr_csv_row *add_row(cr_csv_table *t, size_t *cap, unsigned line)
{
    if (t->nrows == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 64;
        cr_csv_row *grown = realloc(t->rows, grown_cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        t->rows = grown;
        *cap = grown_cap;
    }
    cr_csv_row *r = &t->rows[t->nrows];
    if ((r->fields = calloc(t->ncols ? t->ncols : 1, sizeof *r->fields)) == NULL)
        return NULL;
    r->line = line;
    ++t->nrows;
    return r;
}

/* A field the database had no cell for is empty, as it was in the file. */
static int fill_empty(cr_csv_table *t)
{
    for (size_t i = 0; i < t->nrows; ++i)
        for (size_t c = 0; c < t->ncols; ++c)
            if (t->rows[i].fields[c] == NULL && (t->rows[i].fields[c] = strdup("")) == NULL)
                return -1;
    return 0;
}

/* A file kept as typed columns (results rows, metadata, the run log): the
 * header's columns, each a column of table, selected in the header's
 * order. */
static int load_typed(sqlite3 *db, const char *table, const char *owner, sqlite3_int64 id,
                      const cr_csv_schema *schema, cr_csv_table *t, char *err, size_t errlen)
{
    char sql[4096];
    int len = snprintf(sql, sizeof sql, "SELECT line");
    for (size_t c = 0; c < t->ncols; ++c) {
        /* Only the schema's names reach the statement: the header is the
         * file's, and the schema's tables have exactly those columns. */
        if (cr_schema_column(schema, t->names[c]) == NULL)
            return cr_errf(err, errlen, "%s: column '%s' is not one of %s", t->path, t->names[c], schema->what);
        len += snprintf(sql + len, sizeof sql - (size_t)len, ", \"%s\"", t->names[c]);
    }
    snprintf(sql + len, sizeof sql - (size_t)len, " FROM %s WHERE %s = ? ORDER BY line", table, owner);
    sqlite3_stmt *st;
    if (db_prepare(db, &st, sql, err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cr_csv_row *r = add_row(t, &cap, (unsigned)sqlite3_column_int64(st, 0));
        if (r == NULL)
            break;
        size_t c = 0;
        while (c < t->ncols && (r->fields[c] = field_text(st, (int)c + 1)) != NULL)
            ++c;
        if (c < t->ncols)
            break;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return cr_errf(err, errlen, "%s: %s", t->path, rc == SQLITE_ROW ? "out of memory" : sqlite3_errmsg(db));
    return 0;
}

/* Any other CSV, kept cell by cell: a record per line, each cell in its
 * header's column. */
static int load_cells(sqlite3 *db, sqlite3_int64 file_id, cr_csv_table *t, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st, "SELECT line, col, value FROM cells WHERE file_id = ? ORDER BY line", err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(st, 1, file_id);
    size_t cap = 0;
    cr_csv_row *r = NULL;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        unsigned line = (unsigned)sqlite3_column_int64(st, 0);
        if ((r == NULL || r->line != line) && (r = add_row(t, &cap, line)) == NULL)
            break;
        int c = cr_csv_column(t, (const char *)sqlite3_column_text(st, 1));
        if (c < 0 || r->fields[c] != NULL) {
            sqlite3_finalize(st);
            return cr_errf(err, errlen, "%s:%u: a cell of no column of the header", t->path, line);
        }
        if ((r->fields[c] = field_text(st, 2)) == NULL)
            break;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return cr_errf(err, errlen, "%s: %s", t->path, rc == SQLITE_ROW ? "out of memory" : sqlite3_errmsg(db));
    return 0;
}

/* The file's id and kind; -1 with err when the database has no such file. */
static int find_file(sqlite3 *db, sqlite3_int64 run_id, const char *dir, const char *name, sqlite3_int64 *file_id,
                     char *kind, size_t kind_len, const char *path, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st,
                   "SELECT f.id, f.kind FROM files f JOIN devices d ON d.id = f.device_id "
                   "WHERE d.run_id = ? AND d.dir = ? AND f.name = ?",
                   err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, dir, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *file_id = sqlite3_column_int64(st, 0);
        snprintf(kind, kind_len, "%s", (const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : cr_errf(err, errlen, "%s: not in the database", path);
}

static int table_path(sqlite3 *db, sqlite3_int64 run_id, const char *dir, const char *name, cr_csv_table *t,
                      char *err, size_t errlen)
{
    char **run;
    size_t n;
    if (collect(db, "SELECT path FROM runs WHERE id = ?1", run_id, NULL, &run, &n, err, errlen) != 0)
        return -1;
    if (n == 0)
        return cr_errf(err, errlen, "run %lld: not in the database", (long long)run_id);
    snprintf(t->path, sizeof t->path, "%s%s%s/%s", run[0], dir && *dir ? "/" : "", dir ? dir : "", name);
    db_free_names(run, n);
    return 0;
}

static int load(sqlite3 *db, sqlite3_int64 run_id, const char *dir, const char *name, cr_csv_table *t, char *err,
                size_t errlen)
{
    if (table_path(db, run_id, dir, name, t, err, errlen) != 0)
        return -1;
    if (dir == NULL) {
        if (collect(db, "SELECT name FROM run_log_columns WHERE run_id = ?1 ORDER BY pos", run_id, NULL, &t->names,
                    &t->ncols, err, errlen) != 0)
            return -1;
        if (t->ncols == 0)
            return cr_errf(err, errlen, "%s: not in the database", t->path);
        return load_typed(db, "run_log", "run_id", run_id, &cr_schema_run_log, t, err, errlen);
    }
    sqlite3_int64 file_id = 0;
    char kind[16] = "";
    if (find_file(db, run_id, dir, name, &file_id, kind, sizeof kind, t->path, err, errlen) != 0 ||
        collect(db, "SELECT name FROM file_columns WHERE file_id = ?1 ORDER BY pos", file_id, NULL, &t->names,
                &t->ncols, err, errlen) != 0)
        return -1;
    if (strcmp(kind, "results") == 0)
        return load_typed(db, "rows", "file_id", file_id, &cr_schema_results, t, err, errlen);
    if (strcmp(kind, "metadata") == 0)
        return load_typed(db, "metadata", "file_id", file_id, &cr_schema_metadata, t, err, errlen);
    return load_cells(db, file_id, t, err, errlen);
}

int db_load_table(sqlite3 *db, sqlite3_int64 run_id, const char *dir, const char *name, cr_csv_table *t,
                  char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int rc = load(db, run_id, dir, name, t, err, errlen);
    if (rc == 0 && fill_empty(t) != 0)
        rc = cr_errf(err, errlen, "%s: out of memory", t->path);
    /* Fields never set are NULL, which cr_csv_free() frees as well. */
    if (rc != 0)
        cr_csv_free(t);
    return rc;
}
