/* What the results database refuses to take on trust: a batch state or a
 * list of expected nodes that the cluster scripts never write, a list of
 * expected nodes of any length (read in n log n), a database of other
 * tables, a task its run log says failed offered as a device's best, and a
 * benchmark that no descriptor knows. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "db/cluster.h"
#include "db/import.h"
#include "db/query.h"
#include "db/schema.h"

#include "db/tests/db_fixtures.h"
#include "db/tests/db_query_out.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch[128];
CR_SCRATCH_FIXTURES(scratch, "db-guards")

static sqlite3 *open_fresh(const char *name)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    unlink(path);
    sqlite3 *db;
    if (db_open(path, &db, err, sizeof err) != 0)
        fail_msg("open %s: %s", path, err);
    return db;
}

static int import_dir(sqlite3 *db, const char *dir, char *err, size_t errlen)
{
    db_import_summary sum;
    const char *dirs[] = {dir};
    return db_import(db, dirs, 1, &sum, err, errlen);
}

/* The cluster run of db_fixtures.h in a fresh database, its lists as given
 * (NULL: none). */
static sqlite3 *cluster_with(const char *name, const char *nodes_csv, const char *expected, fixture_run *c)
{
    *c = make_cluster_run(scratch, name);
    char path[700];
    snprintf(path, sizeof path, "%s/expected-nodes", c->path);
    unlink(path);
    if (expected)
        put_file(c->path, "expected-nodes", expected);
    if (nodes_csv)
        put_file(c->path, "nodes.csv", nodes_csv);
    char db_name[300], err[1024];
    snprintf(db_name, sizeof db_name, "%s.db", name);
    sqlite3 *db = open_fresh(db_name);
    if (import_dir(db, c->path, err, sizeof err) != 0)
        fail_msg("import %s: %s", c->path, err);
    return db;
}

/* Loads the cluster; returns its status, err and c as left. */
static int load(sqlite3 *db, const fixture_run *run, db_cluster *c, char *err, size_t errlen)
{
    err[0] = '\0';
    int rc = db_cluster_load(db, run->path, NAN, c, err, errlen);
    if (rc == 0)
        db_cluster_free(c);
    return rc;
}

static void expect_refused(const char *name, const char *nodes_csv, const char *expected, const char *why)
{
    fixture_run run;
    sqlite3 *db = cluster_with(name, nodes_csv, expected, &run);
    db_cluster c;
    char err[1024];
    assert_int_equal(load(db, &run, &c, err, sizeof err), -1);
    if (strstr(err, why) == NULL)
        fail_msg("%s: '%s' does not hold '%s'", name, err, why);
    assert_null(strchr(err, '\n'));
    sqlite3_close(db);
}

static const char nodes_header[] = "node,state,exit_code,job_id,started,finished,dir\n";

static void test_a_batch_state_the_scripts_never_write_is_refused(void **state)
{
    (void)state;
    char text[512];
    static const char *const states[] = {"ok", "finished", "", "PASSED"};
    for (size_t i = 0; i < sizeof states / sizeof *states; ++i) {
        snprintf(text, sizeof text, "%sn1,passed,0,41,,,nodes/n1\nn2,%s,1,42,,,nodes/n2\n", nodes_header, states[i]);
        expect_refused("states", text, NULL, "nodes.csv:3: ");
    }
    /* Every state the scripts write is taken. */
    fixture_run run;
    snprintf(text, sizeof text, "%sn1,interrupted,143,41,,,\nn2,failed,1,42,,,\nn3,passed,0,43,,,\nn4,error,2,,,,\n"
             "n5,missing,,,,,\n", nodes_header);
    sqlite3 *db = cluster_with("all-states", text, NULL, &run);
    db_cluster c;
    char err[1024];
    assert_int_equal(db_cluster_load(db, run.path, NAN, &c, err, sizeof err), 0);
    assert_int_equal(db_cluster_nodes_not_ok(&c), 4);
    db_cluster_free(&c);
    sqlite3_close(db);
}

static void test_expected_nodes_hold_node_names_only(void **state)
{
    (void)state;
    /* A NUL would end the line there, and the name after it be lost. */
    static const char nul_list[] = "n1\nn2\nn5\0n6\n";
    fixture_run run = make_cluster_run(scratch, "nul-cluster");
    char path[700];
    snprintf(path, sizeof path, "%s/expected-nodes", run.path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(nul_list, 1, sizeof nul_list - 1, f), sizeof nul_list - 1);
    fclose(f);
    sqlite3 *db = open_fresh("nul.db");
    char err[1024];
    assert_int_equal(import_dir(db, run.path, err, sizeof err), 0);
    db_cluster c;
    assert_int_equal(load(db, &run, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected-nodes:3: "));
    sqlite3_close(db);
    expect_refused("binary", NULL, "n1\n\x01\x7f\n", "expected-nodes:2: ");
    expect_refused("not-utf8", NULL, "n1\nn2\n\xff\xfe\n", "expected-nodes:3: ");
    expect_refused("blank-inside", NULL, "n1\nn 5\n", "expected-nodes:2: ");
    expect_refused("slash", NULL, "n1\nn2\n../etc\n", "expected-nodes:3: ");
    expect_refused("dot", NULL, ".hidden\n", "expected-nodes:1: ");
    /* Blanks around a name, a comment, CRLF and a blank line are no fault. */
    db = cluster_with("fair-list", NULL, "n1\r\n  n2 \t\n# the batch\n\nnode-7.a_b\n", &run);
    assert_int_equal(db_cluster_load(db, run.path, NAN, &c, err, sizeof err), 0);
    assert_int_equal(c.nnodes, 4);
    assert_string_equal(c.nodes[3].name, "node-7.a_b");
    assert_string_equal(c.nodes[3].status, "missing");
    db_cluster_free(&c);
    sqlite3_close(db);
}

/* 100,000 names, a thousand of them twice, and the nodes that ran among
 * them: each missing one added once, the batch system's word on each taken.
 * A quadratic search would take minutes. */
static void test_a_long_list_of_expected_nodes(void **state)
{
    (void)state;
    enum { N = 100000 };
    char *text = malloc((size_t)N * 2 * 12 + 32);
    assert_non_null(text);
    size_t at = 0;
    for (int i = N; i >= 1; --i)
        at += (size_t)sprintf(text + at, "n%d\n", i);
    for (int i = 1; i <= 1000; ++i)
        at += (size_t)sprintf(text + at, "n%d\n", i);
    /* The batch system's word on each, as gather.sh writes it. */
    char *states = malloc((size_t)N * 24 + 64);
    assert_non_null(states);
    size_t n = (size_t)sprintf(states, "%s", nodes_header);
    for (int i = 1; i <= N; ++i)
        n += (size_t)sprintf(states + n, "n%d,%s,,,,,\n", i, i <= 3 ? "passed" : "missing");
    fixture_run run;
    sqlite3 *db = cluster_with("long-list", states, text, &run);
    free(text);
    free(states);
    db_cluster c;
    char err[1024];
    assert_int_equal(db_cluster_load(db, run.path, NAN, &c, err, sizeof err), 0);
    assert_int_equal(c.nnodes, N);
    assert_string_equal(c.nodes[3].name, "n100000");
    assert_string_equal(c.nodes[N - 1].name, "n4");
    assert_string_equal(c.nodes[N - 1].reason, "batch: missing; listed in expected-nodes; no directory under nodes/");
    db_cluster_free(&c);
    sqlite3_close(db);
}

static void test_a_database_of_other_tables_is_refused_unchanged(void **state)
{
    (void)state;
    char path[256], err[1024];
    snprintf(path, sizeof path, "%s/foreign.db", scratch);
    unlink(path);
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "CREATE TABLE accounts(id INTEGER, owner TEXT);", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    sqlite3 *db = NULL;
    assert_int_equal(db_open(path, &db, err, sizeof err), -1);
    assert_null(db);
    assert_non_null(strstr(err, "foreign.db: not a crossroof database: it holds tables of its own"));
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(before.st_size, after.st_size);
    /* One of this version with other tables is not this schema. */
    db = open_fresh("versioned.db");
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE TABLE runs(id INTEGER); PRAGMA user_version = %d;", sqlite3_column_int(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    snprintf(path, sizeof path, "%s/impostor.db", scratch);
    unlink(path);
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(db_open(path, &db, err, sizeof err), -1);
    assert_non_null(strstr(err, "impostor.db: not this tool's schema"));
}

/* A run whose stream task failed after it wrote a higher triad than the
 * run that passed: that figure is no device's best. */
static void test_best_leaves_out_a_failed_task(void **state)
{
    (void)state;
    static const fixture passed = {"h1", "2026-01-01T00:00:00Z", "Dev X", 90, 200, NULL, NULL};
    static const fixture failing = {"h1", "2026-02-01T00:00:00Z", "Dev X", 500, 100, NULL, NULL};
    char root[300], err[1024];
    snprintf(root, sizeof root, "%s/best", scratch);
    make_dir(root);
    fixture_run a = make_run(root, "a", &passed), b = make_run(root, "b", &failing);
    put_file(b.path, "run-log.csv",
             "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
             "stream-opencl,opencl,0,Dev X,opencl-0-dev,failed,1,1.5,quick,2026-02-01T00:00:00Z,exit 1: boom\n"
             "latency-opencl,opencl,0,Dev X,opencl-0-dev,passed,0,0.5,quick,2026-02-01T00:00:00Z,\n");
    sqlite3 *db = open_fresh("best.db");
    assert_int_equal(import_dir(db, a.path, err, sizeof err), 0);
    assert_int_equal(import_dir(db, b.path, err, sizeof err), 0);
    char *out = query(db, 0, "best", 0, NULL, err, sizeof err);
    char latency[600], triad[600];
    snprintf(latency, sizeof latency, "h1,Dev X,opencl,latency,memory,uint64,100,ns,lower,2026-02-01T00:00:00Z,%s\n",
             b.path);
    snprintf(triad, sizeof triad, "h1,Dev X,opencl,stream,triad,double,90,GB/s,higher,2026-01-01T00:00:00Z,%s\n",
             a.path);
    if (strstr(out, latency) == NULL || strstr(out, triad) == NULL)
        fail_msg("best:\n%s", out);
    free(out);
    sqlite3_close(db);
}

static void test_an_unknown_benchmark_is_refused(void **state)
{
    (void)state;
    char err[1024];
    sqlite3 *db = open_fresh("unknown.db");
    char *across_devices[] = {"straem", "triad"};
    free(query(db, 2, "figure-across-devices", 2, across_devices, err, sizeof err));
    assert_non_null(strstr(err, "'straem': no benchmark of that name"));
    char *across_runs[] = {"Dev", "straem", "triad", "double"};
    free(query(db, 2, "figure-across-runs", 4, across_runs, err, sizeof err));
    assert_non_null(strstr(err, "'straem': no benchmark of that name"));
    char *best[] = {"straem"};
    free(query(db, 2, "best", 1, best, err, sizeof err));
    assert_non_null(strstr(err, "'straem': no benchmark of that name"));
    char *known[] = {"stream", "triad"};
    free(query(db, 0, "figure-across-devices", 2, known, err, sizeof err));
    sqlite3_close(db);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_a_batch_state_the_scripts_never_write_is_refused,
          test_expected_nodes_hold_node_names_only, test_a_long_list_of_expected_nodes,
          test_a_database_of_other_tables_is_refused_unchanged, test_best_leaves_out_a_failed_task,
          test_an_unknown_benchmark_is_refused)
