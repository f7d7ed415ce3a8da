/* crossroof-db: the results database. Imports runs (their CSVs stay the source of
 * truth), answers named queries as CSV, and writes the report of a cluster
 * run. */
#define _GNU_SOURCE
#include "csv.h"
#include "db/cluster.h"
#include "db/import.h"
#include "db/query.h"
#include "db/schema.h"
#include "db/sql.h"
#include "shared/output_check.h"
#include "error.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROG "crossroof-db"
#define DEFAULT_DB "results/crossroof.db"

static const char usage_text[] =
    "usage: " PROG " [--db FILE] [--busy-wait MS] import RUN_DIR...\n"
    "       " PROG " [--db FILE] [--busy-wait MS] query NAME [ARGS...]\n"
    "       " PROG " [--db FILE] [--busy-wait MS] cluster-report CLUSTER_RUN_DIR [--below FRACTION]\n"
    "       " PROG " --help\n"
    "\n"
    "FILE is the SQLite database, " DEFAULT_DB " unless given. MS is how long to wait for\n"
    "another process that holds it locked before giving up, in milliseconds (0 to 3600000,\n"
    "default 10000). RUN_DIR is a run of run_all.sh\n"
    "(one directory per device, run-log.csv) or a cluster run (nodes/<node>/, each such a run).\n"
    "import reads every CSV through the suite's reader and refuses a run, FILE:LINE named,\n"
    "when one does not read; all the runs of one import go in together or not at all, and a\n"
    "run imported again replaces itself. Queries (CSV on stdout):\n"
    "%s"
    "cluster-report imports the cluster run and writes CLUSTER_RUN_DIR/cluster-report.md and\n"
    "cluster-report.csv. Exit status: 0 ok (outliers are findings, not errors); 1 a database\n"
    "that cannot be read or written (locked, full, read-only, not this tool's), a file that\n"
    "could not be written, or a cluster run without results; 2 bad usage (an unknown\n"
    "benchmark too), a directory that is not a run or cannot be read, a CSV or list of nodes\n"
    "that does not read, an entry under nodes/ that is no node's directory.\n";

#define die(status, ...) cr_die(PROG, status, __VA_ARGS__)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The database, or exit 1 naming it (and the run it was to take, where
 * there is one). */
static sqlite3 *open_db(const char *path, const char *run)
{
    sqlite3 *db;
    char err[4600];
    if (db_open(path, &db, err, sizeof err) != 0)
        die(1, "%s%s%s%s", err, run ? ": " : "", run ? run : "", run ? " not imported" : "");
    return db;
}

/* Imports the runs, or refuses them all: a database file the import
 * created (fresh) is then removed, so that a refusal leaves no empty one.
 * Bad runs exit 2; a database that cannot take them (read-only, full,
 * locked) exits 1, naming the run it was writing. */
static void import_or_die(sqlite3 *db, const char *db_path, bool fresh, const char *const *dirs, size_t n, bool quiet)
{
    char err[8192];
    db_import_summary sum;
    double t0 = now_s();
    if (db_import(db, dirs, n, &sum, err, sizeof err) != 0) {
        sqlite3_close(db);
        if (fresh)
            unlink(db_path);
        die(db_write_failed() ? 1 : 2, "%s", err);
    }
    if (!quiet)
        printf(PROG ": imported %zu run(s) (%zu unchanged), %zu rows, %.2f s into %s\n", sum.runs, sum.unchanged,
               sum.rows, now_s() - t0, db_path);
}

static int import(const char *db_path, int argc, char **argv)
{
    if (argc == 0)
        die(2, "import needs at least one run directory");
    bool fresh = access(db_path, F_OK) != 0;
    sqlite3 *db = open_db(db_path, argv[0]);
    import_or_die(db, db_path, fresh, (const char *const *)argv, (size_t)argc, false);
    sqlite3_close(db);
    return 0;
}

static int query(const char *db_path, int argc, char **argv)
{
    if (argc == 0)
        die(2, "query needs a name (see --help)");
    struct stat sb;
    if (stat(db_path, &sb) != 0)
        die(2, "%s: no database (import a run first)", db_path);
    sqlite3 *db = open_db(db_path, NULL);
    char err[4600];
    int rc = db_query(db, argv[0], argc - 1, argv + 1, stdout, err, sizeof err);
    sqlite3_close(db);
    if (rc != 0)
        die(rc, "%s", err);
    return 0;
}

static int write_csv(FILE *f, void *c)
{
    return db_cluster_write_csv(f, c);
}

static int write_md(FILE *f, void *c)
{
    return db_cluster_write_md(f, c);
}

static int cluster_report(const char *db_path, int argc, char **argv)
{
    if (argc == 0)
        die(2, "cluster-report needs the cluster run directory");
    char err[8192], path[PATH_MAX];
    double below;
    if (db_parse_below(argc - 1, argv + 1, &below, err, sizeof err) != 0)
        die(2, "cluster-report: %s", err);
    struct stat sb;
    if (realpath(argv[0], path) == NULL || stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        die(2, "%s: not a directory", argv[0]);
    bool fresh = access(db_path, F_OK) != 0;
    sqlite3 *db = open_db(db_path, path);
    const char *dirs[] = {path};
    import_or_die(db, db_path, fresh, dirs, 1, true);
    db_cluster c;
    if (db_cluster_load(db, path, below, &c, err, sizeof err) != 0) {
        sqlite3_close(db);
        die(2, "%s", err);
    }
    sqlite3_close(db);
    char md_path[PATH_MAX + 32], csv_path[PATH_MAX + 32];
    snprintf(md_path, sizeof md_path, "%s/cluster-report.md", path);
    snprintf(csv_path, sizeof csv_path, "%s/cluster-report.csv", path);
    const cr_file_out files[] = {{csv_path, write_csv, &c}, {md_path, write_md, &c}};
    if (cr_write_together(files, 2, err, sizeof err) != 0) {
        db_cluster_free(&c);
        die(1, "%s", err);
    }
    printf(PROG ": cluster report: %s and cluster-report.csv: %zu node(s), %zu figure(s), %zu outlier(s), "
                "%zu node(s) not ok\n",
           md_path, c.nnodes, c.nfigures, db_cluster_outliers(&c), db_cluster_nodes_not_ok(&c));
    int rc = c.nfigures == 0 ? 1 : 0;
    db_cluster_free(&c);
    if (rc)
        fprintf(stderr, PROG ": error: %s: no node has results\n", path);
    return rc;
}

/* The wait of --busy-wait MS, or exit 2 saying why not. */
static int busy_wait_of(const char *ms)
{
    char *end;
    errno = 0;
    long v = ms && *ms >= '0' && *ms <= '9' ? strtol(ms, &end, 10) : -1;
    if (v < 0 || v > 3600000 || errno != 0 || *end != '\0')
        die(2, "--busy-wait: '%s' is not a whole number of milliseconds from 0 to 3600000", ms ? ms : "");
    return (int)v;
}

/* The options before the command (--db FILE, --busy-wait MS, each once
 * at most, in either order); returns where the command is. */
static int leading_options(int argc, char **argv, const char **db_path)
{
    int i = 1;
    bool db = false, wait = false;
    for (; i < argc; i += 2) {
        if (strcmp(argv[i], "--db") == 0 && !db) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                die(2, "--db needs a file");
            *db_path = argv[i + 1];
            db = true;
        } else if (strcmp(argv[i], "--busy-wait") == 0 && !wait) {
            db_set_busy_wait(busy_wait_of(i + 1 < argc ? argv[i + 1] : NULL));
            wait = true;
        } else {
            break;
        }
    }
    return i;
}

int main(int argc, char **argv)
{
    cr_check_output_at_exit(PROG);
    const char *db_path = DEFAULT_DB;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf(usage_text, db_query_usage);
        return 0;
    }
    int i = leading_options(argc, argv, &db_path);
    if (i >= argc)
        die(2, "no command given: import, query or cluster-report (see --help)");
    const char *cmd = argv[i++];
    if (strcmp(cmd, "import") == 0)
        return import(db_path, argc - i, argv + i);
    if (strcmp(cmd, "query") == 0)
        return query(db_path, argc - i, argv + i);
    if (strcmp(cmd, "cluster-report") == 0)
        return cluster_report(db_path, argc - i, argv + i);
    die(2, "unknown command '%s' (import, query, cluster-report; see --help)", cmd);
}
