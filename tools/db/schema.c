#define _POSIX_C_SOURCE 200809L
#include "db/schema.h"

#include "csv.h"
#include "db/sql.h"
#include "error.h"
#include "shared/descriptors.h"

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* One row per results row: the columns of common/results.h, typed. The
 * other tables hang off runs with ON DELETE CASCADE, so that a run
 * imported again is replaced by deleting it and inserting it anew. */
static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS hosts(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE IF NOT EXISTS runs(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  path TEXT NOT NULL UNIQUE,\n"
    "  name TEXT NOT NULL,\n"
    "  cluster TEXT,\n"
    "  node TEXT NOT NULL,\n"
    "  host_id INTEGER REFERENCES hosts(id),\n"
    "  started TEXT,\n"
    "  mode TEXT,\n"
    "  content_hash TEXT NOT NULL,\n"
    "  imported TEXT NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS devices(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  dir TEXT NOT NULL,\n"
    "  backend TEXT,\n"
    "  device_index INTEGER,\n"
    "  name TEXT,\n"
    "  UNIQUE(run_id, dir));\n"
    "CREATE TABLE IF NOT EXISTS files(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,\n"
    "  name TEXT NOT NULL,\n"
    "  benchmark TEXT,\n"
    "  kind TEXT NOT NULL,\n"
    "  nrows INTEGER NOT NULL,\n"
    "  UNIQUE(device_id, name));\n"
    "CREATE TABLE IF NOT EXISTS metadata(\n"
    "  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,\n"
    "  line INTEGER NOT NULL,\n"
    "  key TEXT NOT NULL,\n"
    "  value TEXT,\n"
    "  PRIMARY KEY(file_id, key)) WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS rows(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,\n"
    "  device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,\n"
    "  line INTEGER NOT NULL,\n"
    "  benchmark TEXT NOT NULL, backend TEXT NOT NULL, device TEXT, variant TEXT, dtype TEXT, sweep TEXT,\n"
    "  size_bytes INTEGER, work_items INTEGER, work_group INTEGER, params TEXT,\n"
    "  bytes_per_rep REAL, ops_per_rep REAL, n INTEGER NOT NULL,\n"
    "  min_s REAL, median_s REAL, mean_s REAL, max_s REAL, stddev_s REAL, ci_rel REAL,\n"
    "  timer TEXT, stop TEXT, figure REAL, figure_best REAL, unit TEXT, ref_ratio REAL,\n"
    "  valid INTEGER NOT NULL, flags TEXT, cycles REAL,\n"
    "  energy_j REAL, power_w REAL, static_w REAL, pj_per_byte REAL, pj_per_op REAL, energy_sensor TEXT,\n"
    "  energy_interval_s REAL, note TEXT);\n"
    "CREATE TABLE IF NOT EXISTS params(\n"
    "  row_id INTEGER NOT NULL REFERENCES rows(id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL,\n"
    "  num REAL,\n"
    "  text TEXT NOT NULL,\n"
    "  PRIMARY KEY(row_id, key)) WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS cells(\n"
    "  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,\n"
    "  line INTEGER NOT NULL,\n"
    "  col TEXT NOT NULL,\n"
    "  value TEXT,\n"
    "  num REAL,\n"
    "  PRIMARY KEY(file_id, line, col)) WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS run_log(\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  line INTEGER NOT NULL,\n"
    "  task TEXT NOT NULL, backend TEXT, device_index INTEGER, device TEXT, dir TEXT,\n"
    "  status TEXT NOT NULL, exit_code INTEGER NOT NULL, seconds REAL NOT NULL,\n"
    "  mode TEXT, finished TEXT, reason TEXT,\n"
    "  PRIMARY KEY(run_id, line)) WITHOUT ROWID;\n"
    /* The header of every CSV, in its order, so that each file can be
     * read back from the database as the reader read it (db/tables.h). */
    "CREATE TABLE IF NOT EXISTS file_columns(\n"
    "  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,\n"
    "  pos INTEGER NOT NULL,\n"
    "  name TEXT NOT NULL,\n"
    "  PRIMARY KEY(file_id, pos)) WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS run_log_columns(\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  pos INTEGER NOT NULL,\n"
    "  name TEXT NOT NULL,\n"
    "  PRIMARY KEY(run_id, pos)) WITHOUT ROWID;\n"
    "CREATE INDEX IF NOT EXISTS rows_by_figure ON rows(benchmark, variant, dtype, device_id);\n"
    "CREATE INDEX IF NOT EXISTS rows_by_file ON rows(file_id);\n"
    "CREATE INDEX IF NOT EXISTS rows_by_device ON rows(device_id, benchmark, sweep);\n"
    "CREATE INDEX IF NOT EXISTS params_by_key ON params(key, num);\n"
    "CREATE INDEX IF NOT EXISTS metadata_by_key ON metadata(key);\n"
    "CREATE INDEX IF NOT EXISTS runs_by_cluster ON runs(cluster, node);\n"
    "CREATE INDEX IF NOT EXISTS devices_by_name ON devices(name, backend);\n"
    /* Which row of a benchmark is its headline figure for a variant and
     * data type: rows of this sweep (and unit, and parameter where given),
     * then the one that pick names; a row per benchmark, as its descriptor
     * says (insert_headline_rules). */
    "CREATE TABLE IF NOT EXISTS headline_rules(\n"
    "  benchmark TEXT NOT NULL,\n"
    "  sweep TEXT NOT NULL,\n"
    "  unit TEXT,\n"
    "  param_key TEXT,\n"
    "  param_value TEXT,\n"
    "  pick TEXT NOT NULL CHECK(pick IN ('only', 'largest-size', 'max')),\n"
    "  better TEXT NOT NULL CHECK(better IN ('higher', 'lower')),\n"
    "  what TEXT NOT NULL,\n"
    "  PRIMARY KEY(benchmark, sweep));\n"
    "CREATE VIEW IF NOT EXISTS benchmarks AS\n"
    "  SELECT benchmark AS name, COUNT(DISTINCT device_id) AS devices, COUNT(*) AS files FROM files\n"
    "  WHERE kind = 'results' GROUP BY benchmark;\n"
    /* Verified device rows only: host references and unverified rows are
     * never a headline, nor a cache level whose latency is memory's (its
     * row says not-a-cache-level: that level's figure is unknown). */
    "CREATE VIEW IF NOT EXISTS headlines AS\n"
    "WITH cand AS (\n"
    "  SELECT r.id AS row_id, r.device_id, r.benchmark, r.variant, IFNULL(r.dtype, '') AS dtype, r.figure,\n"
    "         r.unit, r.flags, h.better,\n"
    "         CASE h.pick WHEN 'largest-size' THEN -r.size_bytes WHEN 'max' THEN -r.figure ELSE r.line END AS ord\n"
    "  FROM rows r JOIN headline_rules h ON h.benchmark = r.benchmark AND h.sweep = r.sweep\n"
    "       AND (h.unit IS NULL OR h.unit = r.unit)\n"
    "  WHERE r.valid = 1 AND r.figure IS NOT NULL AND r.backend NOT LIKE 'host%'\n"
    "    AND (r.flags IS NULL OR ';' || r.flags || ';' NOT LIKE '%;not-a-cache-level;%')\n"
    "    AND (h.param_key IS NULL OR EXISTS (SELECT 1 FROM params p WHERE p.row_id = r.id\n"
    "                                        AND p.key = h.param_key AND p.text = h.param_value)))\n"
    "SELECT row_id, device_id, benchmark, variant, dtype, figure, unit, flags, better FROM (\n"
    "  SELECT *, row_number() OVER (PARTITION BY device_id, benchmark, variant, dtype ORDER BY ord, row_id) AS rk\n"
    "  FROM cand) WHERE rk = 1;\n";

/* The schema's version, in the file's user_version: a database of this
 * version is opened without a write, so that reading it or a refused
 * import leaves the file as it was, byte for byte. */
#define DB_SCHEMA_VERSION 4
/* How long an open waits for another writer before it gives up, unless
 * db_set_busy_wait says otherwise. */
#define DB_BUSY_WAIT_MS 10000
static int busy_wait_ms = DB_BUSY_WAIT_MS;

void db_set_busy_wait(int ms)
{
    busy_wait_ms = ms;
}

static int schema_version(sqlite3 *db, int *version, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st, "PRAGMA user_version;", err, errlen) != 0)
        return -1;
    int rc = sqlite3_step(st);
    *version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return cr_errf(err, errlen, "locked by another process, still after %g s of waiting for it",
                       busy_wait_ms / 1000.0);
    return cr_errf(err, errlen, "not a database: %s", sqlite3_errmsg(db));
}

/* The whole of a database's schema as SQLite keeps it, one text. */
static char *schema_text(sqlite3 *db)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT group_concat(type || ' ' || name || ' ' || IFNULL(sql, ''), ';') FROM "
                           "(SELECT * FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name)",
                           -1, &st, NULL) != SQLITE_OK)
        return NULL;
    char *text = NULL;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        text = sqlite3_mprintf("%s", t ? t : "");
    }
    sqlite3_finalize(st);
    return text;
}

/* Whether db's tables, indices and views are those this program creates,
 * as a database made now in memory has them: a file of this version but
 * of other tables would fail at its first query, naming a column. */
static bool schema_is_ours(sqlite3 *db)
{
    sqlite3 *model = NULL;
    bool same = false;
    if (sqlite3_open_v2(":memory:", &model, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_exec(model, schema_sql, NULL, NULL, NULL) == SQLITE_OK) {
        char *want = schema_text(model), *have = schema_text(db);
        same = want && have && strcmp(want, have) == 0;
        sqlite3_free(want);
        sqlite3_free(have);
    }
    sqlite3_close(model);
    return same;
}

/* Whether a database of version 0 holds no table: a new one, not another
 * program's, beside whose tables the schema would be set down. */
static bool holds_no_table(sqlite3 *db)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
        return false;
    bool empty = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == 0;
    sqlite3_finalize(st);
    return empty;
}

/* Each benchmark's headline rule, as its descriptor says (values bound,
 * never spliced into the statement). */
static int insert_headline_rules(sqlite3 *db, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st, "INSERT OR IGNORE INTO headline_rules VALUES (?, ?, ?, ?, ?, ?, ?, ?);", err, errlen) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < cr_ndescriptors; ++i) {
        const cr_headline *h = &cr_descriptors[i].headline;
        if (h->sweep == NULL)
            continue;
        const char *values[] = {cr_descriptors[i].name, h->sweep, h->unit, h->param_key, h->param_value, h->pick,
                                h->better, h->what};
        for (int k = 0; k < 8; ++k)
            sqlite3_bind_text(st, k + 1, values[k], -1, SQLITE_STATIC);
        rc = db_step_done(db, st, "headline rules", err, errlen);
    }
    sqlite3_finalize(st);
    return rc;
}

static int prepare_schema(sqlite3 *db, char *err, size_t errlen)
{
    /* Waits for another writer rather than failing at once. */
    sqlite3_busy_timeout(db, busy_wait_ms);
    int version;
    if (db_exec(db, "PRAGMA foreign_keys = ON;", "foreign keys", err, errlen) != 0 ||
        schema_version(db, &version, err, errlen) != 0)
        return -1;
    if (version == DB_SCHEMA_VERSION)
        return schema_is_ours(db) ? 0
                                  : cr_errf(err, errlen, "not this tool's schema: its user_version is %d but its "
                                                         "tables are others (rebuild it from the CSVs)", version);
    if (version == 0 && !holds_no_table(db))
        return cr_errf(err, errlen, "not a crossroof database: it holds tables of its own");
    if (version != 0)
        return cr_errf(err, errlen, "schema version %d, this program knows %d: rebuild it from the CSVs", version,
                       DB_SCHEMA_VERSION);
    char set_version[64];
    snprintf(set_version, sizeof set_version, "PRAGMA user_version = %d;", DB_SCHEMA_VERSION);
    if (db_exec(db, "BEGIN IMMEDIATE;", "schema", err, errlen) == 0 &&
        db_exec(db, schema_sql, "schema", err, errlen) == 0 && insert_headline_rules(db, err, errlen) == 0 &&
        db_exec(db, set_version, "schema", err, errlen) == 0 &&
        db_exec(db, "COMMIT;", "schema", err, errlen) == 0)
        return 0;
    sqlite3_exec(db, "ROLLBACK;", NULL, NULL, NULL);
    return -1;
}

static int finish_open(sqlite3 *db, int rc, const char *path, sqlite3 **out, char *err, size_t errlen)
{
    if (rc != SQLITE_OK) {
        cr_errf(err, errlen, "%s: cannot open the database: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        *out = NULL;
        return -1;
    }
    char why[512];
    if (prepare_schema(db, why, sizeof why) != 0) {
        cr_errf(err, errlen, "%s: %s", path, why);
        sqlite3_close(db);
        *out = NULL;
        return -1;
    }
    *out = db;
    return 0;
}

int db_open(const char *path, sqlite3 **out, char *err, size_t errlen)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    if (cr_mkdirs(dirname(dir), err, errlen) != 0)
        return -1;
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    return finish_open(db, rc, path, out, err, errlen);
}

int db_open_memory(sqlite3 **out, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    return finish_open(db, rc, ":memory:", out, err, errlen);
}
