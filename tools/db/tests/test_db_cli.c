/* End-to-end tests of the results database tool on runs written here:
 * import and import again, a corrupt run and a killed import leaving the
 * database as it was, a named query, the cluster report with its planted
 * outlier and failed and missing nodes, what lies under a cluster run's
 * nodes/ that is no node's directory, and bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "shared/tests/corrupt_inputs.h"

#include "db/tests/db_fixtures.h"

#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/un.h>

static const char *tool = "../tools/crossroof-db";

static const fixture node_ok = {"vm", "2026-03-01T00:00:00Z", "Dev X", 100, 100, NULL, NULL};

/* The database's size in records, as the tool answers it. */
static char *headline_count(const char *db)
{
    char args[512];
    snprintf(args, sizeof args, "--db %s query headlines", db);
    run_result r = run_with_status(0, NULL, tool, args);
    free(r.err);
    return r.out;
}

/* The run at dir imported into db, as it must be. */
static void import_into(const char *db, const char *dir)
{
    char args[1024];
    snprintf(args, sizeof args, "--db %s import %s", db, dir);
    run_result r = run_with_status(0, NULL, tool, args);
    run_free(&r);
}

static void test_import_twice_and_query(void **state)
{
    (void)state;
    make_run(tmp, "run", &node_ok);
    char args[512];
    snprintf(args, sizeof args, "--db %s/a.db import %s/run", tmp, tmp);
    run_result r = run_with_status(0, NULL, tool, args);
    expect_in(r.out, "crossroof-db: imported 1 run(s) (0 unchanged), 11 rows, ");
    assert_int_equal(count_lines(r.out), 1);
    run_free(&r);
    r = run_with_status(0, NULL, tool, args);
    expect_in(r.out, "crossroof-db: imported 1 run(s) (1 unchanged), 0 rows, ");
    run_free(&r);
    snprintf(args, sizeof args, "--db %s/a.db query figure-across-devices stream triad double", tmp);
    r = run_with_status(0, NULL, tool, args);
    char expected[1024];
    snprintf(expected, sizeof expected,
             "node,device,backend,dtype,figure,unit,flags,started,run\n"
             "vm,Dev X,opencl,double,100,GB/s,,2026-03-01T00:00:00Z,%s/run\n",
             tmp);
    /* The schema's version the file carries (SQLite's header: user_version,
     * 4 bytes big-endian at offset 60) is the one docs/database.md states. */
    unsigned char header[64];
    snprintf(args, sizeof args, "%s/a.db", tmp);
    FILE *f = fopen(args, "rb");
    assert_non_null(f);
    assert_int_equal(fread(header, 1, sizeof header, f), sizeof header);
    fclose(f);
    unsigned version = (unsigned)header[60] << 24 | (unsigned)header[61] << 16 | (unsigned)header[62] << 8 | header[63];
    char *doc = csv_slurp(CR_SOURCE_DIR "/docs/database.md");
    assert_non_null(doc);
    char documented[64];
    snprintf(documented, sizeof documented, "`user_version` (%u)", version);
    expect_in(doc, documented);
    free(doc);
    assert_string_equal(r.out, expected);
    run_free(&r);
}

static void test_refused_and_killed_imports_change_nothing(void **state)
{
    (void)state;
    fixture_run kept = make_run(tmp, "kept", &node_ok);
    fixture bad = node_ok;
    bad.bad_figure = "1e999";
    make_run(tmp, "corrupt", &bad);
    make_run(tmp, "other", &node_ok);
    char args[1024], db[300];
    snprintf(db, sizeof db, "%s/b.db", tmp);
    import_into(db, kept.path);
    char *before = headline_count(db);
    snprintf(args, sizeof args, "--db %s import %s/other %s/corrupt", db, tmp, tmp);
    run_result r = run(NULL, tool, args);
    char where[512];
    snprintf(where, sizeof where, "%s/corrupt/opencl-0-dev/stream-opencl.csv:2: ", tmp);
    expect_error_line(&r, tool, args, 2, where);
    run_free(&r);
    char *after = headline_count(db);
    assert_string_equal(before, after);
    free(after);
    /* Killed in the middle of its transaction: the shell sees 128 + 9. */
    snprintf(args, sizeof args, "--db %s import %s/other", db, tmp);
    r = run("CROSSROOF_DB_KILL_AFTER_ROWS=2", tool, args);
    assert_int_equal(r.status, 137);
    run_free(&r);
    after = headline_count(db);
    assert_string_equal(before, after);
    free(after);
    free(before);
    /* Refused into a database it would have created: no file is left. */
    snprintf(db, sizeof db, "%s/never.db", tmp);
    snprintf(args, sizeof args, "--db %s import %s/corrupt", db, tmp);
    r = run(NULL, tool, args);
    expect_error_line(&r, tool, args, 2, where);
    run_free(&r);
    assert_int_not_equal(access(db, F_OK), 0);
}

/* Every case of the shared list of corrupt results, planted in a real run
 * beside a good one: the import is refused (exit 2, one line with the
 * case's file:line error) and the database keeps only what it had. */
static void test_every_corrupt_input_refused(void **state)
{
    (void)state;
    char good[300], dir[300], db[300], args[1024];
    snprintf(good, sizeof good, "%s/real", tmp);
    snprintf(dir, sizeof dir, "%s/corrupt-real", tmp);
    snprintf(db, sizeof db, "%s/f.db", tmp);
    copy_real_run(good);
    import_into(db, good);
    char *before = headline_count(db);
    size_t n;
    corrupt_case *cases = corrupt_cases(&n);
    for (size_t i = 0; i < n; ++i) {
        const corrupt_case *c = &cases[i];
        copy_real_run(dir);
        corrupt(dir, c);
        snprintf(args, sizeof args, "--db %s import %s %s", db, good, dir);
        run_result r = run(NULL, tool, args);
        if (r.status != 2 || count_lines(r.err) != 1 || strncmp(r.err, "crossroof-db: error: ", 21) != 0 ||
            strstr(r.err, c->error) == NULL || r.out[0] != '\0')
            fail_msg("corrupt_inputs.txt:%d (%s): exit %d, stdout '%s', stderr '%s' (want 2 and one line with '%s')",
                     c->line, c->file, r.status, r.out, r.err, c->error);
        run_free(&r);
        char *after = headline_count(db);
        assert_string_equal(before, after);
        free(after);
    }
    free(cases);
    free(before);
}

/* A CSV that is no regular file (a FIFO would block its reader, a link to
 * /dev/zero never end, a directory of that name hold nothing) is refused by name, never left out unsaid; so is an
 * expected-nodes of a cluster run that is a FIFO. */
static void test_files_that_are_no_files_refused(void **state)
{
    (void)state;
    static const char *const plants[] = {"mkfifo '%s/odd/opencl-0-dev/extra-opencl.csv'",
                                         "ln -s /dev/zero '%s/odd/opencl-0-dev/extra-opencl.csv'",
                                         "mkdir '%s/odd/opencl-0-dev/extra-opencl.csv'"};
    char args[1024], where[1024];
    for (size_t i = 0; i < sizeof plants / sizeof *plants; ++i) {
        sh("rm -rf '%s/odd'", tmp);
        make_run(tmp, "odd", &node_ok);
        sh(plants[i], tmp);
        snprintf(args, sizeof args, "--db %s/odd.db import %s/odd", tmp, tmp);
        snprintf(where, sizeof where, "%s/odd/opencl-0-dev/extra-opencl.csv: not a regular file", tmp);
        run_result r = run(NULL, tool, args);
        expect_error_line(&r, tool, args, 2, where);
        run_free(&r);
    }
    fixture_run cluster = make_cluster_run(tmp, "fifo-cluster");
    sh("rm -f '%s/expected-nodes' && mkfifo '%s/expected-nodes'", cluster.path, cluster.path);
    snprintf(args, sizeof args, "--db %s/fc.db cluster-report %s", tmp, cluster.path);
    snprintf(where, sizeof where, "%s/expected-nodes: not a regular file", cluster.path);
    run_result r = run(NULL, tool, args);
    expect_error_line(&r, tool, args, 2, where);
    run_free(&r);
}

/* A socket at path, as a server leaves one: bound, then closed. */
static void plant_socket(const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    assert_true(strlen(path) < sizeof addr.sun_path);
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    close(fd);
}

/* An entry under a cluster run's nodes/ that is no node's directory is
 * refused by name, imported or reported (its node would be missing from
 * the report, with no reason): exit 2, as a run that does not read; the
 * database keeps what it had, no report is written. A FIFO is never opened:
 * the timeout stops a tool that would wait on it. */
static void test_node_entries_that_are_no_directories_refused(void **state)
{
    (void)state;
    static const struct {
        const char *plant, *what; /* plant: sh, CLUSTER for each %s; NULL: a socket */
    } cases[] = {
        {"echo n5 > '%s/nodes/n5'", "a regular file"},
        {"mkfifo '%s/nodes/n5'", "a FIFO"},
        {NULL, "a socket"},
        {"ln -s ../expected-nodes '%s/nodes/n5'", "a symbolic link to a regular file"},
        {"mkfifo '%s/fifo' && ln -s '%s/fifo' '%s/nodes/n5'", "a symbolic link to a FIFO"},
        {"ln -s nowhere '%s/nodes/n5'", "a symbolic link to nothing"},
    };
    static const char *const commands[] = {"import", "cluster-report"};
    char db[300], args[1024], want[1024], node[700];
    snprintf(db, sizeof db, "%s/nd.db", tmp);
    import_into(db, make_run(tmp, "before-nd", &node_ok).path);
    char *before = headline_count(db);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        sh("rm -rf '%s/nd'", tmp);
        fixture_run cluster = make_cluster_run(tmp, "nd");
        snprintf(node, sizeof node, "%s/nodes/n5", cluster.path);
        if (cases[i].plant)
            sh(cases[i].plant, cluster.path, cluster.path, cluster.path);
        else
            plant_socket(node);
        snprintf(want, sizeof want, "%s: %s, not a node's directory", node, cases[i].what);
        for (size_t c = 0; c < sizeof commands / sizeof *commands; ++c) {
            snprintf(args, sizeof args, "--db %s %s %s", db, commands[c], cluster.path);
            run_result r = run("timeout 10", tool, args);
            expect_error_line(&r, tool, args, 2, want);
            run_free(&r);
            char *after = headline_count(db);
            assert_string_equal(before, after);
            free(after);
        }
        snprintf(args, sizeof args, "%s/cluster-report.md", cluster.path);
        assert_int_not_equal(access(args, F_OK), 0);
    }
    free(before);
}

/* A link under nodes/ to a node's directory elsewhere is followed, as
 * every file is read through its links: the node is the link's name, its
 * run the link's path. A name with a leading dot is no node (a shared
 * filesystem's .nfs files). */
static void test_node_linked_from_elsewhere_reported(void **state)
{
    (void)state;
    fixture elsewhere = node_ok;
    elsewhere.triad = 101;
    elsewhere.latency = 102;
    fixture_run target = make_run(tmp, "node-elsewhere", &elsewhere);
    fixture_run cluster = make_cluster_run(tmp, "linked");
    sh("ln -s '%s' '%s/nodes/n5' && echo x > '%s/nodes/.nfs0001'", target.path, cluster.path, cluster.path);
    char args[1024], want[1024];
    snprintf(args, sizeof args, "--db %s/ln.db cluster-report %s", tmp, cluster.path);
    run_result r = run_with_status(0, "timeout 10", tool, args);
    expect_in(r.out, "5 node(s), 2 figure(s), 1 outlier(s), 2 node(s) not ok\n");
    run_free(&r);
    char *md = slurp_tmp("linked/cluster-report.md");
    expect_all_in(md, "| n1 | n2 | n3 | n5 | n4 |",
                  "| opencl-0 | stream triad double | GB/s | 100.5 | 1 | 100 | 102 | **50** | 101 | \xe2\x80\x93 |");
    free(md);
    snprintf(args, sizeof args, "--db %s/ln.db query headlines %s", tmp, cluster.path);
    r = run_with_status(0, NULL, tool, args);
    snprintf(want, sizeof want, ",%s/nodes/n5\n", cluster.path);
    expect_in(r.out, want);
    assert_int_equal(count_lines(r.out), 1 + 5 + 2);
    run_free(&r);
}

/* A database that cannot take a run (full: the test hook
 * CROSSROOF_DB_MAX_PAGES caps its pages) is the database's failure, not
 * the run's: exit 1, one line naming the run it was writing; the database
 * keeps what it had. */
static void test_a_full_database_fails_naming_the_run(void **state)
{
    (void)state;
    char db[300], args[1024], want[1024], more[300];
    snprintf(db, sizeof db, "%s/full.db", tmp);
    import_into(db, make_run(tmp, "before-full", &node_ok).path);
    char *before = headline_count(db);
    snprintf(more, sizeof more, "%s/into-full", tmp);
    copy_real_run(more); /* hundreds of rows: more than the pages it has */
    snprintf(args, sizeof args, "--db %s import %s", db, more);
    run_result r = run("CROSSROOF_DB_MAX_PAGES=1", tool, args);
    snprintf(want, sizeof want, "%s: cannot write the database: ", more);
    expect_error_line(&r, tool, args, 1, want);
    expect_in(r.err, "full");
    run_free(&r);
    char *after = headline_count(db);
    assert_string_equal(before, after);
    free(after);
    free(before);
}

static void test_cluster_report(void **state)
{
    (void)state;
    fixture_run cluster = make_cluster_run(tmp, "cluster");
    char args[1024];
    snprintf(args, sizeof args, "--db %s/c.db cluster-report %s --below 0.9", tmp, cluster.path);
    for (int twice = 0; twice < 2; ++twice) {
        run_result r = run_with_status(0, NULL, tool, args);
        expect_in(r.out, "cluster-report.md and cluster-report.csv: 4 node(s), 2 figure(s), 1 outlier(s), 2 node(s) "
                         "not ok\n");
        run_free(&r);
    }
    char *md = slurp_tmp("cluster/cluster-report.md");
    expect_all_in(md, "| opencl-0 | stream triad double | GB/s | 100 | 2 | 100 | 102 | **50** |",
                  "| n3 | opencl-0 | stream triad double | 50 GB/s | 100 | 25 MADs below the median |",
                  "| n2 | failed | latency-opencl failed (exit 1: boom) |", "| n4 | missing |");
    free(md);
    char *csv = slurp_tmp("cluster/cluster-report.csv");
    expect_all_in(csv, "n3,opencl-0,stream,triad,double,GB/s,50,100,2,outlier,25 MADs below the median\n",
                  "n2,,,,,,,,,failed,latency-opencl failed (exit 1: boom)\n");
    free(csv);
    /* Imported twice, the nodes are there once. */
    snprintf(args, sizeof args, "--db %s/c.db query headlines %s", tmp, cluster.path);
    run_result r = run_with_status(0, NULL, tool, args);
    assert_int_equal(count_lines(r.out), 1 + 5);
    run_free(&r);
}

static void test_cluster_without_results(void **state)
{
    (void)state;
    char dir[256], nodes[300], node[400];
    snprintf(dir, sizeof dir, "%s/empty-cluster", tmp);
    snprintf(nodes, sizeof nodes, "%s/nodes", dir);
    snprintf(node, sizeof node, "%s/n1", nodes);
    make_dir(dir);
    make_dir(nodes);
    make_dir(node);
    char args[1024];
    snprintf(args, sizeof args, "--db %s/d.db cluster-report %s", tmp, dir);
    run_result r = run(NULL, tool, args);
    assert_int_equal(r.status, 1);
    expect_in(r.err, "no node has results");
    run_free(&r);
    char *md = slurp_tmp("empty-cluster/cluster-report.md");
    expect_in(md, "| n1 | interrupted | no run-log.csv");
    free(md);
    /* A node's name is data: written as text, never as markup or a link. */
    snprintf(node, sizeof node, "%s/n3<img src=x onerror=alert(1)>[a](b)|c", nodes);
    make_dir(node);
    r = run(NULL, tool, args);
    assert_int_equal(r.status, 1);
    run_free(&r);
    md = slurp_tmp("empty-cluster/cluster-report.md");
    expect_in(md, "| n3&lt;img src=x onerror=alert(1)&gt;&#91;a&#93;(b)\\|c | interrupted |");
    assert_null(strstr(md, "<img"));
    free(md);
    /* expected-nodes names a node by its line, the blanks around it left
     * out; a line that is no node's name (a blank inside, as no host name
     * has) is refused, file and line named. */
    snprintf(node, sizeof node, "%s/n5", nodes);
    make_dir(node);
    put_file(dir, "expected-nodes", "n1\n  n5 \t\n# a comment\nn6\n");
    r = run(NULL, tool, args);
    assert_int_equal(r.status, 1);
    run_free(&r);
    md = slurp_tmp("empty-cluster/cluster-report.md");
    expect_all_in(md, "| n5 | interrupted |", "| n6 | missing |");
    free(md);
    put_file(dir, "expected-nodes", "n1\nn 5\n");
    r = run_with_status(2, NULL, tool, args);
    expect_all_in(r.err, "empty-cluster/expected-nodes:2: 'n 5' is no node's name");
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
}

/* A run whose device directories cannot be read, or are hidden, imports
 * nothing: it is refused, the directory named, never taken as a run of no
 * device. As root, the tool runs as nobody, for whom mode 000 means it. */
static void test_a_run_of_no_readable_device_refused(void **state)
{
    (void)state;
    char dir[300], dev[600], args[1200];
    snprintf(dir, sizeof dir, "%s/shut", tmp);
    make_dir(dir);
    assert_int_equal(chmod(tmp, 0755), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    fixture_run r1 = make_run(dir, "run", &node_ok);
    snprintf(dev, sizeof dev, "%s/opencl-0-dev", r1.path);
    assert_int_equal(chmod(dev, 0), 0);
    const char *as_nobody = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : NULL;
    snprintf(args, sizeof args, "--db %s/s.db import %s", dir, r1.path);
    run_result r = run_with_status(2, as_nobody, tool, args);
    expect_all_in(r.err, "shut/run/opencl-0-dev: cannot read the directory (Permission denied)");
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
    assert_int_equal(chmod(dev, 0755), 0);
    /* A run whose one device directory is hidden. */
    char hidden[600];
    snprintf(hidden, sizeof hidden, "%s/.opencl-0-dev", r1.path);
    assert_int_equal(rename(dev, hidden), 0);
    r = run_with_status(2, NULL, tool, args);
    expect_all_in(r.err, "shut/run: not a run: no device directory");
    run_free(&r);
}

/* A database another process keeps locked past the wait (--busy-wait's,
 * short here): said so, the database and the run named, exit 1. */
static void test_a_locked_database_named_with_the_run(void **state)
{
    (void)state;
    char db[300], args[1200];
    snprintf(db, sizeof db, "%s/locked.db", tmp);
    fixture_run r1 = make_run(tmp, "locked-run", &node_ok);
    import_into(db, r1.path);
    sqlite3 *holder;
    assert_int_equal(sqlite3_open(db, &holder), SQLITE_OK);
    assert_int_equal(sqlite3_exec(holder, "BEGIN EXCLUSIVE;", NULL, NULL, NULL), SQLITE_OK);
    snprintf(args, sizeof args, "--busy-wait 200 --db %s import %s", db, r1.path);
    run_result r = run_with_status(1, NULL, tool, args);
    sqlite3_close(holder);
    expect_all_in(r.err, "locked.db: locked by another process, still after 0.2 s of waiting",
                  "locked-run not imported");
    assert_null(strstr(r.err, "not a database"));
    run_free(&r);
}

/* "--db TMP/NAME.db" and then tail, the database holding a run of
 * node_ok's, TMP/RUN, imported. */
static const char *db_args_of(const char *name, const char *run, const char *tail)
{
    static char args[700];
    char db[300];
    snprintf(db, sizeof db, "%s/%s.db", tmp, name);
    import_into(db, make_run(tmp, run, &node_ok).path);
    snprintf(args, sizeof args, "--db %s%s", db, tail);
    return args;
}

static void test_bad_input(void **state)
{
    (void)state;
    const char *db_args = db_args_of("e", "run", "");
    expect_listed_bad_inputs(tool, "tools/db/tests/bad_inputs.txt");
    expect_listed_bad_inputs_after(tool, db_args, "tools/db/tests/bad_inputs_after_db.txt");
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    expect_output_must_arrive(tool, db_args_of("full", "full-run", " query headlines"));
}

CLI_TEST_MAIN(test_import_twice_and_query, test_refused_and_killed_imports_change_nothing,
              test_every_corrupt_input_refused, test_files_that_are_no_files_refused,
              test_node_entries_that_are_no_directories_refused, test_node_linked_from_elsewhere_reported,
              test_a_full_database_fails_naming_the_run, test_cluster_report, test_cluster_without_results,
              test_a_run_of_no_readable_device_refused, test_a_locked_database_named_with_the_run, test_bad_input, test_unwritable_stdout_fails)
