#define _POSIX_C_SOURCE 200809L
#include "gpu_check/cli.h"

#include "gpu_check/judge.h"
#include "gpu_check/rules.h"
#include "shared/csv_schema.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PROG "gpu-check"

static const char usage_text[] =
    "usage: " PROG " RUN_DIR [--gpus-visible N]\n"
    "       " PROG " --rules | --help\n"
    "\n"
    "Judges the CUDA benchmarks of a run of run_all.sh (./run_all.sh --gpu-check runs\n"
    "them and then this) against the limits each device's driver reports: every\n"
    "benchmark's outcome in run-log.csv, every row's valid flag, and each figure of\n"
    "--rules against its plausible range. Prints the table: figure, measured,\n"
    "plausible range, verdict and reason.\n"
    "\n"
    "  --gpus-visible N  GPUs the machine shows (nvidia-smi -L); where N > 0 a CUDA\n"
    "                    benchmark that found no device (exit 77) fails (default 0)\n"
    "  --rules           print the figures judged, their ranges and the published\n"
    "                    figures each range is drawn from, and exit\n"
    "\n"
    "Exit status: 0 every judged figure plausible, 1 something failed, 2 bad usage or\n"
    "unreadable input (one line, file:line), 77 nothing to check (no CUDA benchmark\n"
    "found a device and no GPU is visible).\n";

/* One line, whatever the message holds. */
static int error_line(FILE *err, const char *msg)
{
    fprintf(err, PROG ": error: ");
    for (const char *p = msg; *p; ++p)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, err);
    fputc('\n', err);
    return GC_EXIT_USAGE;
}

static void print_rules(FILE *out)
{
    fprintf(out, "%-21s %-10s %-33s %-8s %s\n", "figure", "benchmark", "row", "unit", "plausible range");
    for (size_t i = 0; i < gc_rule_count(); ++i) {
        const gc_rule *r = gc_rule_at(i);
        char row[128];
        snprintf(row, sizeof row, "%s%s%s%s%s%s", r->variant, r->dtype ? " " : "", r->dtype ? r->dtype : "",
                 r->sweep ? " (" : "", r->sweep ? r->sweep : "", r->sweep ? ")" : "");
        if (r->limit_kind == GC_ABSOLUTE)
            fprintf(out, "%-21s %-10s %-33s %-8s %g..%g %s: %s\n", r->figure, r->benchmark, row, r->unit, r->low,
                    r->high, r->unit, r->why);
        else
            fprintf(out, "%-21s %-10s %-33s %-8s %g..%g x %s%s: %s\n", r->figure, r->benchmark, row, r->unit,
                    r->low, r->high, r->limit, r->limit_required ? " (required)" : "", r->why);
        fprintf(out, "%-21s source: %s\n", "", r->source);
    }
}

/* The widest entry of a column among the lines of one section. */
static int width(const gc_verdicts *v, size_t from, size_t to, size_t field)
{
    size_t w = field == 0 ? 9 : field == 1 ? 8 : 15;
    for (size_t i = from; i < to; ++i) {
        const gc_line *l = &v->lines[i];
        size_t n = strlen(field == 0 ? l->what : field == 1 ? l->measured : l->range);
        if (n > w)
            w = n;
    }
    return (int)w;
}

/* Section by section (the benchmarks, then each device), each aligned on
 * its own. */
static void print_table(FILE *out, const gc_verdicts *v)
{
    for (size_t from = 0, to; from < v->n; from = to) {
        const char *section = v->lines[from].section;
        for (to = from; to < v->n && strcmp(v->lines[to].section, section) == 0;)
            ++to;
        bool tasks = strcmp(section, "benchmarks") == 0;
        int w0 = width(v, from, to, 0), w1 = tasks ? 0 : width(v, from, to, 1), w2 = tasks ? 0 : width(v, from, to, 2);
        if (tasks)
            fprintf(out, "\n%s\n  %-*s  %s\n", section, w0, "benchmark", "verdict");
        else
            fprintf(out, "\n%s\n  %-*s  %-*s  %-*s  %s\n", section, w0, "figure", w1, "measured", w2,
                    "plausible range", "verdict");
        for (size_t i = from; i < to; ++i) {
            const gc_line *l = &v->lines[i];
            if (tasks)
                fprintf(out, "  %-*s  ", w0, l->what);
            else
                fprintf(out, "  %-*s  %-*s  %-*s  ", w0, l->what, w1, l->measured, w2, l->range);
            fprintf(out, "%s%s%s\n", gc_state_word(l->state), l->reason[0] ? ": " : "", l->reason);
        }
    }
}

int gc_main(int argc, char **argv, FILE *out, FILE *err)
{
    const char *dir = NULL;
    unsigned gpus = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, out);
            return GC_EXIT_PASSED;
        } else if (strcmp(a, "--rules") == 0) {
            if (argc != 2)
                return error_line(err, "--rules takes no other argument: it judges no run (see --help)");
            print_rules(out);
            return GC_EXIT_PASSED;
        } else if (strcmp(a, "--gpus-visible") == 0) {
            uint64_t n;
            if (i + 1 >= argc)
                return error_line(err, "--gpus-visible needs a number");
            if (cr_count_fault(argv[i + 1], &n) != NULL || n > 1024) {
                char msg[300];
                snprintf(msg, sizeof msg, "--gpus-visible: '%.200s' is not a count of GPUs (0 to 1024)", argv[i + 1]);
                return error_line(err, msg);
            }
            gpus = (unsigned)n;
            ++i;
        } else if (a[0] == '-' && a[1] != '\0') {
            char msg[300];
            snprintf(msg, sizeof msg, "unknown option '%.200s' (see --help)", a);
            return error_line(err, msg);
        } else if (dir != NULL) {
            return error_line(err, "one run directory only (see --help)");
        } else if (a[0] == '\0') {
            return error_line(err, "the run directory given is empty (see --help)");
        } else {
            dir = a;
        }
    }
    if (dir == NULL)
        return error_line(err, "no run directory given (see --help)");

    gc_run run;
    char msg[4600];
    if (gc_run_load(&run, dir, msg, sizeof msg) != 0) {
        gc_run_free(&run);
        return error_line(err, msg);
    }
    gc_verdicts v;
    gc_judge(&run, gpus, &v);
    fprintf(out, PROG ": %s, %u GPU(s) visible\n", run.root, gpus);
    print_table(out, &v);
    int status;
    if (v.nothing_to_check) {
        fprintf(out, "\n" PROG ": nothing to check: no CUDA benchmark found a device and no GPU is visible (%s)\n",
                v.why_none);
        status = GC_EXIT_NOTHING;
    } else {
        fprintf(out, "\n" PROG ": %s: %zu ok, %zu failed, %zu unjudged, %zu skipped\n",
                v.count[GC_FAILED] ? "FAILED" : "passed", v.count[GC_OK], v.count[GC_FAILED], v.count[GC_UNJUDGED],
                v.count[GC_SKIPPED]);
        status = v.count[GC_FAILED] ? GC_EXIT_FAILED : GC_EXIT_PASSED;
    }
    gc_verdicts_free(&v);
    gc_run_free(&run);
    return status;
}
