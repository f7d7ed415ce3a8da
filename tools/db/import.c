#define _POSIX_C_SOURCE 200809L
#include "db/import.h"

#include "db/run_dirs.h"
#include "db/sql.h"
#include "error.h"
#include "shared/bounded_file.h"
#include "shared/result_reader.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    ST_FIND_RUN,
    ST_DELETE_RUN,
    ST_INSERT_RUN,
    ST_INSERT_DEVICE,
    ST_INSERT_FILE,
    ST_INSERT_META,
    ST_INSERT_ROW,
    ST_INSERT_PARAM,
    ST_INSERT_CELL,
    ST_INSERT_LOG,
    ST_INSERT_COLUMN,
    ST_INSERT_LOG_COLUMN,
    ST_FINISH_DEVICES,
    ST_FINISH_RUN,
    ST_COUNT
};

/* Statements prepared once per import: the rows are many. */
typedef struct {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
    int row_col[64];   /* the results schema's columns in the file being read */
    size_t rows;       /* records inserted so far */
    long kill_after;   /* the test hook; -1 when off */
} importer;

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* "INSERT INTO table(fixed columns, the schema's columns) VALUES(?, ...)",
 * a placeholder for each: into is "table(fixed columns" (nfixed of them),
 * for a CSV whose columns the database keeps as columns of its own, bound
 * in the schema's order after the fixed ones. */
static void schema_insert(char *sql, size_t len, const char *into, size_t nfixed, const cr_csv_schema *s)
{
    int n = snprintf(sql, len, "INSERT INTO %s", into);
    for (size_t c = 0; c < s->ncols; ++c)
        n += snprintf(sql + n, len - (size_t)n, ", %s", s->cols[c].name);
    n += snprintf(sql + n, len - (size_t)n, ") VALUES(?");
    for (size_t c = 1; c < nfixed + s->ncols; ++c)
        n += snprintf(sql + n, len - (size_t)n, ", ?");
    snprintf(sql + n, len - (size_t)n, ")");
}

static int prepare_all(importer *im, char *err, size_t errlen)
{
    char insert_row[2048], insert_log[2048];
    schema_insert(insert_row, sizeof insert_row, "rows(file_id, device_id, line", 3, &cr_schema_results);
    schema_insert(insert_log, sizeof insert_log, "run_log(run_id, line", 2, &cr_schema_run_log);
    const char *sql[ST_COUNT] = {
        [ST_FIND_RUN] = "SELECT content_hash FROM runs WHERE path = ?",
        [ST_DELETE_RUN] = "DELETE FROM runs WHERE path = ?",
        [ST_INSERT_RUN] = "INSERT INTO runs(path, name, cluster, node, content_hash, imported) "
                          "VALUES(?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
        [ST_INSERT_DEVICE] = "INSERT INTO devices(run_id, dir, backend, device_index) VALUES(?, ?, ?, ?)",
        [ST_INSERT_FILE] = "INSERT INTO files(device_id, name, benchmark, kind, nrows) VALUES(?, ?, ?, ?, ?)",
        [ST_INSERT_META] = "INSERT INTO metadata(file_id, line, key, value) VALUES(?, ?, ?, ?)",
        [ST_INSERT_ROW] = insert_row,
        /* A key given twice in one row's params: the first counts, as
         * cr_params_get() reads it. */
        [ST_INSERT_PARAM] = "INSERT OR IGNORE INTO params(row_id, key, num, text) VALUES(?, ?, ?, ?)",
        [ST_INSERT_CELL] = "INSERT INTO cells(file_id, line, col, value, num) VALUES(?, ?, ?, ?, ?)",
        [ST_INSERT_LOG] = insert_log,
        [ST_INSERT_COLUMN] = "INSERT INTO file_columns(file_id, pos, name) VALUES(?, ?, ?)",
        [ST_INSERT_LOG_COLUMN] = "INSERT INTO run_log_columns(run_id, pos, name) VALUES(?, ?, ?)",
        /* What the metadata says of each device, where it says it. */
        [ST_FINISH_DEVICES] =
            "UPDATE devices SET "
            " name = COALESCE((SELECT m.value FROM metadata m JOIN files f ON f.id = m.file_id "
            "                  WHERE f.device_id = devices.id AND m.key = 'device.name' AND m.value IS NOT NULL "
            "                  ORDER BY f.name LIMIT 1), dir),"
            " backend = COALESCE((SELECT m.value FROM metadata m JOIN files f ON f.id = m.file_id "
            "                  WHERE f.device_id = devices.id AND m.key = 'backend' AND m.value IS NOT NULL "
            "                  ORDER BY f.name LIMIT 1), backend) "
            "WHERE run_id = ?1",
        /* The run's host and start from its metadata; its node is the
         * cluster's directory name, else the host, else the run's name. */
        [ST_FINISH_RUN] =
            "UPDATE runs SET "
            " started = (SELECT MIN(m.value) FROM metadata m JOIN files f ON f.id = m.file_id "
            "            JOIN devices d ON d.id = f.device_id WHERE d.run_id = ?1 AND m.key = 'date'),"
            " host_id = (SELECT id FROM hosts WHERE name = ?2),"
            " node = CASE WHEN node <> '' THEN node ELSE COALESCE(?2, name) END,"
            " mode = (SELECT mode FROM run_log WHERE run_id = ?1 AND mode IS NOT NULL ORDER BY line LIMIT 1) "
            "WHERE id = ?1",
    };
    for (int i = 0; i < ST_COUNT; ++i)
        if (db_prepare(im->db, &im->st[i], sql[i], err, errlen) != 0)
            return -1;
    return 0;
}

static void finalize_all(importer *im)
{
    for (int i = 0; i < ST_COUNT; ++i)
        sqlite3_finalize(im->st[i]);
}

/* One more record in: where the test hook says so, the process dies here,
 * in the middle of the transaction. */
static void record_inserted(importer *im)
{
    if (++im->rows == (size_t)im->kill_after && im->kill_after > 0)
        raise(SIGKILL);
}

static sqlite3_int64 insert(importer *im, int which, const char *what, char *err, size_t errlen)
{
    if (db_step_done(im->db, im->st[which], what, err, errlen) != 0)
        return -1;
    return sqlite3_last_insert_rowid(im->db);
}

/* ---- what the CSVs hold ---- */

/* FNV-1a over the names and bytes of a run's CSVs: a run imported again
 * with the same hash is left as it is. */
typedef struct {
    uint64_t h;
} content_hash;

static void hash_bytes(content_hash *c, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i)
        c->h = (c->h ^ b[i]) * 1099511628211ull;
}

static int hash_file(content_hash *c, const char *rel, const char *path, char *err, size_t errlen)
{
    hash_bytes(c, rel, strlen(rel) + 1);
    int fd = cr_open_regular(path, err, errlen);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (f == NULL) {
        if (fd >= 0)
            close(fd);
        return fd < 0 ? -1 : cr_errf(err, errlen, "%s: cannot open", path);
    }
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        hash_bytes(c, buf, got);
    fclose(f);
    return 0;
}

/* The benchmark a file of a device directory belongs to: what its name
 * starts with ("stream" of stream-opencl.csv, "xgraph" of
 * xgraph-params.csv). */
static void benchmark_of(const char *file, char *out, size_t len)
{
    snprintf(out, len, "%.*s", (int)strcspn(file, "-."), file);
}

static int insert_params(importer *im, sqlite3_int64 row_id, const char *params, char *err, size_t errlen)
{
    while (*params) {
        size_t len = strcspn(params, ";");
        const char *eq = memchr(params, '=', len);
        if (eq != NULL && eq > params) {
            char key[256], value[1024];
            snprintf(key, sizeof key, "%.*s", (int)(eq - params), params);
            snprintf(value, sizeof value, "%.*s", (int)(params + len - eq - 1), eq + 1);
            sqlite3_stmt *st = im->st[ST_INSERT_PARAM];
            double v;
            sqlite3_bind_int64(st, 1, row_id);
            sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
            if (cr_number_fault(value, &v) == NULL)
                sqlite3_bind_double(st, 3, v);
            else
                sqlite3_bind_null(st, 3);
            sqlite3_bind_text(st, 4, value, -1, SQLITE_TRANSIENT);
            if (db_step_done(im->db, st, "params", err, errlen) != 0)
                return -1;
        }
        params += len + (params[len] == ';');
    }
    return 0;
}

/* The header's columns in order, under the file's id (ST_INSERT_COLUMN) or
 * the run's (ST_INSERT_LOG_COLUMN, for the run log). */
static int insert_header(importer *im, int which, sqlite3_int64 owner, const cr_csv_table *t, char *err,
                         size_t errlen)
{
    sqlite3_stmt *st = im->st[which];
    for (size_t c = 0; c < t->ncols; ++c) {
        sqlite3_bind_int64(st, 1, owner);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)c);
        sqlite3_bind_text(st, 3, t->names[c], -1, SQLITE_TRANSIENT);
        if (db_step_done(im->db, st, t->path, err, errlen) != 0)
            return -1;
    }
    return 0;
}

static int insert_results(importer *im, sqlite3_int64 device_id, sqlite3_int64 file_id, const cr_csv_table *t,
                          char *err, size_t errlen)
{
    const cr_csv_schema *s = &cr_schema_results;
    for (size_t c = 0; c < s->ncols; ++c)
        im->row_col[c] = cr_csv_column(t, s->cols[c].name);
    int params_col = cr_csv_column(t, "params");
    sqlite3_stmt *st = im->st[ST_INSERT_ROW];
    for (size_t i = 0; i < t->nrows; ++i) {
        char **f = t->rows[i].fields;
        sqlite3_bind_int64(st, 1, file_id);
        sqlite3_bind_int64(st, 2, device_id);
        sqlite3_bind_int64(st, 3, t->rows[i].line);
        for (size_t c = 0; c < s->ncols; ++c)
            db_bind_field(st, (int)c + 4, s->cols[c].kind, im->row_col[c] >= 0 ? f[im->row_col[c]] : NULL);
        sqlite3_int64 row_id = insert(im, ST_INSERT_ROW, t->path, err, errlen);
        if (row_id < 0 || (params_col >= 0 && insert_params(im, row_id, f[params_col], err, errlen) != 0))
            return -1;
        record_inserted(im);
    }
    return 0;
}

static int insert_metadata(importer *im, sqlite3_int64 file_id, const cr_csv_table *t, char *err, size_t errlen)
{
    int key = cr_csv_column(t, "key"), value = cr_csv_column(t, "value");
    sqlite3_stmt *st = im->st[ST_INSERT_META];
    for (size_t i = 0; i < t->nrows; ++i) {
        sqlite3_bind_int64(st, 1, file_id);
        sqlite3_bind_int64(st, 2, t->rows[i].line);
        sqlite3_bind_text(st, 3, t->rows[i].fields[key], -1, SQLITE_TRANSIENT);
        db_bind_text_or_null(st, 4, t->rows[i].fields[value]);
        if (db_step_done(im->db, st, t->path, err, errlen) != 0)
            return -1;
        record_inserted(im);
    }
    return 0;
}

/* Any other CSV (the SFU table, xgraph's output): cell by cell, each with
 * its number where it is one. */
static int insert_cells(importer *im, sqlite3_int64 file_id, const cr_csv_table *t, char *err, size_t errlen)
{
    sqlite3_stmt *st = im->st[ST_INSERT_CELL];
    for (size_t i = 0; i < t->nrows; ++i) {
        for (size_t c = 0; c < t->ncols; ++c) {
            const char *v = t->rows[i].fields[c];
            double num;
            sqlite3_bind_int64(st, 1, file_id);
            sqlite3_bind_int64(st, 2, t->rows[i].line);
            sqlite3_bind_text(st, 3, t->names[c], -1, SQLITE_TRANSIENT);
            db_bind_text_or_null(st, 4, v);
            if (cr_number_fault(v, &num) == NULL)
                sqlite3_bind_double(st, 5, num);
            else
                sqlite3_bind_null(st, 5);
            if (db_step_done(im->db, st, t->path, err, errlen) != 0)
                return -1;
        }
        record_inserted(im);
    }
    return 0;
}

static int insert_run_log(importer *im, sqlite3_int64 run_id, const cr_csv_table *t, char *err, size_t errlen)
{
    const cr_csv_schema *s = &cr_schema_run_log;
    if (insert_header(im, ST_INSERT_LOG_COLUMN, run_id, t, err, errlen) != 0)
        return -1;
    sqlite3_stmt *st = im->st[ST_INSERT_LOG];
    for (size_t i = 0; i < t->nrows; ++i) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, t->rows[i].line);
        for (size_t c = 0; c < s->ncols; ++c) {
            int col = cr_csv_column(t, s->cols[c].name);
            db_bind_field(st, (int)c + 3, s->cols[c].kind, col >= 0 ? t->rows[i].fields[col] : NULL);
        }
        if (db_step_done(im->db, st, t->path, err, errlen) != 0)
            return -1;
        record_inserted(im);
    }
    return 0;
}

/* One CSV of a device directory, read through the shared reader as what
 * its name says it is. */
static int import_file(importer *im, sqlite3_int64 device_id, const char *dir, const char *name, char *err,
                       size_t errlen)
{
    char path[DB_PATH_LEN + 256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const cr_csv_schema *schema = cr_schema_for(path);
    cr_csv_table t;
    if (cr_csv_load(&t, path, schema, err, errlen) != 0)
        return -1;
    const char *kind = schema == &cr_schema_results ? "results" : schema == &cr_schema_metadata ? "metadata" : "other";
    char benchmark[64];
    benchmark_of(name, benchmark, sizeof benchmark);
    sqlite3_stmt *st = im->st[ST_INSERT_FILE];
    sqlite3_bind_int64(st, 1, device_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, benchmark, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)t.nrows);
    sqlite3_int64 file_id = insert(im, ST_INSERT_FILE, path, err, errlen);
    int rc = file_id < 0 || insert_header(im, ST_INSERT_COLUMN, file_id, &t, err, errlen) != 0 ? -1
             : schema == &cr_schema_results  ? insert_results(im, device_id, file_id, &t, err, errlen)
             : schema == &cr_schema_metadata ? insert_metadata(im, file_id, &t, err, errlen)
                                             : insert_cells(im, file_id, &t, err, errlen);
    cr_csv_free(&t);
    return rc;
}

/* "opencl", 0 of "opencl-0-pthread-..."; "cuda", no index of "cuda". */
static void bind_backend_index(sqlite3_stmt *st, const char *dir)
{
    size_t b = strcspn(dir, "-");
    sqlite3_bind_text(st, 3, dir, (int)b, SQLITE_TRANSIENT);
    const char *idx = dir[b] == '-' ? dir + b + 1 : "";
    size_t digits = strspn(idx, "0123456789");
    if (digits > 0 && digits < 9 && (idx[digits] == '-' || idx[digits] == '\0'))
        sqlite3_bind_int(st, 4, atoi(idx));
    else
        sqlite3_bind_null(st, 4);
}

static int import_device(importer *im, sqlite3_int64 run_id, const char *run, const char *dir, char *err,
                         size_t errlen)
{
    char path[DB_PATH_LEN];
    if (db_path_join(path, sizeof path, run, dir) != 0)
        return cr_errf(err, errlen, "%s: path too long", run);
    sqlite3_stmt *st = im->st[ST_INSERT_DEVICE];
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, dir, -1, SQLITE_TRANSIENT);
    bind_backend_index(st, dir);
    sqlite3_int64 device_id = insert(im, ST_INSERT_DEVICE, path, err, errlen);
    if (device_id < 0)
        return -1;
    char **files;
    size_t n;
    if (db_list_dir(path, db_is_csv, &files, &n, err, errlen) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; ++i)
        rc = import_file(im, device_id, path, files[i], err, errlen);
    db_free_names(files, n);
    return rc;
}

static bool is_device_dir(const char *run, const char *name)
{
    char path[DB_PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", run, name);
    return db_is_subdir(run, name) && strcmp(name, "nodes") != 0 && db_holds_results(path);
}

/* The run's device directories ("" for a run directory that is itself one
 * device's) and its content hash. */
static int survey(const char *run, char ***devices, size_t *n, bool *has_log, content_hash *hash, char *err,
                  size_t errlen)
{
    if (db_refuse_unreadable_subdirs(run, err, errlen) != 0 ||
        db_list_dir(run, is_device_dir, devices, n, err, errlen) != 0)
        return -1;
    char log[DB_PATH_LEN + 16];
    snprintf(log, sizeof log, "%s/run-log.csv", run);
    *has_log = db_is_csv(run, "run-log.csv");
    hash->h = 1469598103934665603ull;
    if (*has_log && hash_file(hash, "run-log.csv", log, err, errlen) != 0)
        return -1;
    /* A directory of one device's CSVs, given alone: its own metadata makes
     * it one device's, whatever folders it holds, as the report reads it. */
    bool self = false;
    char **own;
    size_t nown;
    if (db_list_dir(run, db_is_csv, &own, &nown, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < nown; ++i)
        self = self || cr_schema_for(own[i]) == &cr_schema_metadata;
    db_free_names(own, nown);
    if (self) {
        db_free_names(*devices, *n);
        *devices = NULL;
        *n = 0;
        char **one = malloc(sizeof *one);
        if (one == NULL || (one[0] = strdup("")) == NULL) {
            free(one);
            return cr_errf(err, errlen, "out of memory");
        }
        *devices = one;
        *n = 1;
    }
    int rc = 0;
    for (size_t d = 0; d < *n && rc == 0; ++d) {
        char dir[DB_PATH_LEN];
        if (db_path_join(dir, sizeof dir, run, (*devices)[d]) != 0)
            return cr_errf(err, errlen, "%s: path too long", run);
        char **files;
        size_t nf;
        if (db_list_dir(dir, db_is_csv, &files, &nf, err, errlen) != 0)
            return -1;
        /* A device directory of logs only counts too. */
        hash_bytes(hash, (*devices)[d], strlen((*devices)[d]) + 1);
        for (size_t i = 0; i < nf && rc == 0; ++i) {
            char rel[1024], path[DB_PATH_LEN + 256];
            snprintf(rel, sizeof rel, "%s/%s", (*devices)[d], files[i]);
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            rc = hash_file(hash, rel, path, err, errlen);
        }
        db_free_names(files, nf);
    }
    return rc;
}

/* The run's host: the first 'host' of its metadata. */
static void run_host(importer *im, sqlite3_int64 run_id, char *host, size_t len)
{
    host[0] = '\0';
    sqlite3_stmt *st;
    char err[256];
    if (db_prepare(im->db, &st,
                   "SELECT m.value FROM metadata m JOIN files f ON f.id = m.file_id JOIN devices d "
                   "ON d.id = f.device_id WHERE d.run_id = ? AND m.key = 'host' AND m.value IS NOT NULL "
                   "ORDER BY d.dir, f.name LIMIT 1",
                   err, sizeof err) != 0)
        return;
    sqlite3_bind_int64(st, 1, run_id);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(host, len, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

static int finish_run(importer *im, sqlite3_int64 run_id, char *err, size_t errlen)
{
    char host[256];
    run_host(im, run_id, host, sizeof host);
    if (*host) {
        sqlite3_stmt *st;
        if (db_prepare(im->db, &st, "INSERT OR IGNORE INTO hosts(name) VALUES(?)", err, errlen) != 0)
            return -1;
        sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
        int rc = db_step_done(im->db, st, "hosts", err, errlen);
        sqlite3_finalize(st);
        if (rc != 0)
            return -1;
    }
    sqlite3_bind_int64(im->st[ST_FINISH_DEVICES], 1, run_id);
    if (db_step_done(im->db, im->st[ST_FINISH_DEVICES], "devices", err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(im->st[ST_FINISH_RUN], 1, run_id);
    db_bind_text_or_null(im->st[ST_FINISH_RUN], 2, host);
    return db_step_done(im->db, im->st[ST_FINISH_RUN], "runs", err, errlen);
}

/* Whether the run is in the database with this content; else deletes what
 * there is of it. */
static int unchanged_or_deleted(importer *im, const db_run_dir *r, const char *hash, bool *same, char *err,
                                size_t errlen)
{
    sqlite3_stmt *st = im->st[ST_FIND_RUN];
    sqlite3_bind_text(st, 1, r->path, -1, SQLITE_TRANSIENT);
    *same = sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), hash) == 0;
    sqlite3_reset(st);
    if (*same)
        return 0;
    sqlite3_bind_text(im->st[ST_DELETE_RUN], 1, r->path, -1, SQLITE_TRANSIENT);
    return db_step_done(im->db, im->st[ST_DELETE_RUN], r->path, err, errlen);
}

static int import_run(importer *im, const db_run_dir *r, db_import_summary *sum, char *err, size_t errlen)
{
    char **devices = NULL;
    size_t n = 0;
    bool has_log;
    content_hash hash;
    if (survey(r->path, &devices, &n, &has_log, &hash, err, errlen) != 0) {
        db_free_names(devices, n);
        return -1;
    }
    /* A node of a cluster may have stopped before writing anything: it is
     * imported as such, to be reported. A run of one machine must hold a
     * device directory (one whose name begins with a dot is none). */
    if (n == 0 && r->cluster[0] == '\0') {
        db_free_names(devices, n);
        return cr_errf(err, errlen, "%s: not a run: no device directory of CSVs or logs%s", r->path,
                       has_log ? " (its run-log.csv alone holds no figure)" : " and no run-log.csv");
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash.h);
    bool same;
    int rc = unchanged_or_deleted(im, r, hex, &same, err, errlen);
    ++sum->runs;
    if (rc == 0 && same) {
        ++sum->unchanged;
        db_free_names(devices, n);
        return 0;
    }
    sqlite3_stmt *st = im->st[ST_INSERT_RUN];
    const char *name = strrchr(r->path, '/') ? strrchr(r->path, '/') + 1 : r->path;
    sqlite3_bind_text(st, 1, r->path, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    db_bind_text_or_null(st, 3, r->cluster);
    sqlite3_bind_text(st, 4, r->node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, hex, -1, SQLITE_TRANSIENT);
    sqlite3_int64 run_id = rc == 0 ? insert(im, ST_INSERT_RUN, r->path, err, errlen) : -1;
    rc = run_id < 0 ? -1 : 0;
    size_t before = im->rows;
    for (size_t d = 0; d < n && rc == 0; ++d)
        rc = import_device(im, run_id, r->path, devices[d], err, errlen);
    db_free_names(devices, n);
    if (rc == 0 && has_log) {
        char log[DB_PATH_LEN + 16];
        snprintf(log, sizeof log, "%s/run-log.csv", r->path);
        cr_csv_table t;
        rc = cr_csv_load(&t, log, &cr_schema_run_log, err, errlen);
        if (rc == 0) {
            rc = insert_run_log(im, run_id, &t, err, errlen);
            cr_csv_free(&t);
        }
    }
    if (rc == 0)
        rc = finish_run(im, run_id, err, errlen);
    sum->rows += im->rows - before;
    return rc;
}

static long test_hook(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : -1;
}

/* "RUN: cannot write the database: why" in place of "why". */
static void name_the_run(const char *run, char *err, size_t errlen)
{
    char *why = strdup(err);
    if (why != NULL)
        cr_errf(err, errlen, "%s: cannot write the database: %s", run, why);
    free(why);
}

int db_import(sqlite3 *db, const char *const *dirs, size_t ndirs, db_import_summary *sum, char *err, size_t errlen)
{
    *sum = (db_import_summary){0};
    importer im = {.db = db, .kill_after = test_hook("CROSSROOF_DB_KILL_AFTER_ROWS")};
    db_forget_failure();
    /* The test hook of a full database: no more pages than that. */
    long max_pages = test_hook("CROSSROOF_DB_MAX_PAGES");
    if (max_pages > 0) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA max_page_count = %ld;", max_pages);
        sqlite3_exec(db, pragma, NULL, NULL, NULL);
    }
    if (prepare_all(&im, err, errlen) != 0) {
        finalize_all(&im);
        return -1;
    }
    /* A run's records touch pages of every index: a cache that holds them
     * spares rewriting them to the journal and the file time and again. */
    int rc = db_exec(db, "PRAGMA cache_size = -65536; BEGIN IMMEDIATE;", "import", err, errlen);
    for (size_t i = 0; i < ndirs && rc == 0; ++i) {
        db_run_dir *runs;
        size_t n;
        if (db_find_runs(dirs[i], &runs, &n, err, errlen) != 0) {
            rc = -1;
            break;
        }
        if (n == 0)
            rc = cr_errf(err, errlen, "%s: a cluster run with no node directory under nodes/", dirs[i]);
        for (size_t k = 0; k < n && rc == 0; ++k)
            if ((rc = import_run(&im, &runs[k], sum, err, errlen)) != 0 && db_write_failed())
                name_the_run(runs[k].path, err, errlen);
        free(runs);
    }
    finalize_all(&im);
    if (rc == 0)
        rc = db_exec(db, "COMMIT;", "import", err, errlen);
    if (rc != 0) {
        sqlite3_exec(db, "ROLLBACK;", NULL, NULL, NULL);
        *sum = (db_import_summary){0};
    }
    return rc;
}
