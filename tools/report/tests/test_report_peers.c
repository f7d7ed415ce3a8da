/* The report's Peers section: tools/peers.sh's peers/peers.csv read
 * through the shared reader as a table of its own, beside the devices and
 * never taken for one, escaped in both formats, the same from the results
 * database, and refused, file and line named, where it does not read. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/extract.h"
#include "report/model.h"
#include "report/render.h"

#include "report/tests/db_run.h"
#include "shared/tests/put_file.h"
#include "tests/csv_reader.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root[64];
CR_SCRATCH_FIXTURES(root, "report-peers")

static const char header[] =
    "suite,test,crossroof_test,dtype,size_bytes,statistic,crossroof,peer,unit,ratio,n_crossroof,n_peer,slices,flags,note\n";
/* Rows as tools/peers.sh writes them (tools/peers/tests fakes both suites
 * to the same numbers); the last one's note holds what HTML and Markdown
 * must escape. */
static const char rows[] =
    "babelstream-cuda,triad,triad,float,134217728,best,3801.2,3695.5,GB/s,1.0286,100,100,2,,\n"
    "nvbandwidth,host_to_device_memcpy_ce,h2d-memcpy-pinned,,536870912,median,53,55.12,GB/s,0.9615,6,6,2,,\n"
    "nvbandwidth,device_local_copy,d2d-memcpy,,536870912,median,1800,700,GB/s,2.5714,6,6,2,far-apart,"
    "\"a <b>note</b> & a | pipe, [link](x)\"\n";

/* ROOT/NAME: one device's directory, the run log and, where peers is not
 * NULL, peers/peers.csv holding it. Returns the run's path. */
static const char *make_run(const char *name, const char *peers)
{
    static char run[256];
    char cmd[800];
    snprintf(run, sizeof run, "%s/%s", root, name);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/cuda-0-gpu' '%s/peers'", run, run);
    assert_int_equal(system(cmd), 0);
    char dev[300];
    snprintf(dev, sizeof dev, "%s/cuda-0-gpu", run);
    put_file(dev, "stream-cuda.meta.csv", "key,value\ndevice.name,GPU\ndevice.compute_units,132\nbackend,cuda\n");
    put_file(run, "run-log.csv",
        "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
        "stream-cuda,cuda,0,GPU,cuda-0-gpu,passed,0,12.5,gpu-check,2026-01-01T00:00:00Z,\n"
        "peers,host,0,GPU,peers,passed,0,40.1,gpu-check,2026-01-01T00:00:41Z,\n");
    char pdir[300];
    snprintf(pdir, sizeof pdir, "%s/peers", run);
    put_file(pdir, "peers.log", "peers.sh: runs kept in x\n");
    if (peers)
        put_file(pdir, "peers.csv", peers);
    return run;
}

/* The report the run's directory holds once written: report.html, or
 * report.md; the caller frees it. */
static char *written(const rp_run *run, bool html)
{
    char path[RP_PATH_LEN + 16], err[256] = "";
    if (rp_write_reports(run, err, sizeof err) != 0)
        fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/%s", run->path, html ? "report.html" : "report.md");
    char *text = csv_slurp(path);
    assert_non_null(text);
    return text;
}

static void expect_in(const char *text, const char *want)
{
    if (strstr(text, want) == NULL)
        fail_msg("no '%s' in:\n%s", want, text);
}

static void expect_table(const rp_run *run)
{
    assert_true(run->has_peers);
    assert_int_equal(run->ndevices, 1); /* peers/ is no device */
    assert_string_equal(run->devices[0].dir, "cuda-0-gpu");
    assert_int_equal(run->peers.nrows, 3);
    const rp_row *r = &run->peers.rows[1];
    assert_string_equal(r->key, "nvbandwidth host_to_device_memcpy_ce (h2d-memcpy-pinned) 512 MiB median");
    assert_true(r->cells[0].num == 53 && r->cells[1].num == 55.12 && r->cells[2].num == 0.9615);
    assert_string_equal(r->cells[2].text, "0.9615");
    assert_true(r->cells[3].num == 6 && r->cells[4].num == 6 && r->cells[5].num == 2);
    assert_string_equal(run->peers.rows[0].key, "babelstream-cuda triad float 128 MiB best");
    assert_string_equal(run->peers.rows[0].cells[0].text, "3801.2");
    assert_string_equal(run->peers.rows[2].cells[6].text, "far-apart");
}

static void test_peers_table_beside_the_devices(void **state)
{
    (void)state;
    char all[2048];
    snprintf(all, sizeof all, "%s%s", header, rows);
    rp_run run;
    char err[512] = "";
    if (rp_load_run(make_run("with", all), &run, err, sizeof err) != 0)
        fail_msg("%s", err);
    expect_table(&run);
    char *md = written(&run, false), *html = written(&run, true);
    expect_in(md, "## Peers\n\n*How to read this.* crossroof beside the suites it means to beat");
    expect_in(md, "| nvbandwidth host&#95;to&#95;device&#95;memcpy&#95;ce (h2d-memcpy-pinned) 512 MiB median | 53 | 55.12 | 0.9615 | 6 "
                  "| 6 | 2 | \xe2\x80\x93 | \xe2\x80\x93 |");
    expect_in(md, "| 1800 | 700 | 2.571 | 6 | 6 | 2 | far-apart | a &lt;b&gt;note&lt;/b&gt; &amp; a \\| pipe, "
                  "&#91;link&#93;(x) |");
    expect_in(md, "Data: [peers/peers.csv](peers/peers.csv)");
    expect_in(html, "<h2 id=\"peers\">Peers</h2>");
    expect_in(html, "<td class=\"n\">0.9615</td>");
    expect_in(html, "<td>a &lt;b&gt;note&lt;/b&gt; &amp; a | pipe, [link](x)</td>");
    expect_in(html, "<a href=\"peers/peers.csv\">peers/peers.csv</a>");
    assert_null(strstr(html, "<b>note"));
    assert_null(strstr(md, "## peers")); /* no device section of its own */
    free(md);
    free(html);
    rp_run_free(&run);
}

static void test_no_peers_csv_no_section(void **state)
{
    (void)state;
    rp_run run;
    char err[512] = "";
    if (rp_load_run(make_run("without", NULL), &run, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_false(run.has_peers);
    assert_int_equal(run.ndevices, 1);
    char *md = written(&run, false);
    assert_null(strstr(md, "Peers"));
    free(md);
    rp_run_free(&run);
}

static void test_peers_csv_that_does_not_read_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"nvbandwidth,device_local_copy,d2d-memcpy,,536870912,median,1800,1750.5,GB/s,fast,6,6,2,,\n",
         "/peers/peers.csv:2: column 'ratio': 'fast' is not a number"},
        {"nvbandwidth,device_local_copy,d2d-memcpy,,536870912,median,-1800,1750.5,GB/s,1,6,6,2,,\n",
         "/peers/peers.csv:2: column 'crossroof': '-1800' is negative"},
        {"nvbandwidth,,d2d-memcpy,,536870912,median,1800,1750.5,GB/s,1,6,6,2,,\n",
         "/peers/peers.csv:2: column 'test': '' is empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        char text[1024], name[32], err[512] = "";
        snprintf(text, sizeof text, "%s%s", header, cases[i].text);
        snprintf(name, sizeof name, "bad%zu", i);
        rp_run run;
        assert_int_equal(rp_load_run(make_run(name, text), &run, err, sizeof err), RP_BAD_DATA);
        expect_in(err, cases[i].error);
    }
}

/* Imported into the database and read back from it alone: the same table,
 * and still no device of its own. */
static void test_peers_from_the_database(void **state)
{
    (void)state;
    char all[2048], err[1024] = "";
    snprintf(all, sizeof all, "%s%s", header, rows);
    sqlite3_int64 id;
    sqlite3 *db = import_run(make_run("db", all), &id);
    rp_run run;
    if (rp_load_run_db(db, id, "/gone/db", &run, err, sizeof err) != 0)
        fail_msg("%s", err);
    expect_table(&run);
    rp_run_free(&run);
    sqlite3_close(db);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_peers_table_beside_the_devices, test_no_peers_csv_no_section,
          test_peers_csv_that_does_not_read_is_refused, test_peers_from_the_database)
