/* The report's reading of a run against mutants of a real one: each
 * mutant (one or two files of tools/shared/tests/data/run changed) is
 * loaded in-process as `report RUN` loads it. The run is refused with one
 * line and the exit status of bad data, or read; what is read renders to
 * Markdown and HTML with every field escaped, and every eighth such report,
 * written, passes the report's own check. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/check.h"
#include "report/extract.h"
#include "report/render.h"
#include "shared/tests/fuzz.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fuzz_copy copy;

static int setup(void **state)
{
    (void)state;
    return fuzz_copy_make(&copy, fuzz_run_files, FUZZ_NFILES);
}

static int teardown(void **state)
{
    (void)state;
    return fuzz_copy_free(&copy);
}

/* Both renderings, in memory: whatever the mutants planted (among them
 * "<script>" in any field), no tag of theirs gets through. */
static void render(const rp_run *run)
{
    char *text = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    rp_render_markdown(f, run);
    if (rp_render_html(f, run, err, sizeof err) != 0)
        fail_msg("the HTML of an accepted run: %s", err);
    fclose(f);
    assert_true(len > 0);
    if (strstr(text, "<script") != NULL)
        fail_msg("a field's <script> got into the report unescaped");
    free(text);
}

/* Written, the report passes its own check. */
static void written_report_checks(const rp_run *run, const fuzz_run *f, size_t i)
{
    char err[512] = "", *problems = NULL;
    size_t plen = 0, images, links;
    if (rp_write_reports(run, err, sizeof err) != 0)
        fail_msg("seed %llu, mutant %zu: %s", (unsigned long long)f->seed, i, err);
    FILE *out = open_memstream(&problems, &plen);
    assert_non_null(out);
    int n = rp_check_report(copy.run, out, &images, &links);
    fclose(out);
    if (n != 0)
        fail_msg("seed %llu, mutant %zu: --check finds %d problem(s) in a report of a run it read:\n%s",
                 (unsigned long long)f->seed, i, n, problems);
    free(problems);
}

static void test_the_real_run_reads(void **state)
{
    (void)state;
    rp_run run;
    char err[1024] = "";
    if (rp_load_run(copy.run, &run, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(run.ndevices, 1);
    render(&run);
    fuzz_run f = {0};
    written_report_checks(&run, &f, 0);
    rp_run_free(&run);
}

/* The mutated run: read and rendered, and an eighth of those read also
 * written and checked; or refused as bad data. */
static int read_mutant(fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen)
{
    rp_run run;
    int status = rp_load_run(copy.run, &run, err, errlen);
    if (status == 0) {
        render(&run);
        if (fuzz_below(r, 8) == 0)
            written_report_checks(&run, f, i);
        rp_run_free(&run);
    } else if (status != RP_BAD_DATA) {
        fail_msg("seed %llu, mutant %zu: status %d (%s), want %d", (unsigned long long)f->seed, i, status, err,
                 RP_BAD_DATA);
    }
    return status;
}

static void test_mutants_are_read_or_refused(void **state)
{
    (void)state;
    fuzz_drive_planted("report", 1200, 10, &copy, read_mutant);
}

TEST_MAIN(setup, teardown, test_the_real_run_reads, test_mutants_are_read_or_refused)
