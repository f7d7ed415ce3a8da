/* The atomics benchmark's part of the report: the contention ratio of each
 * operation (Lee's Fig. 4.3) and the empty-kernel launch beside Lee's
 * Table 4.1; on the first screen, the ratio of an add on one global
 * counter and the launch's round trip. */
#include "report/part.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A launch row's mean in microseconds: its mean_us=, else (results
 * written before the rows had it) its mean_s column. */
static double launch_mean_us(const cr_csv_table *t, size_t i)
{
    double us = rp_param(t, i, "mean_us");
    return isfinite(us) ? us : rp_num(t, i, "mean_s") * 1e6;
}

/* results/reference/lee2012-table4.1.csv, embedded by the build: the report
 * is installed and reads no source tree. */
extern const char report_lee2012_table41_csv[];

/* Lee's Table 4.1 parsed and checked (gpu, lee_name, launch_ms in c[]), so
 * that a table is added only when every row is good. */
static int lee_launch_parse(cr_csv_table *t, int c[3], char *err, size_t errlen)
{
    static const char *const cols[] = {"gpu", "lee_name", "launch_ms"};
    const char *csv = report_lee2012_table41_csv;
    if (cr_csv_parse(t, "lee2012-table4.1.csv (built in)", csv, strlen(csv), &cr_schema_any, err, errlen) != 0)
        return -1;
    int rc = cr_csv_require(t, cols, 3, c, err, errlen);
    for (size_t i = 0; i < t->nrows && rc == 0; ++i) {
        double ms;
        rc = cr_csv_number(t, i, c[2], false, &ms, err, errlen);
        if (rc == 0 && !(ms > 0))
            rc = cr_errf(err, errlen, "%s:%u: launch_ms must be positive", t->path, t->rows[i].line);
    }
    if (rc != 0)
        cr_csv_free(t);
    return rc;
}

/* Lee's means beside the device's launch table, in its unit (us). The cells
 * are text: they are the thesis's numbers, not the run's, and a comparison
 * of two runs (which compares numeric cells) must not pair them. */
static void lee_launch_table(rp_section *sec)
{
    if (rp_find_table(sec, "atomics-lee-launch"))
        return;
    cr_csv_table t;
    int c[3];
    char err[256];
    if (lee_launch_parse(&t, c, err, sizeof err) != 0) {
        rp_strings_push(&sec->notes, "Lee 2012 Table 4.1 not shown: %s.", err);
        return;
    }
    rp_table *lee = rp_add_table(sec, "atomics-lee-launch", "Lee 2012 Table 4.1 (mean of 100 empty-kernel launches)",
                                 "GPU", "Lee's name", "mean (us)", NULL);
    for (size_t i = 0; i < t.nrows; ++i) {
        double ms = rp_number(t.rows[i].fields[c[2]]);
        rp_row *r = rp_row_for(lee, "%s", t.rows[i].fields[c[0]]);
        rp_set_text(r, 0, "%s", t.rows[i].fields[c[1]]);
        rp_set_text(r, 1, "%.4g", ms * 1e3);
    }
    cr_csv_free(&t);
}

static void ratio_row(rp_section *sec, rp_table *ratio, const cr_csv_table *t, size_t i)
{
    char space[32];
    rp_row *r = rp_row_for(ratio, "%s %s %s", rp_get(t, i, "variant"), rp_get(t, i, "dtype"),
                           rp_param_text(t, i, "space", space, sizeof space));
    rp_set_num(r, 0, rp_num(t, i, "figure"), 3);
    rp_set_int(r, 1, rp_param(t, i, "degree_high"));
    rp_set_num(r, 2, rp_param(t, i, "low_Mops"), 4);
    rp_set_num(r, 3, rp_param(t, i, "high_Mops"), 4);
    /* not-concurrent among them: a ratio that measured no contention. */
    rp_mark_flags(sec, ratio, r, 0, t, i);
}

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *ratio = rp_add_table(sec, "atomics-ratio",
                                   "Uncontended over one-address throughput per operation (Lee Fig. 4.3)",
                                   "operation type space", "ratio", "work-items per counter", "uncontended (Mop/s)",
                                   "one address (Mop/s)", NULL);
    rp_table *launch = rp_add_table(sec, "atomics-launch",
                                    "Empty-kernel launch, median and mean of the launches (Lee Table 4.1 gives the "
                                    "mean)",
                                    "interval", "median (us)", "mean (us)", "best (us)", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!rp_valid(t, i) || !rp_device_row(t, i))
            continue;
        if (rp_is(t, i, "sweep", "ratio")) {
            ratio_row(sec, ratio, t, i);
        } else if (rp_is(t, i, "sweep", "launch") && rp_is(t, i, "unit", "us")) {
            rp_row *r = rp_row_for(launch, "%s", rp_get(t, i, "variant"));
            rp_set_num(r, 0, rp_num(t, i, "figure"), 4);
            rp_set_num(r, 1, launch_mean_us(t, i), 4);
            rp_set_num(r, 2, rp_num(t, i, "figure_best"), 4);
            rp_mark_flags(sec, launch, r, 0, t, i);
        }
    }
    if (launch->nrows > 0)
        lee_launch_table(sec);
}

static void headline(rp_device *d, int s)
{
    const rp_cell *ratio = rp_cell_of(&d->sections[s], "atomics-ratio", "add uint32 global", "ratio");
    if (ratio) {
        rp_headline *h = rp_headline_add(d, s, "Atomic add, slowdown on one counter");
        rp_headline_value(h, ratio, "x");
        rp_appendf(h->limit, sizeof h->limit, "; ", "Lee 2012: 125x to 630x on GPUs of 2012");
    }
    const rp_cell *trip = rp_cell_of(&d->sections[s], "atomics-launch", "round-trip", "median (us)");
    if (trip) {
        rp_headline *h = rp_headline_add(d, s, "Empty-kernel launch, round trip");
        rp_headline_value(h, trip, "us");
    }
}

const rp_part rp_part_atomics = {
    .name = "atomics",
    .title = "Atomics under contention (Lee 2012, ch. 4)",
    .how = "The ratio is the throughput of an atomic operation with one counter per work-item divided by that with "
           "every work-item of the span on one counter (global memory: all work-items that run; local memory: one "
           "work-group): how many times slower contention makes it (Lee's Fig. 4.3; Lee measured 125 to 630 on the "
           "GPUs of 2012). Below 1 the contended case was faster. Launch latency is an empty kernel's "
           "enqueue-to-start time and round trip (Lee's Table 4.1; his means, on four GPUs of 2012, follow the "
           "device's). Every count was checked against the model of what the operations must leave.",
    .rank = 40,
    .extract = extract,
    .headline = headline,
};
