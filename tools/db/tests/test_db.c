/* The results database on small runs written here with known figures:
 * import (every row, its flags, its parameters typed), import again (no
 * duplicate), an import killed in its transaction and a corrupt CSV (the
 * database as before), the named queries' values, a cluster run with a
 * planted outlier, a failed node and a missing one, bad arguments, and
 * every CSV of a run read back from the database as from its file. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "db/cluster.h"
#include "db/import.h"
#include "db/query.h"
#include "db/run_dirs.h"
#include "db/schema.h"
#include "db/tables.h"

#include "db/tests/db_fixtures.h"
#include "db/tests/db_query_out.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[128];
CR_SCRATCH_FIXTURES(scratch, "db")

/* A fresh database file in the scratch directory. */
static sqlite3 *fresh_db(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", scratch, name);
    unlink(path);
    sqlite3 *db;
    char err[512];
    assert_int_equal(db_open(path, &db, err, sizeof err), 0);
    return db;
}

static int import_one(sqlite3 *db, const char *dir, char *err, size_t errlen)
{
    db_import_summary sum;
    const char *dirs[] = {dir};
    return db_import(db, dirs, 1, &sum, err, errlen);
}

static void must_import(sqlite3 *db, const char *dir)
{
    char err[1024] = "";
    int rc = import_one(db, dir, err, sizeof err);
    if (rc != 0)
        fail_msg("import %s: %s", dir, err);
}

/* A fresh database with the run at dir imported. */
static sqlite3 *fresh_db_with(const char *name, const char *dir)
{
    char path[256];
    sqlite3 *db = fresh_db(name, path, sizeof path);
    must_import(db, dir);
    return db;
}

static double scalar(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    double v = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
}

static char *text_of(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const unsigned char *t = sqlite3_column_text(st, 0);
    char *s = strdup(t ? (const char *)t : "(null)");
    sqlite3_finalize(st);
    return s;
}

/* Each of the texts is in out: the failure names the one that is not. */
static void expect_in_each(const char *out, const char *const *texts, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (strstr(out, texts[i]) == NULL)
            fail_msg("'%s' is not in:\n%s", texts[i], out);
}
#define expect_all_in(out, ...)                                                                                        \
    expect_in_each(out, (const char *const[]){__VA_ARGS__},                                                            \
                   sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* Everything of the database that an import could change, as one text. */
static char *dump(sqlite3 *db)
{
    return text_of(db, "SELECT (SELECT COUNT(*) FROM runs) || '/' || (SELECT COUNT(*) FROM devices) || '/' || "
                       "(SELECT COUNT(*) FROM files) || '/' || (SELECT COUNT(*) FROM rows) || '/' || "
                       "(SELECT COUNT(*) FROM params) || '/' || (SELECT COUNT(*) FROM metadata) || '/' || "
                       "(SELECT COUNT(*) FROM run_log) || '/' || (SELECT COUNT(*) FROM hosts) || '/' || "
                       "IFNULL((SELECT SUM(figure) FROM rows), 0) || '/' || "
                       "IFNULL((SELECT group_concat(path || '=' || content_hash) FROM runs), '')");
}

static const fixture host1_old = {"h1", "2026-01-01T00:00:00Z", "Dev X", 90, 200, NULL, NULL};
static const fixture host1_new = {"h1", "2026-02-01T00:00:00Z", "Dev X", 100, 210, NULL, NULL};
static const fixture host2 = {"h2", "2026-01-15T00:00:00Z", "Dev Y", 80, 300, NULL, NULL};

/* ---- import ---- */

static void test_import_keeps_every_row_flag_and_param(void **state)
{
    (void)state;
    sqlite3 *db = fresh_db_with("one.db", make_run(scratch, "one", &host1_new).path);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM runs"), 1);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM rows"), 4);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM rows WHERE valid = 0"), 1);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM metadata"), 5);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM run_log"), 2);
    assert_float_equal(scalar(db, "SELECT num FROM params WHERE key = 'host_limit_GBps'"), 30.5, 0);
    assert_true(isnan(scalar(db, "SELECT num FROM params WHERE key = 'kind'")));
    char *s = text_of(db, "SELECT text FROM params WHERE key = 'kind'");
    assert_string_equal(s, "triad");
    free(s);
    s = text_of(db, "SELECT flags FROM rows WHERE sweep = 'footprint'");
    assert_string_equal(s, "cache");
    free(s);
    s = text_of(db, "SELECT node || '|' || h.name || '|' || started || '|' || mode FROM runs "
                    "JOIN hosts h ON h.id = runs.host_id");
    assert_string_equal(s, "h1|h1|2026-02-01T00:00:00Z|quick");
    free(s);
    s = text_of(db, "SELECT name || '|' || backend || '|' || device_index FROM devices");
    assert_string_equal(s, "Dev X|opencl|0");
    free(s);
    /* The headline of stream is the verified fixed-size row, not the
     * footprint's 999 nor the unverified float. */
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM headlines WHERE benchmark = 'stream'"), 1);
    assert_float_equal(scalar(db, "SELECT figure FROM headlines WHERE benchmark = 'stream'"), 100, 0);
    sqlite3_close(db);
}

/* A cache level whose latency is memory's (its row flagged
 * not-a-cache-level) is no headline: the level's figure is unknown, and
 * exported as "latency L3" it would be memory's under the level's name. */
static void test_a_level_that_is_memory_is_no_headline(void **state)
{
    (void)state;
    fixture_run run = make_run(scratch, "levels", &host1_new);
    char path[700];
    snprintf(path, sizeof path, "%s/opencl-0-dev/latency-opencl.csv", run.path);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    row(f, "latency", "Dev X", "L2", "uint64", "level", "footprint=512", "4.5", "ns", 1, "");
    row(f, "latency", "Dev X", "L3", "uint64", "level", "footprint=16777216", "188", "ns", 1,
        "unstable;not-a-cache-level");
    assert_int_equal(fclose(f), 0);
    sqlite3 *db = fresh_db_with("levels.db", run.path);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM headlines WHERE benchmark = 'latency' AND variant = 'L2'"), 1);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM headlines WHERE benchmark = 'latency' AND variant = 'L3'"), 0);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM rows WHERE variant = 'L3'"), 1); /* imported all the same */
    sqlite3_close(db);
}

static void test_import_again_adds_nothing_and_replaces_a_changed_run(void **state)
{
    (void)state;
    fixture_run twice = make_run(scratch, "twice", &host1_new);
    sqlite3 *db = fresh_db_with("twice.db", twice.path);
    char *first = dump(db);
    must_import(db, twice.path);
    char *second = dump(db);
    assert_string_equal(first, second);
    /* The same run with a figure changed: replaced, not added. */
    fixture changed = host1_new;
    changed.triad = 111;
    make_run(scratch, "twice", &changed);
    must_import(db, twice.path);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM runs"), 1);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM rows"), 4);
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM params"), 4);
    assert_float_equal(scalar(db, "SELECT figure FROM headlines WHERE benchmark = 'stream'"), 111, 0);
    free(first);
    free(second);
    sqlite3_close(db);
}

static void read_file(const char *path, char **bytes, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    *bytes = malloc(*len + 1);
    assert_int_equal(fread(*bytes, 1, *len, f), *len);
    fclose(f);
}

static void test_killed_import_leaves_the_database_as_before(void **state)
{
    (void)state;
    fixture_run kept = make_run(scratch, "kept", &host1_old), killed = make_run(scratch, "killed", &host2);
    char path[256], journal[300];
    sqlite3 *db = fresh_db("killed.db", path, sizeof path);
    must_import(db, kept.path);
    char *before = dump(db);
    sqlite3_close(db);
    char *bytes_before;
    size_t len_before;
    read_file(path, &bytes_before, &len_before);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* Killed by itself after its third record, inside the transaction. */
        setenv("CROSSROOF_DB_KILL_AFTER_ROWS", "3", 1);
        sqlite3 *child;
        char err[512];
        if (db_open(path, &child, err, sizeof err) != 0)
            _exit(3);
        import_one(child, killed.path, err, sizeof err);
        _exit(4); /* not reached when the hook works */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    /* It died with a transaction open: its rollback journal is there. */
    snprintf(journal, sizeof journal, "%s-journal", path);
    assert_int_equal(access(journal, F_OK), 0);
    sqlite3 *again;
    char err[512];
    assert_int_equal(db_open(path, &again, err, sizeof err), 0);
    char *after = dump(again);
    assert_string_equal(before, after);
    sqlite3_close(again);
    char *bytes_after;
    size_t len_after;
    read_file(path, &bytes_after, &len_after);
    assert_int_equal(len_after, len_before);
    assert_memory_equal(bytes_after, bytes_before, len_before);
    free(bytes_before);
    free(bytes_after);
    free(before);
    free(after);
}

static void test_corrupt_csv_refused_with_file_and_line(void **state)
{
    (void)state;
    fixture_run good = make_run(scratch, "good", &host1_old);
    fixture bad = host2;
    bad.bad_figure = "fast";
    fixture_run baddir = make_run(scratch, "bad", &bad);
    sqlite3 *db = fresh_db_with("bad.db", good.path);
    char *before = dump(db);
    char err[1024] = "";
    /* The good run and the bad one in one import: neither goes in. */
    db_import_summary sum;
    const char *dirs[] = {good.path, baddir.path};
    must_import(db, good.path);
    assert_int_equal(db_import(db, dirs, 2, &sum, err, sizeof err), -1);
    char where[600];
    snprintf(where, sizeof where, "%s/opencl-0-dev/stream-opencl.csv:2: ", baddir.path);
    expect_all_in(err, where, "'fast'");
    assert_null(strchr(err, '\n'));
    char *after = dump(db);
    assert_string_equal(before, after);
    /* A directory that is not a run. */
    char empty[256];
    snprintf(empty, sizeof empty, "%s/empty", scratch);
    make_dir(empty);
    assert_int_equal(import_one(db, empty, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a run"));
    snprintf(empty, sizeof empty, "%s/absent", scratch);
    assert_int_equal(import_one(db, empty, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a directory"));
    free(before);
    free(after);
    sqlite3_close(db);
}

/* ---- queries ---- */

static sqlite3 *three_runs(char *path, size_t len)
{
    char dir[256];
    make_dir(strcat(strcpy(dir, scratch), "/many"));
    fixture_run a_old = make_run(dir, "a-old", &host1_old), a_new = make_run(dir, "a-new", &host1_new),
                b = make_run(dir, "b", &host2);
    sqlite3 *db = fresh_db("many.db", path, len);
    must_import(db, a_new.path);
    must_import(db, b.path);
    must_import(db, a_old.path);
    return db;
}

static void test_figure_across_devices_takes_each_newest_run(void **state)
{
    (void)state;
    char path[256], err[512], expected[2048];
    sqlite3 *db = three_runs(path, sizeof path);
    char *args[] = {"stream", "triad", "double"};
    char *out = query(db, 0, "figure-across-devices", 3, args, err, sizeof err);
    snprintf(expected, sizeof expected,
             "node,device,backend,dtype,figure,unit,flags,started,run\n"
             "h1,Dev X,opencl,double,100,GB/s,,2026-02-01T00:00:00Z,%s/many/a-new\n"
             "h2,Dev Y,opencl,double,80,GB/s,,2026-01-15T00:00:00Z,%s/many/b\n",
             scratch, scratch);
    assert_string_equal(out, expected);
    free(out);
    /* Without a data type: the unverified float is no headline. */
    out = query(db, 0, "figure-across-devices", 2, args, err, sizeof err);
    assert_string_equal(out, expected);
    free(out);
    sqlite3_close(db);
}

static void test_figure_across_runs_of_one_device(void **state)
{
    (void)state;
    char path[256], err[512], expected[2048];
    sqlite3 *db = three_runs(path, sizeof path);
    char *args[] = {"X", "latency", "memory", "uint64"};
    char *out = query(db, 0, "figure-across-runs", 4, args, err, sizeof err);
    snprintf(expected, sizeof expected,
             "started,run,node,device,backend,dtype,figure,unit,flags\n"
             "2026-01-01T00:00:00Z,%s/many/a-old,h1,Dev X,opencl,uint64,200,ns,\n"
             "2026-02-01T00:00:00Z,%s/many/a-new,h1,Dev X,opencl,uint64,210,ns,\n",
             scratch, scratch);
    assert_string_equal(out, expected);
    free(out);
    sqlite3_close(db);
}

/* three_runs() and a fourth run of x, scratch/name/run. */
static sqlite3 *three_runs_and(const char *name, const fixture *x, char *path, size_t len)
{
    char dir[256];
    sqlite3 *db = three_runs(path, len);
    make_dir(strcat(strcat(strcpy(dir, scratch), "/"), name));
    must_import(db, make_run(dir, "run", x).path);
    return db;
}

/* Two runs of one device paired by backend and index: the figure one of
 * them lacks (a-new's latency against a run whose latency failed) is a row
 * of its own, on the side that has it. */
static void test_compare_lists_what_it_cannot_pair(void **state)
{
    (void)state;
    char path[256], err[512];
    static const fixture no_latency = {"h1", "2026-03-01T00:00:00Z", "Dev X", 110, NAN, NULL, NULL};
    sqlite3 *db = three_runs_and("no-latency", &no_latency, path, sizeof path);
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/many/a-new", scratch);
    snprintf(b, sizeof b, "%s/no-latency/run", scratch);
    char *ab[] = {a, b}, *ba[] = {b, a};
    char *out = query(db, 0, "compare", 2, ab, err, sizeof err);
    assert_string_equal(out, "device,benchmark,variant,dtype,unit,a,b,b_over_a,a_flags,b_flags,paired\n"
                             "opencl-0,latency,memory,uint64,ns,210,,,,,only in A\n"
                             "opencl-0,stream,triad,double,GB/s,100,110,1.1,,,both\n");
    free(out);
    out = query(db, 0, "compare", 2, ba, err, sizeof err);
    assert_string_equal(out, "device,benchmark,variant,dtype,unit,a,b,b_over_a,a_flags,b_flags,paired\n"
                             "opencl-0,latency,memory,uint64,ns,,210,,,,only in B\n"
                             "opencl-0,stream,triad,double,GB/s,110,100,0.909090909,,,both\n");
    free(out);
    sqlite3_close(db);
}

/* Each device's best over its runs: the higher bandwidth, the lower
 * latency (their descriptors say which is better), never a flagged one
 * (the flagged run's 150 GB/s is above a peak). */
static void test_best_figure_of_each_device(void **state)
{
    (void)state;
    char path[256], err[512], expected[2048];
    static const fixture flagged = {"h1", "2026-03-01T00:00:00Z", "Dev X", 150, 220, NULL, "above-peak"};
    sqlite3 *db = three_runs_and("flagged", &flagged, path, sizeof path);
    char *out = query(db, 0, "best", 0, NULL, err, sizeof err);
    snprintf(expected, sizeof expected,
             "node,device,backend,benchmark,variant,dtype,figure,unit,better,started,run\n"
             "h1,Dev X,opencl,latency,memory,uint64,200,ns,lower,2026-01-01T00:00:00Z,%s/many/a-old\n"
             "h1,Dev X,opencl,stream,triad,double,100,GB/s,higher,2026-02-01T00:00:00Z,%s/many/a-new\n"
             "h2,Dev Y,opencl,latency,memory,uint64,300,ns,lower,2026-01-15T00:00:00Z,%s/many/b\n"
             "h2,Dev Y,opencl,stream,triad,double,80,GB/s,higher,2026-01-15T00:00:00Z,%s/many/b\n",
             scratch, scratch, scratch, scratch);
    assert_string_equal(out, expected);
    free(out);
    char *stream_only[] = {"stream", "triad"};
    out = query(db, 0, "best", 2, stream_only, err, sizeof err);
    expect_all_in(out, "h1,Dev X,opencl,stream,triad,double,100,", "h2,Dev Y,opencl,stream,triad,double,80,");
    assert_null(strstr(out, "latency"));
    free(out);
    char *three[] = {"a", "b", "c"};
    free(query(db, 2, "best", 3, three, err, sizeof err));
    expect_all_in(err, "query best takes [BENCHMARK [VARIANT]] (3 given)");
    sqlite3_close(db);
}

static fixture_run cluster; /* where cluster_run() wrote it */

/* make_cluster_run()'s cluster, imported into a fresh database. */
static sqlite3 *cluster_run(void)
{
    cluster = make_cluster_run(scratch, "cluster");
    return fresh_db_with("cluster.db", cluster.path);
}

static void test_cluster_names_the_outlier_and_the_failed_and_missing_nodes(void **state)
{
    (void)state;
    char err[512];
    sqlite3 *db = cluster_run();
    assert_int_equal(scalar(db, "SELECT COUNT(*) FROM runs WHERE cluster IS NOT NULL"), 3);
    char *s = text_of(db, "SELECT group_concat(node) FROM (SELECT node FROM runs ORDER BY node)");
    assert_string_equal(s, "n1,n2,n3");
    free(s);
    char *args[] = {cluster.path};
    char *out = query(db, 0, "cluster", 1, args, err, sizeof err);
    expect_all_in(out, "node,device,benchmark,variant,dtype,unit,value,median,mad,verdict,why\n",
                  /* Triad: median 100, deviations 0, 2 and 50, MAD 2: n3 is 25 MADs below. */
                  "n1,opencl-0,stream,triad,double,GB/s,100,100,2,ok,\n",
                  "n2,opencl-0,stream,triad,double,GB/s,102,100,2,ok,\n",
                  "n3,opencl-0,stream,triad,double,GB/s,50,100,2,outlier,25 MADs below the median\n",
                  /* Latency: n1 and n3 only, median 102, MAD 2: no outlier. */
                  "n3,opencl-0,latency,memory,uint64,ns,104,102,2,ok,\n",
                  "n2,,,,,,,,,failed,latency-opencl failed (exit 1: boom)\n", "n4,,,,,,,,,missing,");
    assert_null(strstr(out, "n2,opencl-0,latency"));
    assert_null(strstr(out, "n1,,,"));
    free(out);
    /* A fraction of the median: a latency above median / 0.99 is one. */
    char *below[] = {cluster.path, "--below", "0.99"};
    out = query(db, 0, "cluster", 3, below, err, sizeof err);
    expect_all_in(out,
                  "n3,opencl-0,latency,memory,uint64,ns,104,102,2,outlier,\"1.02 of the median, above 1 / 0.99\"\n",
                  "n1,opencl-0,latency,memory,uint64,ns,100,102,2,ok,\n");
    free(out);
    sqlite3_close(db);
}

static void test_cluster_markdown_side_by_side(void **state)
{
    (void)state;
    char err[512];
    sqlite3 *db = cluster_run();
    db_cluster c;
    assert_int_equal(db_cluster_load(db, cluster.path, NAN, &c, err, sizeof err), 0);
    assert_int_equal(c.nnodes, 4);
    assert_int_equal(c.nfigures, 2);
    assert_int_equal(db_cluster_outliers(&c), 1);
    assert_int_equal(db_cluster_nodes_not_ok(&c), 2);
    char *md = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    assert_int_equal(db_cluster_write_md(f, &c), 0);
    fclose(f);
    expect_all_in(md, "| device | figure | unit | median | MAD | n1 | n2 | n3 | n4 |",
                  "| opencl-0 | stream triad double | GB/s | 100 | 2 | 100 | 102 | **50** | \xe2\x80\x93 |",
                  "| n3 | opencl-0 | stream triad double | 50 GB/s | 100 | 25 MADs below the median |",
                  "| n2 | failed | latency-opencl failed (exit 1: boom) |", "| n4 | missing |");
    free(md);
    db_cluster_free(&c);
    sqlite3_close(db);
}

/* The batch system's word on each node, where the cluster run has one:
 * n1 killed by it, n2 failed (its run log says which task), n5 never
 * started and left no directory. */
static void test_cluster_takes_the_batch_states(void **state)
{
    (void)state;
    char err[512];
    sqlite3 *db = cluster_run();
    put_file(cluster.path, "nodes.csv",
             "node,state,exit_code,job_id,started,finished,dir\n"
             "n1,interrupted,143,41,,,nodes/n1\n"
             "n2,failed,1,42,,,nodes/n2\n"
             "n3,passed,0,43,,,nodes/n3\n"
             "n5,missing,,,,,\n");
    char *args[] = {cluster.path};
    char *out = query(db, 0, "cluster", 1, args, err, sizeof err);
    expect_all_in(out, "n1,,,,,,,,,interrupted,batch job 41: interrupted (exit 143)\n",
                  "n2,,,,,,,,,failed,latency-opencl failed (exit 1: boom)\n",
                  "n4,,,,,,,,,missing,listed in expected-nodes", "n5,,,,,,,,,missing,batch: missing\n",
                  /* n1's figures are shown all the same: what it measured
                   * before it was stopped. */
                  "n1,opencl-0,stream,triad,double,GB/s,100,100,2,ok,\n");
    assert_null(strstr(out, "n3,,,"));
    free(out);
    /* A list that does not read is refused, file and line named. */
    put_file(cluster.path, "nodes.csv", "node,state,exit_code,job_id\nn1,interrupted\n");
    out = query(db, 2, "cluster", 1, args, err, sizeof err);
    assert_non_null(strstr(err, "nodes.csv:2: "));
    free(out);
    char nodes_csv[600];
    snprintf(nodes_csv, sizeof nodes_csv, "%s/nodes.csv", cluster.path);
    unlink(nodes_csv);
    sqlite3_close(db);
}

/* A node whose run was stopped: its run log's last word on a task is
 * "interrupted". One that --resume finished later (a record after it) is
 * not. */
static void test_cluster_names_an_interrupted_node(void **state)
{
    (void)state;
    char err[512];
    cluster = make_cluster_run(scratch, "stopped-cluster");
    char log[700], dir[700];
    const char *header = "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n";
    snprintf(dir, sizeof dir, "%s/nodes/n1", cluster.path);
    snprintf(log, sizeof log,
             "%sstream-opencl,opencl,0,Dev X,opencl-0-dev,passed,0,1.5,quick,,\n"
             "atomics-opencl,opencl,0,Dev X,opencl-0-dev,interrupted,143,2.5,quick,,stopped by SIGTERM after 2.5 s\n"
             "sfu-opencl,opencl,0,Dev X,opencl-0-dev,interrupted,143,0,quick,,not started\n",
             header);
    put_file(dir, "run-log.csv", log);
    snprintf(dir, sizeof dir, "%s/nodes/n3", cluster.path);
    snprintf(log, sizeof log,
             "%sstream-opencl,opencl,0,Dev X,opencl-0-dev,passed,0,1.5,quick,,\n"
             "latency-opencl,opencl,0,Dev X,opencl-0-dev,interrupted,130,0.5,quick,,stopped by SIGINT after 0.5 s\n"
             "latency-opencl,opencl,0,Dev X,opencl-0-dev,passed,0,0.5,quick,,\n",
             header);
    put_file(dir, "run-log.csv", log);
    sqlite3 *db = fresh_db_with("stopped.db", cluster.path);
    char *args[] = {cluster.path};
    char *out = query(db, 0, "cluster", 1, args, err, sizeof err);
    expect_all_in(out,
                  "n1,,,,,,,,,interrupted,atomics-opencl (stopped by SIGTERM after 2.5 s); sfu-opencl (not started)\n",
                  /* What it measured before it was stopped is shown all the same. */
                  "n1,opencl-0,stream,triad,double,GB/s,100,100,2,ok,\n");
    assert_null(strstr(out, "n3,,,"));
    free(out);
    sqlite3_close(db);
}

/* ---- a run read back ---- */

/* The same field: the same text, or, for a number, the same number (the
 * database keeps numbers as numbers, 1.5e+09 comes back 1500000000). */
static void expect_same_field(const char *from_db, const char *from_file, const char *where)
{
    double a, b;
    if (strcmp(from_db, from_file) == 0)
        return;
    if (cr_number_fault(from_db, &a) == NULL && cr_number_fault(from_file, &b) == NULL && a == b)
        return;
    fail_msg("%s: '%s' from the database, '%s' in the file", where, from_db, from_file);
}

/* The CSV name of device dir (NULL: the run log) read back from the
 * database: the file's header in its order, its records with their lines,
 * every field. */
static void expect_read_back(sqlite3 *db, sqlite3_int64 run_id, const char *run, const char *dir, const char *name)
{
    char path[PATH_MAX + 512], err[1024] = "";
    snprintf(path, sizeof path, "%s%s%s/%s", run, dir && *dir ? "/" : "", dir ? dir : "", name);
    cr_csv_table file, back;
    if (cr_csv_load(&file, path, cr_schema_for(name), err, sizeof err) != 0 ||
        db_load_table(db, run_id, dir, name, &back, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(back.path, path);
    assert_int_equal(back.ncols, file.ncols);
    for (size_t c = 0; c < file.ncols; ++c)
        assert_string_equal(back.names[c], file.names[c]);
    assert_int_equal(back.nrows, file.nrows);
    for (size_t i = 0; i < file.nrows; ++i) {
        assert_int_equal(back.rows[i].line, file.rows[i].line);
        for (size_t c = 0; c < file.ncols; ++c) {
            char where[PATH_MAX + 600];
            snprintf(where, sizeof where, "%s:%u: %s", path, file.rows[i].line, file.names[c]);
            expect_same_field(back.rows[i].fields[c], file.rows[i].fields[c], where);
        }
    }
    cr_csv_free(&file);
    cr_csv_free(&back);
}

/* Every CSV of the run at run (absolute) read back; returns how many. */
static size_t expect_run_read_back(sqlite3 *db, const char *run)
{
    char err[1024] = "";
    sqlite3_int64 id;
    char **dirs;
    size_t ndirs, checked = 0;
    if (db_find_run(db, run, &id, err, sizeof err) != 0 || db_run_devices(db, id, &dirs, &ndirs, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (size_t d = 0; d < ndirs; ++d) {
        char **names, **on_disk, dir[PATH_MAX + 256];
        size_t n, n_disk;
        snprintf(dir, sizeof dir, "%s%s%s", run, *dirs[d] ? "/" : "", dirs[d]);
        if (db_device_files(db, id, dirs[d], &names, &n, err, sizeof err) != 0 ||
            db_list_dir(dir, db_is_csv, &on_disk, &n_disk, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(n, n_disk);
        for (size_t i = 0; i < n; ++i) {
            assert_string_equal(names[i], on_disk[i]);
            expect_read_back(db, id, run, dirs[d], names[i]);
        }
        checked += n;
        db_free_names(names, n);
        db_free_names(on_disk, n_disk);
    }
    db_free_names(dirs, ndirs);
    char log[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/run-log.csv", run);
    assert_int_equal(db_has_run_log(db, id), access(log, F_OK) == 0);
    if (db_has_run_log(db, id)) {
        expect_read_back(db, id, run, NULL, "run-log.csv");
        ++checked;
    }
    return checked;
}

static void test_every_csv_reads_back_as_from_its_file(void **state)
{
    (void)state;
    char path[512], real[PATH_MAX], odd[256];
    sqlite3 *db = fresh_db("read-back.db", path, sizeof path);
    /* The committed run of every benchmark (unit tests run from the source
     * tree's root). */
    assert_non_null(realpath("tools/shared/tests/data/run", real));
    must_import(db, real);
    assert_int_equal(expect_run_read_back(db, real), 18);

    /* A device directory given alone, whose files have a header in an
     * order of their own, columns added later left out, empty fields,
     * no record at all, quoted text and numbers in other forms. */
    snprintf(odd, sizeof odd, "%s/odd", scratch);
    make_dir(odd);
    put_file(odd, "stream-opencl.csv",
             "note,valid,figure,benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,"
             "params,bytes_per_rep,ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure_best,"
             "unit,ref_ratio\n"
             "\"a, \"\"quoted\"\" note\",1,4.0828e+01,stream,opencl,dev,triad,double,fixed,1024,16,,k=1;s=x,"
             "3.0e3,,5,1e-06,2e-06,2e-06,3e-06,0,0.01,event,max-reps,41,GB/s,0.5\n"
             ",0,0.1,stream,opencl,,copy,,fixed,18446744073709551615,,,,,,1,,,,,,,,,1.50,,\n");
    put_file(odd, "latency-opencl.csv", results_header);
    put_file(odd, "stream-opencl.meta.csv", "value,key\nTest,device.name\n,device.driver\n");
    put_file(odd, "custom-table.csv", "func,valid,max_ulp,note\nexp,1,inf,\nsin,0,,\"x,y\"\n");
    must_import(db, odd);
    assert_non_null(realpath(odd, real));
    assert_int_equal(expect_run_read_back(db, real), 4);
    sqlite3_close(db);
}

/* Four nodes alike to the digit and a fifth at 1 of their 20.48: the MAD
 * is 0, and the fifth is an outlier all the same; one 2% off is not. */
static void test_an_outlier_where_the_others_agree_exactly(void **state)
{
    (void)state;
    double values[] = {20.48, 20.48, 20.48, 20.48, 1, 20.0};
    db_figure f = {.values = values, .median = 20.48, .mad = 0};
    db_cluster c = {.below = NAN};
    char why[256];
    assert_false(db_cluster_outlier(&c, &f, 0, why, sizeof why));
    assert_true(db_cluster_outlier(&c, &f, 4, why, sizeof why));
    assert_string_equal(why, "95.1% below the median, where the other nodes agree within 1%");
    assert_false(db_cluster_outlier(&c, &f, 5, why, sizeof why));
}

static void test_median_and_mad(void **state)
{
    (void)state;
    double v[] = {4, NAN, 1, 100, 3, 2}, median, mad;
    db_median_mad(v, 6, &median, &mad);
    assert_float_equal(median, 3, 0);
    assert_float_equal(mad, 1, 0);
    double even[] = {1, 2, 3, 10};
    db_median_mad(even, 4, &median, &mad);
    assert_float_equal(median, 2.5, 0);
    assert_float_equal(mad, 1, 0);
    /* Nothing finite to summarise: no figure, not a zero. */
    double none[] = {NAN, INFINITY};
    db_median_mad(none, 2, &median, &mad);
    assert_true(isnan(median) && isnan(mad));
    db_median_mad(NULL, 0, &median, &mad);
    assert_true(isnan(median) && isnan(mad));
}

static void test_bad_queries(void **state)
{
    (void)state;
    char path[256], err[512];
    sqlite3 *db = three_runs(path, sizeof path);
    free(query(db, 2, "no-such-query", 0, NULL, err, sizeof err));
    assert_non_null(strstr(err, "unknown query 'no-such-query'"));
    char *one[] = {"stream"};
    free(query(db, 2, "figure-across-devices", 1, one, err, sizeof err));
    assert_non_null(strstr(err, "BENCHMARK VARIANT [DTYPE]"));
    char *empty[] = {"", "stream", "triad"};
    free(query(db, 2, "figure-across-runs", 3, empty, err, sizeof err));
    char absent[300];
    snprintf(absent, sizeof absent, "%s/nowhere", scratch);
    char *cluster[] = {absent};
    free(query(db, 2, "cluster", 1, cluster, err, sizeof err));
    char *bad_below[] = {scratch, "--below", "1.5"};
    free(query(db, 2, "cluster", 3, bad_below, err, sizeof err));
    assert_non_null(strstr(err, "0 < FRACTION <= 1"));
    char *not_cluster[] = {scratch};
    free(query(db, 2, "cluster", 1, not_cluster, err, sizeof err));
    assert_non_null(strstr(err, "no node of this cluster run"));
    sqlite3_close(db);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_a_level_that_is_memory_is_no_headline,
          test_import_keeps_every_row_flag_and_param,
          test_import_again_adds_nothing_and_replaces_a_changed_run, test_killed_import_leaves_the_database_as_before,
          test_corrupt_csv_refused_with_file_and_line, test_figure_across_devices_takes_each_newest_run,
          test_figure_across_runs_of_one_device, test_compare_lists_what_it_cannot_pair, test_best_figure_of_each_device,
          test_cluster_names_the_outlier_and_the_failed_and_missing_nodes,
          test_cluster_markdown_side_by_side, test_cluster_takes_the_batch_states,
          test_cluster_names_an_interrupted_node, test_an_outlier_where_the_others_agree_exactly, test_median_and_mad,
          test_bad_queries, test_every_csv_reads_back_as_from_its_file)
