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
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    put(path, text, strlen(text));
}

/* A run as run_all.sh leaves it: one OpenCL device with stream results and
 * a figure, a CUDA directory with only the log of a skipped benchmark. */
static void make_run(const char *name, double triad)
{
    char dev[300], cuda[300];
    snprintf(dev, sizeof dev, "%s/%s/opencl-0-fake", tmp, name);
    snprintf(cuda, sizeof cuda, "%s/%s/cuda", tmp, name);
    sh("mkdir -p %s %s", dev, cuda);
    char csv[1024];
    snprintf(csv, sizeof csv,
             "benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,params,figure,figure_best,"
             "ref_ratio,valid,note\n"
             "stream,opencl,Fake,triad,float,fixed,268435456,16,host_limit_GBps=40,%g,32,0.75,1,\n"
             "stream,host-openmp,host,triad,float,fixed,268435456,2,host_limit_GBps=40,39,41,0.975,1,\n",
             triad);
    put_text(dev, "stream-opencl.csv", csv);
    put_text(dev, "stream-opencl.meta.csv", "key,value\ndevice.name,Fake device\nbackend,opencl\nhost,testhost\n");
    char path[512];
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
    if (r.status != status || (text && strstr(r.err, text) == NULL))
        fail_msg("--check: status %d (wanted %d), stderr: %s", r.status, status, r.err);
    run_free(&r);
}

static void test_report_and_check(void **state)
{
    (void)state;
    make_run("a", 30);
    char args[300];
    snprintf(args, sizeof args, "%s/a", tmp);
    expect_output(tool, args, 0, "2 device(s), 1 figure(s)");

    char *md = slurp_tmp("a/report.md");
    expect_all_in(md, "| triad float | 30 | 32 | 40 | 0.75 |", /* the device's row only */
                  "![stream-opencl-footprint.png](opencl-0-fake/stream-opencl-footprint.png)",
                  "[stream-opencl.csv](opencl-0-fake/stream-opencl.csv)",
                  "stream-cuda skipped: no CUDA device: planted", "Did not run on this device.", "How to read this.");
    assert_null(strstr(md, "| 39 |"));
    free(md);
    char *html = slurp_tmp("a/report.html");
    char want[256];
    snprintf(want, sizeof want, "src=\"data:image/png;base64,%s\"", tiny_png_base64);
    expect_all_in(html, want, "<style>", "href=\"opencl-0-fake/stream-opencl.csv\"",
                  "href=\"opencl-0-fake/stream-opencl-footprint.svg\"");
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

CLI_TEST_MAIN(test_report_and_check, test_compare_two_runs, test_bad_input)
