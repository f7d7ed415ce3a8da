/* End-to-end tests of the report tool on a synthetic run: the report's
 * numbers, its embedded figure (checked against base64 computed outside
 * this code base), the checker passing and then catching each planted
 * defect, the comparison of two runs, and bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "shared/tests/corrupt_inputs.h"

#include <limits.h>
#include <math.h>
#include <sys/stat.h>

static const char *tool = "../tools/report";

/* A 1x1 grey PNG, and its base64 as Python's base64 module writes it. */
static const unsigned char tiny_png[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x7e, 0x9b, 0x55, 0x00,
    0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x68, 0x00, 0x00, 0x00, 0x82, 0x00, 0x81,
    0x77, 0xcd, 0x72, 0xb6, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
static const char tiny_png_base64[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==";

static void put(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void put_text(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    put(path, text, strlen(text));
}

/* A row of stream's results as the benchmark writes it: a verified point
 * of five repetitions, nothing else measured. */
static cr_result stream_row(const char *backend, const char *device, const char *variant, const char *dtype)
{
    cr_result r = {.valid = true, .bytes_per_rep = NAN, .ops_per_rep = NAN, .figure_best = NAN, .ref_ratio = NAN,
                   .stats = {.n = 5, .min = 1, .median = 1, .mean = 1, .max = 1, .stddev = 0, .ci_rel = 0}};
    snprintf(r.benchmark, sizeof r.benchmark, "stream");
    snprintf(r.backend, sizeof r.backend, "%s", backend);
    snprintf(r.device, sizeof r.device, "%s", device);
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    snprintf(r.dtype, sizeof r.dtype, "%s", dtype);
    snprintf(r.sweep, sizeof r.sweep, "fixed");
    return r;
}

/* A run as run_all.sh leaves it: one OpenCL device with stream results and
 * a figure, a CUDA directory with only the log of a skipped benchmark. */
static void make_run(const char *name, double triad)
{
    char dev[300], cuda[300];
    snprintf(dev, sizeof dev, "%s/%s/opencl-0-fake", tmp, name);
    snprintf(cuda, sizeof cuda, "%s/%s/cuda", tmp, name);
    sh("mkdir -p %s %s", dev, cuda);
    /* The device's triad and the host's, as the benchmark writes them. */
    char path[512];
    snprintf(path, sizeof path, "%s/stream-opencl.csv", dev);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    cr_result_write_header(f);
    cr_result r = stream_row("opencl", "Fake", "triad", "float");
    r.size_bytes = 268435456, r.work_items = 16, r.figure = triad, r.figure_best = 32, r.ref_ratio = 0.75;
    snprintf(r.params, sizeof r.params, "host_limit_GBps=40");
    cr_result_write_row(f, &r);
    cr_result host = stream_row("host-openmp", "host", "triad", "float");
    host.size_bytes = 268435456, host.work_items = 2, host.figure = 39, host.figure_best = 41, host.ref_ratio = 0.975;
    snprintf(host.params, sizeof host.params, "host_limit_GBps=40");
    cr_result_write_row(f, &host);
    fclose(f);
    put_text(dev, "stream-opencl.meta.csv", "key,value\ndevice.name,Fake device\nbackend,opencl\nhost,testhost\n");
    snprintf(path, sizeof path, "%s/stream-opencl-footprint.png", dev);
    put(path, tiny_png, sizeof tiny_png);
    put_text(dev, "stream-opencl-footprint.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    put_text(cuda, "stream-cuda.log", "stream-cuda: skipped: no CUDA device: planted\n");
    char dir[300];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    put_text(dir, "run-log.csv",
             "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
             "stream-opencl,opencl,0,Fake device,opencl-0-fake,passed,0,4.2,quick,2026-01-01T00:00:00Z,\n"
             "stream-cuda,cuda,,,cuda,skipped,77,0.0,quick,2026-01-01T00:00:05Z,"
             "no CUDA device: planted\n");
}

static void check_says(const char *name, int status, const char *text)
{
    char args[300];
    snprintf(args, sizeof args, "--check %s/%s", tmp, name);
    run_result r = run(NULL, tool, args);
    if (r.status != status || (text && strstr(r.err, text) == NULL) || (status && count_lines(r.err) != 1))
        fail_msg("--check: status %d (wanted %d and one line), stderr: %s", r.status, status, r.err);
    run_free(&r);
}

/* A run of make_run's, its report written (of its one device). */
static void make_reported_run(const char *name, double triad)
{
    make_run(name, triad);
    char args[300];
    snprintf(args, sizeof args, "%s/%s", tmp, name);
    expect_output(tool, args, 0, "1 device(s)");
}

static void test_report_and_check(void **state)
{
    (void)state;
    make_run("a", 30);
    char args[300];
    snprintf(args, sizeof args, "%s/a", tmp);
    expect_output(tool, args, 0, "1 device(s), 1 figure(s); 1 directory where the API found no device");

    char *md = slurp_tmp("a/report.md");
    expect_all_in(md, "| triad float | 30 | 32 | 40 | 0.75 |", /* the device's row only */
                  "![stream-opencl-footprint.png](opencl-0-fake/stream-opencl-footprint.png)",
                  "[stream-opencl.csv](opencl-0-fake/stream-opencl.csv)",
                  "No device in cuda/: no CUDA device: planted. Its 1 benchmark run(s) were skipped.",
                  "Did not run on this device.", "How to read this.",
                  "| [Stream triad, float](#device-1-stream) | 30 GB/s | host limit 40 GB/s (75%) |");
    assert_null(strstr(md, "| 39 |"));
    /* The device first, the run log last; the CUDA directory is no device. */
    const char *device = strstr(md, "## Fake device (opencl)"), *log = strstr(md, "## The run");
    assert_non_null(device);
    assert_non_null(log);
    assert_true(device < log);
    assert_null(strstr(log + 1, "\n## "));
    assert_null(strstr(md, "Results in cuda"));
    free(md);
    char *html = slurp_tmp("a/report.html");
    char want[256];
    snprintf(want, sizeof want, "src=\"data:image/png;base64,%s\"", tiny_png_base64);
    expect_all_in(html, want, "<style>", "href=\"opencl-0-fake/stream-opencl.csv\"",
                  "href=\"opencl-0-fake/stream-opencl-footprint.svg\"",
                  "<td><a href=\"#device-1-stream\">Stream triad, float</a></td><td>30 GB/s</td>");
    free(html);

    snprintf(args, sizeof args, "--check %s/a", tmp);
    expect_output(tool, args, 0, "1 embedded figure(s)");

    /* Each planted defect, one at a time, undone after. */
    sh("cp %s/a/opencl-0-fake/stream-opencl.csv %s/keep.csv", tmp, tmp);
    sh("echo 'stream,opencl,extra-field,x' >> %s/a/opencl-0-fake/stream-opencl.csv", tmp);
    check_says("a", 1, "stream-opencl.csv");
    sh("cp %s/keep.csv %s/a/opencl-0-fake/stream-opencl.csv", tmp, tmp);
    check_says("a", 0, NULL);

    sh("cp %s/a/opencl-0-fake/stream-opencl-footprint.png %s/a/opencl-0-fake/later.png", tmp, tmp);
    check_says("a", 1, "figure 'opencl-0-fake/later.png' is missing from the report");
    sh("rm %s/a/opencl-0-fake/later.png", tmp);

    sh("mv %s/a/opencl-0-fake/stream-opencl-footprint.svg %s/keep.svg", tmp, tmp);
    check_says("a", 1, "'opencl-0-fake/stream-opencl-footprint.svg' does not exist");
    sh("mv %s/keep.svg %s/a/opencl-0-fake/stream-opencl-footprint.svg", tmp, tmp);

    sh("cp %s/a/report.html %s/keep.html", tmp, tmp);
    sh("sed -i 's/base64,iVBORw0KGgo/base64,iVBORw0LGgo/' %s/a/report.html", tmp);
    check_says("a", 1, "not a PNG");
    sh("cp %s/keep.html %s/a/report.html", tmp, tmp);

    /* The figure redrawn after the report: the embedded copy is stale. */
    sh("printf 'x' >> %s/a/opencl-0-fake/stream-opencl-footprint.png", tmp);
    check_says("a", 1, "differs from the file");
}

static void test_compare_two_runs(void **state)
{
    (void)state;
    make_run("old", 30);
    make_run("new", 45);
    char args[300];
    snprintf(args, sizeof args, "--compare %s/old %s/new", tmp, tmp);
    run_result r = run_with_status(0, NULL, tool, args);
    expect_all_in(r.out, "| triad float | GB/s | 30 | 45 | 1.5 |", "| triad float | vs host limit | 0.75 | 0.75 | 1 |");
    expect_in(r.err, "compare-old.md");
    char *written = slurp_tmp("new/compare-old.md");
    assert_string_equal(written, r.out);
    free(written);
    run_free(&r);
    /* A device name is data in the comparison as in the report: never markup. */
    make_run("evil", 45);
    sh("cd %s/evil/opencl-0-fake && sed -i "
       "'s/^device.name,.*/device.name,<script>x<\\/script> `c` *e* [l](javascript:y)/' stream-opencl.meta.csv",
       tmp);
    snprintf(args, sizeof args, "--compare %s/old %s/evil", tmp, tmp);
    r = run_with_status(0, NULL, tool, args);
    expect_in(r.out, "&lt;script&gt;x&lt;/script&gt; &#96;c&#96; &#42;e&#42; &#91;l&#93;(javascript:y)");
    assert_null(strstr(r.out, "<script>"));
    run_free(&r);
    /* A results file of either run that is no regular file is refused by
     * name, never left out of the comparison unsaid. */
    static const char *const plants[] = {"mkfifo", "ln -s /dev/zero", "mkdir"};
    for (size_t i = 0; i < sizeof plants / sizeof *plants; ++i) {
        make_run("odd", 45);
        sh("cd %s/odd/opencl-0-fake && rm stream-opencl.csv && %s stream-opencl.csv", tmp, plants[i]);
        snprintf(args, sizeof args, "--compare %s/old %s/odd", tmp, tmp);
        r = run("timeout 20", tool, args);
        expect_error_on_stderr(&r, tool, plants[i], 1, "stream-opencl.csv: not a regular file");
        run_free(&r);
        sh("rm -rf %s/odd", tmp);
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    expect_listed_bad_inputs(tool, "tools/report/tests/bad_inputs.txt");
    char args[300];
    snprintf(args, sizeof args, "%s %s", tmp, tmp);
    expect_error(tool, args, 2, "one results directory at a time");
    sh("mkdir -p %s/empty/nothing", tmp);
    snprintf(args, sizeof args, "%s/empty", tmp);
    expect_error(tool, args, 2, "holds no results");
    snprintf(args, sizeof args, "--check %s/empty", tmp);
    expect_error(tool, args, 1, "report.html cannot be read");
}

static int access_tmp(const char *name)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    return access(path, F_OK);
}

/* The report on a run whose footprint figure `plant` (a shell command
 * given the file's name) made: refused, exit 1, one line holding error. */
static void expect_figure_refused(const char *plant, const char *error)
{
    make_run("nopng", 30);
    char args[400];
    sh("cd %s/nopng/opencl-0-fake && rm stream-opencl-footprint.png && %s stream-opencl-footprint.png", tmp, plant);
    snprintf(args, sizeof args, "%s/nopng", tmp);
    run_result r = run("timeout 20", tool, args);
    expect_error_on_stderr(&r, tool, plant, 1, error);
    run_free(&r);
    /* Neither report written: a new report.md beside no (or an older) report.html. */
    assert_int_not_equal(access_tmp("nopng/report.md"), 0);
    assert_int_not_equal(access_tmp("nopng/report.html"), 0);
    sh("rm -rf %s/nopng", tmp);
}

/* A figure that is no whole PNG (an interrupted plot's empty or cut file,
 * a FIFO, a link to /dev/zero) is refused, one line naming it, at once:
 * never embedded as an image, never read without bound or waited on. */
static void test_figures_that_are_no_png_are_refused(void **state)
{
    (void)state;
    expect_figure_refused(": >", "stream-opencl-footprint.png: not a PNG image (0 bytes)");
    expect_figure_refused("printf 'GIF89a, not a PNG image' >",
                          "stream-opencl-footprint.png: not a PNG image (23 bytes, no PNG signature");
    /* a drawing cut short: its signature and header, no IEND chunk */
    expect_figure_refused("printf '\\211PNG\\r\\n\\032\\n\\0\\0\\0\\rIHDRabcd' >",
                          "stream-opencl-footprint.png: not a PNG image (20 bytes, cut short: no IEND chunk at its "
                          "end)");
    expect_figure_refused("mkfifo", "stream-opencl-footprint.png: not a regular file");
    expect_figure_refused("ln -s /dev/zero", "stream-opencl-footprint.png: not a regular file");
}

/* Every case of the shared list of corrupt results: the report refuses the
 * run (exit 1, one line naming the file and line at fault) and writes
 * nothing; --check fails on a report written before the file went bad;
 * --read refuses the file alone in the same words, and reads it silently
 * before. */
static void test_corrupt_results_are_refused(void **state)
{
    (void)state;
    size_t n;
    corrupt_case *cases = corrupt_cases(&n);
    char dir[300], args[700];
    snprintf(dir, sizeof dir, "%s/corrupt", tmp);
    for (size_t i = 0; i < n; ++i) {
        const corrupt_case *c = &cases[i];
        copy_real_run(dir);
        expect_output(tool, dir, 0, "1 device(s)");
        snprintf(args, sizeof args, "--read '%s/%s'", dir, c->file);
        run_result r = run_with_status(0, NULL, tool, args);
        if (r.out[0] || r.err[0])
            fail_msg("%s: said '%s%s' of a file that reads", args, r.out, r.err);
        run_free(&r);
        corrupt(dir, c);
        expect_corrupt_refused(tool, dir, c, true);
        expect_corrupt_refused(tool, args, c, true);
        snprintf(args, sizeof args, "--check %s", dir);
        expect_corrupt_refused(tool, args, c, false);
    }
    free(cases);
}

/* Names, values and paths are data: what the report did not write itself
 * is escaped in the HTML (and the Markdown), and a link's target is
 * percent-encoded, so that a device called <script>... stays text and a
 * directory called a"b<c stays one link that --check can follow. */
static void test_hostile_names_are_escaped(void **state)
{
    (void)state;
    char run_dir[300], dev[400], path[500];
    snprintf(run_dir, sizeof run_dir, "%s/run \"<x>", tmp);
    snprintf(dev, sizeof dev, "%s/opencl-0-a\"b<c d&e'f", run_dir);
    /* Not through the shell: the names hold its quotes. */
    assert_int_equal(mkdir(run_dir, 0755), 0);
    assert_int_equal(mkdir(dev, 0755), 0);
    put_text(dev, "stream-opencl.meta.csv",
             "key,value\ndevice.name,\"<script>alert(1)</script>\"\"'&[x](y)\"\ndevice.compute_units,2\n"
             "backend,opencl\n");
    snprintf(path, sizeof path, "%s/stream-opencl.csv", dev);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    cr_result_write_header(f);
    cr_result r = stream_row("opencl", "", "triad", "");
    r.figure = 30, r.valid = false;
    snprintf(r.note, sizeof r.note, "<b>note</b> & \"quoted\" 'single'");
    cr_result_write_row(f, &r);
    fclose(f);
    snprintf(path, sizeof path, "%s/stream-opencl-footprint.png", dev);
    put(path, tiny_png, sizeof tiny_png);
    char args[400];
    snprintf(args, sizeof args, "'%s'", run_dir);
    expect_output(tool, args, 0, "1 device(s), 1 figure(s)");

    char *html = slurp_tmp("run \"<x>/report.html");
    expect_all_in(html, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;[x](y) (opencl)",
                  "<title>crossroof: run &quot;&lt;x&gt;</title>",
                  "&lt;b&gt;note&lt;/b&gt; &amp; &quot;quoted&quot; &#39;single&#39;",
                  "href=\"opencl-0-a%22b%3Cc%20d%26e%27f/stream-opencl.csv\"",
                  "data-file=\"opencl-0-a&quot;b&lt;c d&amp;e&#39;f/stream-opencl-footprint.png\"");
    static const char *const raw[] = {"<script", "<b>note", "'single'", "a\"b", "e'f"};
    for (size_t i = 0; i < countof(raw); ++i)
        if (strstr(html, raw[i]))
            fail_msg("report.html holds '%s' unescaped", raw[i]);
    free(html);
    char *md = slurp_tmp("run \"<x>/report.md");
    for (size_t i = 0; i < 2; ++i)
        if (strstr(md, raw[i]))
            fail_msg("report.md holds '%s' unescaped", raw[i]);
    expect_all_in(md, "## &lt;script&gt;alert(1)&lt;/script&gt;\"'&amp;&#91;x&#93;(y) (opencl)",
                  "(opencl-0-a%22b%3Cc%20d%26e%27f/stream-opencl.csv)");
    free(md);
    snprintf(args, sizeof args, "--check '%s'", run_dir);
    expect_output(tool, args, 0, "1 embedded figure(s)");
}

/* The parts' table the build compiles into the report: one part per folder
 * with a report_section.c; a folder whose name is no C identifier is
 * refused in one line. */
static void test_parts_from_folders(void **state)
{
    (void)state;
    sh("mkdir -p %s/parts/bench/own %s/parts/bench/filler %s/parts/tools/fit", tmp, tmp, tmp);
    sh("touch %s/parts/bench/own/report_section.c %s/parts/tools/fit/report_section.c", tmp, tmp);
    sh("printf 'name=filler\\nreport_section=fit\\n' > %s/parts/bench/filler/descriptor", tmp);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "%s/tools/report/parts.sh %s/parts", CR_SOURCE_DIR, tmp);
    run_result r = run_shell(cmd);
    assert_int_equal(r.status, 0);
    expect_all_in(r.out, "extern const rp_part rp_part_own;", "extern const rp_part rp_part_fit;",
                  "    &rp_part_fit,\n    NULL,\n};");
    assert_null(strstr(r.out, "filler"));
    run_free(&r);
    sh("mkdir -p '%s/parts/bench/a b' && touch '%s/parts/bench/a b/report_section.c'", tmp, tmp);
    r = run_shell(cmd);
    assert_int_equal(r.status, 1);
    expect_in(r.err, "bench/a b/report_section.c: the folder's name is not a C identifier");
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
}

/* The comparison's file is written whole and put in place: what stands at
 * its name (a FIFO, a link) is replaced, never opened; A named "." is
 * named by its directory. */
static void test_compare_replaces_what_is_there(void **state)
{
    (void)state;
    sh("rm -rf %s/old %s/new", tmp, tmp);
    make_run("old", 30);
    make_run("new", 45);
    sh("mkfifo %s/new/compare-old.md", tmp);
    char args[300];
    snprintf(args, sizeof args, "--compare %s/old %s/new", tmp, tmp);
    run_result r = run("timeout 20", tool, args);
    assert_int_equal(r.status, 0);
    run_free(&r);
    sh("test -f %s/new/compare-old.md && ! test -L %s/new/compare-old.md", tmp, tmp);
    sh("echo kept > %s/victim && rm %s/new/compare-old.md && ln -s %s/victim %s/new/compare-old.md", tmp, tmp, tmp,
       tmp);
    r = run_with_status(0, NULL, tool, args);
    run_free(&r);
    char *victim = slurp_tmp("victim");
    assert_string_equal(victim, "kept\n");
    free(victim);
    sh("test -f %s/new/compare-old.md && ! test -L %s/new/compare-old.md", tmp, tmp);
    sh("rm %s/new/compare-old.md", tmp);
    char cmd[PATH_MAX + 600], bin[PATH_MAX];
    assert_non_null(realpath(bin_dir, bin));
    snprintf(cmd, sizeof cmd, "cd %s/old && %s/%s --compare . ../new", tmp, bin, tool);
    r = run_shell(cmd);
    assert_int_equal(r.status, 0);
    expect_in(r.out, "(B) against old (A)");
    run_free(&r);
    sh("test -f %s/new/compare-old.md && ! test -e %s/new/compare-..md", tmp, tmp);
}

/* A page of many anchors is checked in time: each one is not a search of
 * the whole page; an anchor to nothing is still found. */
static void test_check_of_many_anchors(void **state)
{
    (void)state;
    make_reported_run("many", 30);
    char path[300], args[300];
    snprintf(path, sizeof path, "%s/many/report.html", tmp);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    for (int i = 0; i < 200000; ++i)
        fprintf(f, "<a href=\"#n%d\">x</a><p id=\"n%d\"></p>\n", i, 199999 - i);
    fclose(f);
    snprintf(args, sizeof args, "--check %s/many", tmp);
    run_result r = run("timeout 60", tool, args);
    if (r.status != 0)
        fail_msg("--check: status %d, stderr: %s", r.status, r.err);
    run_free(&r);
    sh("echo '<a href=\"#nowhere\">x</a>' >> %s", path);
    check_says("many", 1, "link to '#nowhere', which is not in the page");
}

/* The run log and the peers' table: a name there that is no file (a link
 * to nothing or to itself) is refused by name, never taken for absent. The
 * link planted, and the refusal. */
static const char *const plant_and_refusal[][2] = {
    {"ln -s nowhere run-log.csv", "run-log.csv: No such file or directory"},
    {"ln -s run-log.csv run-log.csv", "run-log.csv: Too many levels of symbolic links"},
    {"cd peers && ln -s nowhere peers.csv", "peers/peers.csv: No such file or directory"},
    {"cd peers && ln -s peers.csv peers.csv", "peers/peers.csv: Too many levels of symbolic links"}};

static void test_run_files_that_are_no_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof plant_and_refusal / sizeof *plant_and_refusal; ++i) {
        make_run("dangling", 30);
        sh("cd %s/dangling && rm run-log.csv && mkdir -p peers && %s", tmp, plant_and_refusal[i][0]);
        char args[300];
        snprintf(args, sizeof args, "%s/dangling", tmp);
        run_result r = run("timeout 20", tool, args);
        expect_error_on_stderr(&r, tool, args, 1, plant_and_refusal[i][1]);
        run_free(&r);
        sh("rm -rf %s/dangling", tmp);
    }
}

/* A figure beside the devices (the run's own files, the peers') is not
 * the report's: the check asks only for the figures the report embeds. */
static void test_check_asks_for_the_embedded_figures(void **state)
{
    (void)state;
    make_run("top", 30);
    sh("mkdir -p %s/top/peers && cp %s/top/opencl-0-fake/stream-opencl-footprint.png %s/top/top.png && "
       "cp %s/top/top.png %s/top/peers/p.png",
       tmp, tmp, tmp, tmp, tmp);
    char args[300];
    snprintf(args, sizeof args, "%s/top", tmp);
    run_result r = run_with_status(0, NULL, tool, args);
    run_free(&r);
    check_says("top", 0, NULL);
    /* A device's figure the report did not embed is still missed. */
    sh("cp %s/top/top.png %s/top/opencl-0-fake/late.png", tmp, tmp);
    check_says("top", 1, "figure 'opencl-0-fake/late.png' is missing from the report");
}

/* The report's page with insert written before its </body>. */
static void plant_in_page(const char *run, const char *insert)
{
    char name[300];
    snprintf(name, sizeof name, "%s/page.keep", run);
    char *page = slurp_tmp(name);
    const char *end = strstr(page, "</body>");
    assert_non_null(end);
    snprintf(name, sizeof name, "%s/%s/report.html", tmp, run);
    FILE *f = fopen(name, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(end - page), page, insert, end);
    assert_int_equal(fclose(f), 0);
    free(page);
}

/* A page the report did not write, though its figures and links check
 * out: a script, an event handler, a link, a source or a style sheet that
 * reaches out of the run, an image that is no figure of the run; and the
 * line --check refuses each with. */
static const char *const hostile_markup[][2] = {
    {"<script>alert(1)</script>", "element <script>, which the report does not write"},
    {"<img onerror=alert(1) src=x>", "event-handler attribute onerror= of <img>"},
    {"<IMG SRC=\"data:image/png;base64,AA\" ONLOAD=\"go()\">", "event-handler attribute ONLOAD= of <IMG>"},
    {"<img src=\"https://example.com/x.png\">", "source 'https://example.com/x.png' of <img> is no embedded PNG"},
    {"<iframe src=\"opencl-0-fake/stream-opencl.csv\"></iframe>", "element <iframe>"},
    {"<a href=\"javascript:alert(1)\">x</a>", "link 'javascript:alert(1)' of <a> leads out of the run"},
    {"<a href=\"//example.com/\">x</a>", "link '//example.com/' of <a> leads out of the run"},
    {"<a href=\"javascript&#58;alert(1)\">x</a>", "link 'javascript&#58;alert(1)' of <a> leads out of the run"},
    {"<a href=\"javascript&colon;alert(1)\">x</a>", "link 'javascript&colon;alert(1)' of <a> leads out of the run"},
    {"<style>p{background:URL(https://example.com/x)}</style>", "a style sheet that loads something"},
    {"<meta http-equiv=\"refresh\" content=\"0;url=https://example.com\">", "attribute http-equiv= of <meta>"},
    {"<p style=\"color:red\">x</p>", "attribute style= of <p>"},
    {"<!-- <script>x</script> -->", "markup <!--"},
    {"<img alt=x src=\"data:image/png;base64,iVBORw0KGgo=\">", "an embedded image names no figure of the run ('')"},
    {"<img data-file=\"../../x.png\" src=\"data:image/png;base64,iVBORw0KGgo=\">",
     "an embedded image names no figure of the run ('../../x.png')"},
};

/* Each of them planted in a report that checks out is refused, named in
 * one line. */
static void test_check_refuses_markup_it_does_not_write(void **state)
{
    (void)state;
    make_reported_run("hostile", 30);
    sh("cp %s/hostile/report.html %s/hostile/page.keep", tmp, tmp);
    check_says("hostile", 0, NULL);
    for (size_t i = 0; i < countof(hostile_markup); ++i) {
        plant_in_page("hostile", hostile_markup[i][0]);
        check_says("hostile", 1, hostile_markup[i][1]);
    }
}

/* Numbers near the largest a double holds: a share, a sum or a ratio past
 * it is said to be so, never "inf" nor no number. */
static void test_huge_numbers_are_no_inf(void **state)
{
    (void)state;
    make_run("huge", 1e308);
    sh("cd %s/huge && sed -i 's/,4\\.2,/,1e308,/; s/,0\\.0,/,1e308,/' run-log.csv", tmp);
    char args[300];
    snprintf(args, sizeof args, "%s/huge", tmp);
    run_result r = run_with_status(0, NULL, tool, args);
    run_free(&r);
    char *md = slurp_tmp("huge/report.md");
    assert_null(strstr(md, "inf"));
    expect_all_in(md, "(over 1.8e+308%)", "over 1.8e+308 s of benchmarks");
    free(md);
    /* A ratio of two runs past it, either way: said so, not left out. */
    make_run("tiny", 1e-308);
    make_run("negative", -1e308);
    snprintf(args, sizeof args, "--compare %s/tiny %s/huge", tmp, tmp);
    r = run_with_status(0, NULL, tool, args);
    expect_in(r.out, "| triad float | GB/s | 1e-308 | 1e+308 | over 1.8e+308 |");
    run_free(&r);
    snprintf(args, sizeof args, "--compare %s/tiny %s/negative", tmp, tmp);
    r = run_with_status(0, NULL, tool, args);
    expect_in(r.out, "| 1e-308 | -1e+308 | below -1.8e+308 |");
    run_free(&r);
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    make_run("full", 30);
    char args[300];
    snprintf(args, sizeof args, "%s/full", tmp);
    expect_output_must_arrive(tool, args);
}

CLI_TEST_MAIN(test_report_and_check, test_compare_two_runs, test_bad_input, test_figures_that_are_no_png_are_refused,
              test_corrupt_results_are_refused, test_hostile_names_are_escaped, test_parts_from_folders,
              test_compare_replaces_what_is_there, test_check_of_many_anchors, test_run_files_that_are_no_files,
              test_check_asks_for_the_embedded_figures, test_check_refuses_markup_it_does_not_write,
              test_huge_numbers_are_no_inf, test_unwritable_stdout_fails)
