/* report: the characterization report of a results directory, a comparison
 * of two, a check of a written report against the files it cites, or a
 * check that CSV files read as the report reads them (plot/plot.sh's). */
#define _GNU_SOURCE
#include "csv.h"
#include "error.h"
#include "report/check.h"
#include "report/compare.h"
#include "report/extract.h"
#include "report/model.h"
#include "report/registry.h"
#include "report/render.h"
#include "shared/output_check.h"
#include "shared/result_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "report"

static const char usage_text[] =
    "usage: " PROG " RUN_DIR                 write RUN_DIR/report.md and RUN_DIR/report.html\n"
    "       " PROG " --compare DIR_A DIR_B   print the two runs side by side (ratios B/A) as Markdown\n"
    "                                      and write it to DIR_B/compare-<name of DIR_A>.md\n"
    "       " PROG " --check RUN_DIR         check the written report: only the markup the report\n"
    "                                      writes (no script, no event handler, no link or source\n"
    "                                      out of the run), every embedded figure a PNG identical\n"
    "                                      to the run's file it names, every linked file present,\n"
    "                                      every linked CSV reading as the report reads it, every\n"
    "                                      figure of a device directory in the report\n"
    "       " PROG " --read FILE...          read each CSV as the report reads it, as what its name\n"
    "                                      says it is: silent when all read, else the first one's\n"
    "                                      FILE:LINE: why\n"
    "       " PROG " --help\n"
    "\n"
    "RUN_DIR is a run of run_all.sh (results/<date>-<host>/, one directory per device) or one\n"
    "device's directory of CSVs. Every CSV is read as what its name says it is (results,\n"
    "metadata, run log, SFU table, xgraph's output) and refused, FILE:LINE named, when it is\n"
    "not: binary data, a line over 64 KiB, the last line cut short, no header or an unknown\n"
    "one, a record with more or fewer fields than the header, a number that is not finite\n"
    "or not in its column's range. Exit status: 0 ok; 1 such a CSV, a check that failed or\n"
    "a file that could not be written; 2 bad usage (options, a directory or a file that does\n"
    "not exist, a directory that holds no results).\n";

#define die(status, ...) cr_die(PROG, status, __VA_ARGS__)

static void load(const char *dir, rp_run *run)
{
    char err[1024];
    int status = rp_load_run(dir, run, err, sizeof err);
    if (status != 0)
        die(status, "%s", err);
}

static int write_report(const char *dir)
{
    rp_run run;
    load(dir, &run);
    char err[1024];
    if (rp_write_reports(&run, err, sizeof err) != 0)
        die(1, "%s: %s", dir, err);
    size_t figures = 0, without = 0;
    for (size_t i = 0; i < run.ndevices; ++i) {
        without += run.devices[i].no_device;
        for (int s = 0; s < rp_nsections(); ++s)
            figures += run.devices[i].sections[s].figures.n;
    }
    printf("report: %s/report.md and report.html: %zu device(s), %zu figure(s)", run.path, run.ndevices - without,
           figures);
    if (without)
        printf("; %zu director%s where the API found no device", without, without == 1 ? "y" : "ies");
    putchar('\n');
    rp_run_free(&run);
    return 0;
}

typedef struct {
    const rp_run *a, *b;
} compared;

static int compare_writer(FILE *f, void *ctx)
{
    const compared *c = ctx;
    rp_render_compare(f, c->a, c->b);
    return ferror(f) ? -1 : 0;
}

static int compare(const char *dir_a, const char *dir_b)
{
    rp_run a, b;
    char err[2048];
    int status = rp_load_compared(dir_a, dir_b, &a, &b, err, sizeof err);
    if (status != 0)
        die(status, "%s", err);
    rp_render_compare(stdout, &a, &b);
    fflush(stdout);
    /* Written whole beside B, never through what stands there (a FIFO, a
     * link): replaced, as the report's own files are. */
    char path[RP_PATH_LEN + 300];
    snprintf(path, sizeof path, "%s/compare-%s.md", b.path, a.name);
    if (cr_write_atomic(path, compare_writer, &(compared){&a, &b}, err, sizeof err) != 0)
        die(1, "%s", err);
    fprintf(stderr, "report: comparison written to %s\n", path);
    rp_run_free(&a);
    rp_run_free(&b);
    return 0;
}

/* Every problem is listed on stdout; the verdict is one line on stderr,
 * with the first problem in it. */
static int check(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        die(2, "--check: %s is not a directory", dir);
    size_t images = 0, links = 0, len = 0;
    char *list = NULL;
    FILE *m = open_memstream(&list, &len);
    if (m == NULL)
        die(1, "out of memory");
    int problems = rp_check_report(dir, m, &images, &links);
    fclose(m);
    fputs(list, stdout);
    fflush(stdout);
    int first = (int)strcspn(list, "\n");
    if (problems < 0) {
        free(list);
        die(1, "%s/report.html cannot be read", dir);
    }
    if (problems > 0) {
        fprintf(stderr, "report: error: check: %s: %d problem(s), the first: %.*s\n", dir, problems, first, list);
        free(list);
        return 1;
    }
    free(list);
    printf("report: check: %s: %zu embedded figure(s), %zu linked file(s): ok\n", dir, images, links);
    return 0;
}

/* Each file through the shared reader, as the report reads it: what reads
 * says nothing, the first that does not is one line and exit 1. */
static int read_files(char *const *files, int n)
{
    if (n == 0)
        die(2, "--read needs one CSV file or more");
    for (int i = 0; i < n; ++i) {
        struct stat st;
        if (stat(files[i], &st) != 0)
            die(2, "--read: %s does not exist", files[i]);
        cr_csv_table t;
        char err[1024];
        if (cr_csv_load(&t, files[i], cr_schema_for(files[i]), err, sizeof err) != 0)
            die(1, "%s", err);
        cr_csv_free(&t);
    }
    return 0;
}

int main(int argc, char **argv)
{
    cr_check_output_at_exit(PROG);
    if (argc < 2)
        die(2, "no results directory given (see --help)");
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] == '\0')
            die(2, "argument %d is empty: no results directory is named ''", i);
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(first, "--compare") == 0) {
        if (argc != 4)
            die(2, "--compare needs two results directories, DIR_A and DIR_B");
        return compare(argv[2], argv[3]);
    }
    if (strcmp(first, "--read") == 0)
        return read_files(argv + 2, argc - 2);
    if (strcmp(first, "--check") == 0) {
        if (argc != 3)
            die(2, "--check needs one results directory");
        return check(argv[2]);
    }
    if (first[0] == '-')
        die(2, "unknown option '%s' (see --help)", first);
    if (argc != 2)
        die(2, "one results directory at a time ('%s' is extra)", argv[2]);
    return write_report(first);
}
