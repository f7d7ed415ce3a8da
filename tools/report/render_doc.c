#include "report/render_doc.h"

#include "report/backends.h"
#include "report/render_device.h"

#include <math.h>
#include <string.h>

static size_t count_status(const rp_run *run, const char *status)
{
    size_t n = 0;
    for (size_t i = 0; i < run->log.nrows; ++i)
        n += strcmp(run->log.rows[i].cells[1].text, status) == 0;
    return n;
}

static double total_seconds(const rp_run *run)
{
    double s = 0;
    for (size_t i = 0; i < run->log.nrows; ++i)
        if (isfinite(run->log.rows[i].cells[3].num))
            s += run->log.rows[i].cells[3].num;
    return s;
}

/* The value of a device-table row of the first device that has it. */
static const char *device_fact(const rp_run *run, const char *label)
{
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_table *t = rp_find_table(&run->devices[i].sections[RP_DEVICE_SECTION], "device");
        const rp_row *r = t ? rp_find_row(t, label) : NULL;
        if (r && r->cells[0].text[0])
            return r->cells[0].text;
    }
    return "";
}

/* quick or full, as run_all.sh recorded it. */
static const char *run_mode(const rp_run *run)
{
    return run->has_log && run->log.nrows ? run->log.rows[0].cells[4].text : "";
}

/* "Host H (CPU; OS), topology. Measured DATE, a MODE run. N benchmark
 * runs: ...": the facts as data, the host's name in bold. */
static void run_line(FILE *f, const rp_run *run, const rp_markup *m)
{
    fputs(m->para_open, f);
    /* Each fact where the metadata gives it: an interrupted run may have none. */
    const char *host = device_fact(run, "host"), *cpu = device_fact(run, "CPU"), *os = device_fact(run, "OS"),
               *topology = device_fact(run, "topology"), *date = device_fact(run, "date");
    if (host[0]) {
        rp_wrapped(f, m->text, "Host ", "", m->bold_open);
        rp_wrapped(f, m->text, "", host, m->bold_close);
    } else {
        m->own(f, "Host unknown (no metadata)");
    }
    if (cpu[0] || os[0]) {
        rp_wrapped(f, m->text, " (", cpu, cpu[0] && os[0] ? "; " : "");
        rp_wrapped(f, m->text, "", os, ")");
    }
    if (topology[0])
        rp_wrapped(f, m->text, ", ", topology, "");
    fputs(".", f);
    if (date[0])
        rp_wrapped(f, m->text, " Measured ", date, "");
    if (run_mode(run)[0])
        rp_wrapped(f, m->text, date[0] ? ", a " : " A ", run_mode(run), " run");
    if (date[0] || run_mode(run)[0])
        fputs(".", f);
    if (run->has_log) {
        size_t failed = count_status(run, "failed"), interrupted = count_status(run, "interrupted");
        fprintf(f, " %zu benchmark runs: %zu passed, %zu skipped, %s%zu failed%s", run->log.nrows,
                count_status(run, "passed"), count_status(run, "skipped"), failed ? m->failed_open : "", failed,
                failed ? m->failed_close : "");
        if (interrupted)
            fprintf(f, ", %s%zu interrupted%s", m->failed_open, interrupted, m->failed_close);
        double s = total_seconds(run);
        if (isfinite(s))
            fprintf(f, s < 1e15 ? "; %.0f s of benchmarks." : "; %.3g s of benchmarks.", s);
        else {
            char over[32];
            rp_format_past_double(s, over, sizeof over);
            fprintf(f, "; %s s of benchmarks (their sum is past what a double holds).", over);
        }
    }
    fputs(m->para_close, f);
}

/* An interrupted run says so before anything else: which tasks it still
 * owes (the last record of each says interrupted), and how to finish it.
 * Its figures are then partial or missing, which no table below shows. */
static void interrupted_line(FILE *f, const rp_run *run, const rp_markup *m)
{
    size_t n = count_status(run, "interrupted"), k = 0;
    if (n == 0)
        return;
    fputs(m->para_open, f);
    fprintf(f, "%s%sInterrupted:%s%s this run was stopped before it ended, and %zu task(s) did not finish: ",
            m->bold_open, m->failed_open, m->failed_close, m->bold_close, n);
    for (size_t i = 0; i < run->log.nrows; ++i) {
        const rp_row *r = &run->log.rows[i];
        if (strcmp(r->cells[1].text, "interrupted") != 0)
            continue;
        rp_wrapped(f, m->text, k++ ? "; " : "", r->key, "");
        rp_wrapped(f, m->text, " (", r->cells[5].text, ")");
    }
    m->own(f, ". What they measure is partial or missing below. Finish the run with ./run_all.sh --resume ");
    m->text(f, run->path);
    m->own(f, ".");
    fputs(m->para_close, f);
}

static size_t skipped_in(const rp_device *d)
{
    const rp_table *t = rp_find_table(&d->sections[RP_DEVICE_SECTION], "benchmarks");
    size_t n = 0;
    for (size_t i = 0; t && i < t->nrows; ++i)
        n += strcmp(t->rows[i].cells[0].text, "skipped") == 0;
    return n;
}

/* One line per directory where the API found no device, and why. */
static void no_device_lines(FILE *f, const rp_run *run, const rp_markup *m)
{
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_device *d = &run->devices[i];
        if (!d->no_device)
            continue;
        fputs(m->para_open, f);
        rp_wrapped(f, m->text, "No device in ", d->dir[0] ? d->dir : run->name, "/");
        if (d->backend[0])
            rp_wrapped(f, m->text, " (", d->backend, ")");
        rp_wrapped(f, m->text, d->why[0] ? ": " : "", d->why, "");
        fprintf(f, ". Its %zu benchmark run(s) were skipped", skipped_in(d));
        if (rp_offline_has_results(d)) {
            m->own(f, "; what they wrote without one is under ");
            rp_anchor_link(f, m, "offline", "Without a device");
        }
        m->own(f, ".");
        fputs(m->para_close, f);
    }
}

static size_t found(const rp_run *run)
{
    size_t n = 0;
    for (size_t i = 0; i < run->ndevices; ++i)
        n += !run->devices[i].no_device;
    return n;
}

static void device_list(FILE *f, const rp_run *run, const rp_markup *m)
{
    if (found(run) < 2)
        return;
    fputs(m->list_open, f);
    for (size_t i = 0; i < run->ndevices; ++i) {
        if (run->devices[i].no_device)
            continue;
        char id[32];
        snprintf(id, sizeof id, "device-%zu", i + 1);
        fputs(m->item_open, f);
        rp_anchor_link(f, m, id, run->devices[i].label);
        fputs(m->item_close, f);
    }
    fputs(m->list_close, f);
}

/* A run-level section's heading and how to read it. */
static void part_head(FILE *f, const rp_markup *m, const char *id, const char *title, const char *how)
{
    fprintf(f, m->part_open, id);
    rp_wrapped(f, m->own, "", title, m->part_close);
    rp_wrapped(f, m->own, m->how_open, how, m->how_close);
}

static const char peers_how[] =
    "crossroof beside the suites it means to beat, run by tools/peers.sh on the same device in slices that "
    "alternate which suite goes first: each row is a peer's test (test) beside the crossroof benchmark's that does "
    "the same work (crossroof_test), the statistic both report, as GB/s of the same bytes (docs/peers.md says how "
    "each mode counts them). Ratio = crossroof's GB/s / the peer's: above 1 where crossroof is faster. A ratio far "
    "from 1 says the two suites measure the same work differently; flagged rows say why.";
static const char log_how[] =
    "Every benchmark run_all.sh ran, on which device, how it ended and how long it took. Skipped: the benchmark "
    "found no device of its kind (the reason says why); failed: it exited with an error or a failed verification, "
    "and its results must not be used; interrupted: the run was stopped while it ran or before it started, so its "
    "results are partial or missing, and ./run_all.sh --resume runs it.";

/* A run-level section of one table and the file it comes from. */
static void file_part(FILE *f, const rp_markup *m, const char *id, const char *title, const char *how,
                      const rp_table *t, const char *file)
{
    part_head(f, m, id, title, how);
    m->table(f, t);
    fputs(m->data_open, f);
    fputs(" ", f);
    rp_link(f, m, "", file);
    fputs(m->data_close, f);
}

/* A GPU measured through CUDA and OpenCL in one run: its headline numbers
 * side by side. */
static void render_backends(FILE *f, const rp_run *run, const rp_markup *m)
{
    rp_section pairs;
    memset(&pairs, 0, sizeof pairs);
    if (rp_backend_tables(run, &pairs) == 0)
        return;
    part_head(f, m, "apis", "One device, two APIs",
              "Each device below was measured through two APIs in this run. Every headline number both hold, with "
              "the second API's value divided by the first's: above 1 the second is larger (faster for bandwidths "
              "and throughputs, slower for latencies). The same hardware, so a ratio far from 1 is what one API's "
              "compiler, runtime or timer costs.");
    for (size_t k = 0; k < pairs.ntables; ++k) {
        m->table(f, &pairs.tables[k]);
        rp_table_free(&pairs.tables[k]);
    }
}

static int render_offline(FILE *f, const rp_run *run, const rp_markup *m, char *err, size_t errlen)
{
    bool any = false;
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_device *d = &run->devices[i];
        if (!d->no_device || !rp_offline_has_results(d))
            continue;
        if (!any)
            part_head(f, m, "offline", "Without a device",
                      "What benchmarks wrote where their API found no device: what needs only the compiler (an offline "
                      "compile's register table, say), and what the tools made of the "
                      "directory. No number here was measured on a device.");
        any = true;
        if (rp_render_offline(f, run, i, m, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int rp_render_document(FILE *f, const rp_run *run, const rp_markup *m, char *err, size_t errlen)
{
    m->begin(f, run);
    interrupted_line(f, run, m);
    run_line(f, run, m);
    no_device_lines(f, run, m);
    device_list(f, run, m);
    for (size_t i = 0; i < run->ndevices; ++i)
        if (!run->devices[i].no_device && rp_render_device(f, run, i, m, err, errlen) != 0)
            return -1;
    render_backends(f, run, m);
    if (run->has_peers)
        file_part(f, m, "peers", "Peers", peers_how, &run->peers, "peers/peers.csv");
    if (render_offline(f, run, m, err, errlen) != 0)
        return -1;
    if (run->has_log)
        file_part(f, m, "run", "The run", log_how, &run->log, "run-log.csv");
    fputs(m->end, f);
    return 0;
}
