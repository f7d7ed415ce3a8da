#define _GNU_SOURCE
#include "reproduce/cli.h"
#include "shared/names.h"

#include "csv.h"
#include "error.h"
#include "reproduce/device.h"
#include "reproduce/output.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "reproduce"

static const char usage_text[] =
    "usage: " PROG " RUN\n"
    "       " PROG " --help\n"
    "\n"
    "Holds the tables and figures of the source theses (Li 2016, Lee 2012, Ranasinghe 2014) against\n"
    "each device directory of the run RUN: for every target the thesis's values and this device's,\n"
    "in the same terms, and a verdict by a stated rule: reproduced, holds qualitatively, differs, or\n"
    "not measurable here (and why). Writes DEVICE/reproduce.csv (the verdicts) and\n"
    "DEVICE/reproduce-values.csv (the values side by side) in every device directory, and\n"
    "RUN/reproduce.md, which opens with the summary. The thesis values, with their table or figure,\n"
    "page and line of the thesis text, are results/reference/thesis-values.csv, built in.\n"
    "Exit status: 0 written; 1 a CSV that does not read (FILE:LINE named) or a write that failed;\n"
    "2 bad usage, no such directory, or neither a device directory with results nor a run log\n"
    "(run-log.csv) in it: a run whose benchmarks were all skipped gets a page that says so.\n";

typedef struct {
    const char *run_name;
    const rr_thesis *th;
    rr_device_result *devices;
    size_t n;
    cr_csv_table log; /* the run's run-log.csv; no columns where it has none */
    size_t no_device; /* directories left out: the API found no device there */
} results;

/* Whether the run log says every task of the device directory was
 * skipped (the API found no such device): nothing there to compare. */
static bool found_no_device(const results *r, const char *name)
{
    int dir = cr_csv_column(&r->log, "dir"), status = cr_csv_column(&r->log, "status");
    size_t tasks = 0, skipped = 0;
    for (size_t i = 0; dir >= 0 && status >= 0 && i < r->log.nrows; ++i)
        if (strcmp(r->log.rows[i].fields[dir], name) == 0) {
            ++tasks;
            skipped += strcmp(r->log.rows[i].fields[status], "skipped") == 0;
        }
    return tasks > 0 && skipped == tasks;
}

static void results_free(results *r)
{
    for (size_t i = 0; i < r->n; ++i)
        free(r->devices[i].outcomes);
    free(r->devices);
    cr_csv_free(&r->log);
}

/* One device directory: every target, its files written. 0; 1 (a file
 * that does not read, a write), with err; -1 not a device's directory. */
static int reproduce_device(const char *dir, const char *name, results *r, char *err, size_t errlen)
{
    rr_device d;
    int loaded = rr_device_load(&d, dir, err, errlen);
    if (loaded != 0) {
        rr_device_free(&d);
        return loaded == RR_BAD_FILE ? 1 : -1;
    }
    rr_outcome *o = calloc(rr_target_count(), sizeof *o);
    rr_device_result *grown = o ? realloc(r->devices, (r->n + 1) * sizeof *grown) : NULL;
    if (grown == NULL) {
        free(o);
        rr_device_free(&d);
        snprintf(err, errlen, "%s: out of memory", dir);
        return 1;
    }
    r->devices = grown;
    for (size_t t = 0; t < rr_target_count(); ++t)
        rr_target_at(t)->evaluate(&d, r->th, &o[t]);
    rr_device_free(&d);
    rr_device_result *res = &r->devices[r->n++];
    snprintf(res->name, sizeof res->name, "%s", name);
    res->outcomes = o;
    res->thesis = r->th;
    return rr_write_device(dir, res, err, errlen) == 0 ? 0 : 1;
}

/* Whether an entry of the run is a device's directory to read: no link
 * (a run's device directories are its own), not the peers' folder. */
static bool device_entry(const char *run, const char *name, char *dir, size_t len)
{
    struct stat st;
    snprintf(dir, len, "%s/%s", run, name);
    return name[0] != '.' && strcmp(name, "peers") != 0 && strlen(name) < sizeof ((rr_device_result *)0)->name &&
           lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What an earlier reproduction wrote into a directory now left out, which
 * would read as this one's. */
static void forget_device(const char *dir)
{
    static const char *const names[] = {"reproduce.csv", "reproduce-values.csv", "reproduce-values.png",
                                        "reproduce-values.svg"};
    for (size_t k = 0; k < sizeof names / sizeof *names; ++k) {
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
}

/* A device's directory of the run: left out where the log says the API
 * found no device there, else held against the theses. */
static int reproduce_entry(const char *dir, const char *name, results *r, char *err, size_t errlen)
{
    if (found_no_device(r, name)) {
        r->no_device++;
        forget_device(dir);
        return RR_EXIT_OK;
    }
    return reproduce_device(dir, name, r, err, errlen) == 1 ? RR_EXIT_BAD_DATA : RR_EXIT_OK;
}

static int reproduce_run(const char *run, results *r, char *err, size_t errlen)
{
    struct dirent **ents;
    int n = scandir(run, &ents, NULL, cr_dirent_by_name);
    if (n < 0) {
        snprintf(err, errlen, "%s: %s", run, strerror(errno));
        return RR_EXIT_USAGE;
    }
    int status = RR_EXIT_OK;
    for (int i = 0; i < n; ++i) {
        char dir[4400];
        if (status == RR_EXIT_OK && device_entry(run, ents[i]->d_name, dir, sizeof dir))
            status = reproduce_entry(dir, ents[i]->d_name, r, err, errlen);
        free(ents[i]);
    }
    free(ents);
    /* A run of run_all.sh (its log) whose benchmarks all were skipped has
     * nothing to hold against the theses, and its page says so. */
    if (status == RR_EXIT_OK && r->n == 0 && r->log.ncols == 0) {
        snprintf(err, errlen, "%s holds no device directory with results, nor a run log: not a run", run);
        return RR_EXIT_USAGE;
    }
    return status;
}

static int write_page(FILE *f, void *p)
{
    const results *r = p;
    rr_write_markdown(f, r->run_name, r->th, r->devices, r->n);
    if (r->no_device > 0)
        fprintf(f, "Left out: %zu director%s where the API found no device (every task skipped, run-log.csv).\n",
                r->no_device, r->no_device == 1 ? "y" : "ies");
    return ferror(f) ? -1 : 0;
}

static void summary(FILE *out, const results *r, const char *path)
{
    for (size_t d = 0; d < r->n; ++d)
        for (size_t t = 0; t < rr_target_count(); ++t)
            fprintf(out, "%-22s %-20s %s\n", rr_target_at(t)->id, rr_verdict_name(r->devices[d].outcomes[t].verdict),
                    r->devices[d].name);
    size_t counts[RR_NVERDICTS];
    rr_count(r->devices, r->n, counts);
    fprintf(out, PROG ": %s: %zu reproduced, %zu hold qualitatively, %zu differ, %zu not measurable here\n", path,
            counts[RR_REPRODUCED], counts[RR_QUALITATIVE], counts[RR_DIFFERS], counts[RR_NOT_MEASURABLE]);
}

/* The run's directory, checked: 0, or the exit status with why. */
static int check_run(const char *run, char *why, size_t len)
{
    struct stat st;
    bool found = stat(run, &st) == 0;
    if (!found || !S_ISDIR(st.st_mode))
        return snprintf(why, len, "%.4000s: %s", run, found ? "not a directory" : strerror(errno)), RR_EXIT_USAGE;
    if (strlen(run) > 4000)
        return snprintf(why, len, "the run's path is over 4000 bytes"), RR_EXIT_USAGE;
    return RR_EXIT_OK;
}

static int reproduce(const char *run, FILE *out, char *why, size_t len)
{
    rr_thesis th;
    if (rr_thesis_builtin(&th, why, len) != 0)
        return RR_EXIT_BAD_DATA;
    if (rr_thesis_covers_targets(&th, "thesis-claims.csv", why, len) != 0) {
        rr_thesis_free(&th);
        return RR_EXIT_BAD_DATA;
    }
    const char *slash = strrchr(run, '/');
    results r = {.run_name = slash && slash[1] ? slash + 1 : run, .th = &th};
    /* The log says which directories found no device; a run without one
     * (a copy of device directories) has every directory read. */
    char log[4200];
    snprintf(log, sizeof log, "%s/run-log.csv", run);
    int status = access(log, F_OK) == 0 && cr_csv_load(&r.log, log, &cr_schema_run_log, why, len) != 0
                     ? RR_EXIT_BAD_DATA
                     : reproduce_run(run, &r, why, len);
    if (status == RR_EXIT_OK) {
        char path[4100];
        snprintf(path, sizeof path, "%s/reproduce.md", run);
        if (cr_write_atomic(path, write_page, &r, why, len) != 0)
            status = RR_EXIT_BAD_DATA;
        else
            summary(out, &r, path);
    }
    results_free(&r);
    rr_thesis_free(&th);
    return status;
}

int rr_main(int argc, char **argv, FILE *out)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        fputs(usage_text, out);
        return RR_EXIT_OK;
    }
    char why[4600];
    int status = argc != 2 || argv[1][0] == '\0' || argv[1][0] == '-'
                     ? (snprintf(why, sizeof why, "usage: " PROG " RUN (--help says more)"), RR_EXIT_USAGE)
                     : check_run(argv[1], why, sizeof why);
    if (status == RR_EXIT_OK)
        status = reproduce(argv[1], out, why, sizeof why);
    if (status != RR_EXIT_OK)
        cr_say_error(PROG, "%s", why);
    return status;
}
