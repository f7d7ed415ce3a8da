#define _DEFAULT_SOURCE
#include "db/query.h"

#include "db/cluster.h"
#include "db/sql.h"
#include "error.h"
#include "shared/descriptors.h"
#include "shared/csv_schema.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char db_query_usage[] =
    "  figure-across-devices BENCHMARK VARIANT [DTYPE]\n"
    "      the headline figure of the newest run of every device (node, device, backend)\n"
    "  figure-across-runs DEVICE_SUBSTRING BENCHMARK VARIANT [DTYPE]\n"
    "      the headline figure of the devices whose name holds DEVICE_SUBSTRING, run by run\n"
    "  cluster CLUSTER_RUN_DIR [--below FRACTION]\n"
    "      every node's headline figures, their median and MAD, outliers and nodes not ok\n"
    "  compare RUN_A RUN_B\n"
    "      the headline figures of two imported runs paired by device (backend and index), with B/A;\n"
    "      a figure one run lacks is listed too, paired 'only in A' or 'only in B'\n"
    "  best [BENCHMARK [VARIANT]]\n"
    "      each device's best verified, unflagged headline figure over every run (node, device, backend)\n"
    "  headlines [RUN_DIR]\n"
    "      every headline figure (of one run, or of all)\n";

/* Every headline with where it comes from; ?1 benchmark, ?2 variant, ?3
 * data type or NULL for any. */
#define HEADLINES_WITH_RUNS                                                                                          \
    "WITH h AS (SELECT r.node, d.name AS device, d.backend, d.dir, h.dtype, h.figure, h.unit, h.flags,"            \
    "  COALESCE(r.started, r.imported) AS started, r.path AS run, r.id AS run_id"                                  \
    "  FROM headlines h JOIN devices d ON d.id = h.device_id JOIN runs r ON r.id = d.run_id"                       \
    "  WHERE h.benchmark = ?1 AND h.variant = ?2 AND (?3 IS NULL OR h.dtype = ?3)) "

static const char across_devices_sql[] =
    HEADLINES_WITH_RUNS
    ", newest AS (SELECT *, row_number() OVER (PARTITION BY node, device, backend, dtype"
    "             ORDER BY started DESC, run_id DESC) AS rk FROM h) "
    "SELECT node, device, backend, dtype, figure, unit, flags, started, run FROM newest WHERE rk = 1 "
    "ORDER BY node, device, backend, dtype";

static const char across_runs_sql[] =
    HEADLINES_WITH_RUNS
    "SELECT started, run, node, device, backend, dtype, figure, unit, flags FROM h "
    "WHERE instr(device, ?4) > 0 OR instr(dir, ?4) > 0 ORDER BY started, run_id, device, dtype";

static const char headlines_sql[] =
    "SELECT r.node, d.name AS device, d.backend, h.benchmark, h.variant, h.dtype, h.figure, h.unit, h.flags, "
    " r.path AS run FROM headlines h JOIN devices d ON d.id = h.device_id JOIN runs r ON r.id = d.run_id "
    "WHERE ?1 IS NULL OR r.path = ?1 OR r.cluster = ?1 ORDER BY r.path, d.dir, h.benchmark, h.variant, h.dtype";

/* Devices paired as run_all.sh names their directories: backend and index.
 * A figure of one run that the other lacks is a row of its own, never left
 * out unsaid. */
#define SAME_FIGURE(x, y)                                                                                           \
    x ".pair = " y ".pair AND " x ".benchmark = " y ".benchmark AND " x ".variant = " y ".variant AND " x          \
    ".dtype = " y ".dtype AND " x ".unit = " y ".unit"
static const char compare_sql[] =
    "WITH side AS (SELECT r.path AS run, d.backend || IFNULL('-' || d.device_index, '') AS pair, d.name AS device,"
    "  h.benchmark, h.variant, h.dtype, h.figure, h.unit, h.flags"
    "  FROM headlines h JOIN devices d ON d.id = h.device_id JOIN runs r ON r.id = d.run_id),"
    " a AS (SELECT * FROM side WHERE run = ?1), b AS (SELECT * FROM side WHERE run = ?2) "
    "SELECT * FROM ("
    " SELECT a.pair AS device, a.benchmark, a.variant, a.dtype, a.unit, a.figure AS a, b.figure AS b,"
    "  CASE WHEN a.figure <> 0 THEN b.figure / a.figure END AS b_over_a, a.flags AS a_flags, b.flags AS b_flags,"
    "  CASE WHEN b.run IS NULL THEN 'only in A' ELSE 'both' END AS paired"
    " FROM a LEFT JOIN b ON " SAME_FIGURE("b", "a") " UNION ALL"
    " SELECT b.pair, b.benchmark, b.variant, b.dtype, b.unit, NULL, b.figure, NULL, NULL, b.flags, 'only in B'"
    " FROM b WHERE NOT EXISTS (SELECT 1 FROM a WHERE " SAME_FIGURE("a", "b") ")) "
    "ORDER BY device, benchmark, variant, dtype";

/* Each device's best headline over its runs, as its benchmark's descriptor
 * says which way is better; flagged figures (above a peak, unstable, ...)
 * and those of a task that did not pass are no best. ?1 benchmark, ?2 variant, or NULL for any. */
static const char best_sql[] =
    "WITH h AS (SELECT r.node, d.name AS device, d.backend, h.benchmark, h.variant, h.dtype, h.figure, h.unit,"
    "  h.better, COALESCE(r.started, r.imported) AS started, r.path AS run, r.id AS run_id"
    "  FROM headlines h JOIN devices d ON d.id = h.device_id JOIN runs r ON r.id = d.run_id"
    "  JOIN rows w ON w.id = h.row_id JOIN files f ON f.id = w.file_id"
    "  WHERE IFNULL(h.flags, '') = '' AND (?1 IS NULL OR h.benchmark = ?1) AND (?2 IS NULL OR h.variant = ?2)"
    /* The task that wrote the file, as the run log last records it, passed:
     * a task that failed may have written figures before it did. */
    "  AND IFNULL((SELECT l.status FROM run_log l WHERE l.run_id = r.id AND l.dir = d.dir"
    "              AND l.task || '.csv' = f.name ORDER BY l.line DESC LIMIT 1), 'passed') = 'passed'),"
    " ranked AS (SELECT *, row_number() OVER (PARTITION BY node, device, backend, benchmark, variant, dtype"
    "  ORDER BY CASE better WHEN 'lower' THEN figure ELSE -figure END, started DESC, run_id DESC) AS rk FROM h) "
    "SELECT node, device, backend, benchmark, variant, dtype, figure, unit, better, started, run FROM ranked "
    "WHERE rk = 1 ORDER BY node, device, backend, benchmark, variant, dtype";

static int run_sql(sqlite3 *db, const char *sql, const char *const *binds, int nbinds, FILE *out, char *err,
                   size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st, sql, err, errlen) != 0)
        return 1;
    for (int i = 0; i < nbinds; ++i)
        if (binds[i])
            sqlite3_bind_text(st, i + 1, binds[i], -1, SQLITE_TRANSIENT);
    long rows = db_print_csv(db, st, out, err, errlen);
    sqlite3_finalize(st);
    return rows < 0 ? 1 : 0;
}

int db_parse_below(int argc, char **argv, double *below, char *err, size_t errlen)
{
    *below = NAN;
    if (argc == 0)
        return 0;
    if (strcmp(argv[0], "--below") != 0)
        return cr_errf(err, errlen, "'%s': only --below FRACTION may follow the cluster run", argv[0]);
    if (argc < 2)
        return cr_errf(err, errlen, "--below needs a fraction of the median (0 < FRACTION <= 1)");
    if (argc > 2)
        return cr_errf(err, errlen, "'%s' is extra", argv[2]);
    double v;
    if (cr_number_fault(argv[1], &v) != NULL || !(v > 0 && v <= 1))
        return cr_errf(err, errlen, "--below '%s': not a fraction of the median (0 < FRACTION <= 1)", argv[1]);
    *below = v;
    return 0;
}

static int cluster_query(sqlite3 *db, int argc, char **argv, FILE *out, char *err, size_t errlen)
{
    double below;
    char path[PATH_MAX];
    if (db_parse_below(argc - 1, argv + 1, &below, err, errlen) != 0)
        return 2;
    if (realpath(argv[0], path) == NULL)
        return cr_errf(err, errlen, "%s: no such directory", argv[0]), 2;
    db_cluster c;
    if (db_cluster_load(db, path, below, &c, err, errlen) != 0)
        return 2;
    int rc = db_cluster_write_csv(out, &c);
    db_cluster_free(&c);
    return rc == 0 ? 0 : (cr_errf(err, errlen, "cannot write the output"), 1);
}

/* A run directory a query names (a run, or a cluster run whose nodes are
 * runs), as the database knows it: its real path into path; 2 with err
 * where it is no directory or was never imported (a query about it would
 * answer with nothing, as if it had no figures). */
static int imported_run(sqlite3 *db, const char *arg, char path[PATH_MAX], char *err, size_t errlen)
{
    struct stat st;
    if (realpath(arg, path) == NULL || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return cr_errf(err, errlen, "%s: no such directory", arg), 2;
    sqlite3_stmt *q;
    if (db_prepare(db, &q, "SELECT 1 FROM runs WHERE path = ?1 OR cluster = ?1 LIMIT 1", err, errlen) != 0)
        return 1;
    sqlite3_bind_text(q, 1, path, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW)
        return cr_errf(err, errlen, "%s: not in the database (import it first)", arg), 2;
    return 0;
}

/* 2 with err where name is no benchmark's (a query about it would answer
 * with a header alone, as if no device had run it). */
static int known_benchmark(const char *name, char *err, size_t errlen)
{
    if (name == NULL || cr_descriptor_named(name) != NULL)
        return 0;
    return cr_errf(err, errlen, "'%s': no benchmark of that name (see bench/*/descriptor)", name), 2;
}

static int arity(const char *name, int argc, int min, int max, const char *args, char *err, size_t errlen)
{
    if (argc >= min && argc <= max)
        return 0;
    return cr_errf(err, errlen, "query %s takes %s (%d given)", name, args, argc);
}

int db_query(sqlite3 *db, const char *name, int argc, char **argv, FILE *out, char *err, size_t errlen)
{
    if (strcmp(name, "figure-across-devices") == 0) {
        if (arity(name, argc, 2, 3, "BENCHMARK VARIANT [DTYPE]", err, errlen) != 0)
            return 2;
        if (known_benchmark(argv[0], err, errlen) != 0)
            return 2;
        const char *b[] = {argv[0], argv[1], argc > 2 ? argv[2] : NULL};
        return run_sql(db, across_devices_sql, b, 3, out, err, errlen);
    }
    if (strcmp(name, "figure-across-runs") == 0) {
        if (arity(name, argc, 3, 4, "DEVICE_SUBSTRING BENCHMARK VARIANT [DTYPE]", err, errlen) != 0)
            return 2;
        if (argv[0][0] == '\0')
            return cr_errf(err, errlen, "query %s: an empty DEVICE_SUBSTRING", name), 2;
        if (known_benchmark(argv[1], err, errlen) != 0)
            return 2;
        const char *b[] = {argv[1], argv[2], argc > 3 ? argv[3] : NULL, argv[0]};
        return run_sql(db, across_runs_sql, b, 4, out, err, errlen);
    }
    if (strcmp(name, "cluster") == 0) {
        if (arity(name, argc, 1, 3, "CLUSTER_RUN_DIR [--below FRACTION]", err, errlen) != 0)
            return 2;
        return cluster_query(db, argc, argv, out, err, errlen);
    }
    if (strcmp(name, "compare") == 0) {
        if (arity(name, argc, 2, 2, "RUN_A RUN_B", err, errlen) != 0)
            return 2;
        char a[PATH_MAX], b[PATH_MAX];
        int rc = imported_run(db, argv[0], a, err, errlen);
        if (rc == 0)
            rc = imported_run(db, argv[1], b, err, errlen);
        if (rc != 0)
            return rc;
        const char *binds[] = {a, b};
        return run_sql(db, compare_sql, binds, 2, out, err, errlen);
    }
    if (strcmp(name, "best") == 0) {
        if (arity(name, argc, 0, 2, "[BENCHMARK [VARIANT]]", err, errlen) != 0 ||
            known_benchmark(argc > 0 ? argv[0] : NULL, err, errlen) != 0)
            return 2;
        const char *b[] = {argc > 0 ? argv[0] : NULL, argc > 1 ? argv[1] : NULL};
        return run_sql(db, best_sql, b, 2, out, err, errlen);
    }
    if (strcmp(name, "headlines") == 0) {
        if (arity(name, argc, 0, 1, "[RUN_DIR]", err, errlen) != 0)
            return 2;
        char path[PATH_MAX];
        int rc = argc == 1 ? imported_run(db, argv[0], path, err, errlen) : 0;
        if (rc != 0)
            return rc;
        const char *b[] = {argc == 1 ? path : NULL};
        return run_sql(db, headlines_sql, b, 1, out, err, errlen);
    }
    cr_errf(err, errlen,
            "unknown query '%s' (known: figure-across-devices, figure-across-runs, cluster, compare, best, headlines)",
            name);
    return 2;
}
