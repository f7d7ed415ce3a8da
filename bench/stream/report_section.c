/* The stream benchmark's part of the report: the five kernels at the fixed
 * size against the host's limit, and the peak of f(k) over the
 * concurrency sweep; on the first screen, the triad of each type against
 * the host's limit and the memory's peak. Its metadata describes the
 * device first. */
#include "report/part.h"

#include <math.h>
#include <stdio.h>

static void fixed_row(rp_section *sec, rp_table *fixed, const cr_csv_table *t, size_t i)
{
    rp_row *r = rp_row_for(fixed, "%s %s", rp_get(t, i, "variant"), rp_get(t, i, "dtype"));
    rp_set_num(r, 0, rp_num(t, i, "figure"), 4);
    rp_set_num(r, 1, rp_num(t, i, "figure_best"), 4);
    rp_set_num(r, 2, rp_param(t, i, "host_limit_GBps"), 4);
    rp_set_num(r, 3, rp_num(t, i, "ref_ratio"), 3);
    rp_mark_flags(sec, fixed, r, 0, t, i);
    char size[48];
    rp_format_bytes(rp_num(t, i, "size_bytes"), size, sizeof size);
    snprintf(fixed->title, sizeof fixed->title, "Arrays of %s each (the fixed sweep), median of the repetitions",
             size);
}

/* The peak of f(k) so far, and the largest k measured. */
static void concurrency_row(rp_section *sec, rp_table *conc, const cr_csv_table *t, size_t i)
{
    rp_row *r = rp_row_for(conc, "%s %s", rp_get(t, i, "variant"), rp_get(t, i, "dtype"));
    double bw = rp_num(t, i, "figure"), k = rp_num(t, i, "work_items");
    if (!isfinite(r->cells[0].num) || bw > r->cells[0].num) {
        rp_set_num(r, 0, bw, 4);
        rp_set_int(r, 1, k);
        rp_mark_flags(sec, conc, r, 0, t, i);
    }
    if (!isfinite(r->cells[2].num) || k > r->cells[2].num)
        rp_set_int(r, 2, k);
}

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *fixed = rp_add_table(sec, "stream-fixed", "", "kernel", "GB/s", "best GB/s", "host limit (GB/s)",
                                   "vs host limit", NULL);
    rp_table *conc = rp_add_table(sec, "stream-concurrency", "Peak of f(k) over the concurrency sweep", "kernel",
                                  "peak f(k) (GB/s)", "k at the peak", "largest k", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!rp_valid(t, i) || !rp_device_row(t, i))
            continue;
        if (rp_is(t, i, "sweep", "fixed"))
            fixed_row(sec, fixed, t, i);
        else if (rp_is(t, i, "sweep", "concurrency"))
            concurrency_row(sec, conc, t, i);
    }
}

static void headline(rp_device *d, int s)
{
    static const char *const types[] = {"float", "double"};
    for (size_t k = 0; k < sizeof types / sizeof *types; ++k) {
        char key[32];
        snprintf(key, sizeof key, "triad %s", types[k]);
        const rp_cell *bw = rp_cell_of(&d->sections[s], "stream-fixed", key, "GB/s");
        if (bw == NULL)
            continue;
        rp_headline *h = rp_headline_add(d, s, "Stream triad, %s", types[k]);
        rp_headline_value(h, bw, "GB/s");
        const rp_cell *host = rp_cell_of(&d->sections[s], "stream-fixed", key, "host limit (GB/s)");
        rp_headline_against(h, "host limit", bw->num, host ? host->num : NAN, "GB/s");
        rp_headline_against(h, "memory peak", bw->num, rp_device_number(d, "memory peak (GB/s)"), "GB/s");
    }
}

const rp_part rp_part_stream = {
    .name = "stream",
    .title = "Stream bandwidth",
    .how = "The five STREAM kernels on arrays of the size in the table's title (bytes counted as STREAM counts "
           "them: arrays read plus arrays written, no write-allocate traffic), median and best of the repetitions. "
           "\"vs host limit\" divides by the host's own limit for the same work on private arrays (a triad, or "
           "for dot a dot), measured in the same rounds as the device for arrays of 16 MiB and more (each round "
           "the host alone in its slice, then the device): a CPU or APU device near 1 gets all the bandwidth the "
           "memory gives the host, and above 1.05 (median to median or best to best), widened by the two medians' "
           "spread up to 10%, is flagged. With a quick run the arrays may still fit in the last-level cache, and are flagged so. A "
           "figure marked \"flagged\" is not to be taken as a fact: the table of flagged figures says why. The "
           "concurrency table is the peak of f(k), the bandwidth against the number k of work-items running at "
           "once (the memory side of Li's X-model), and the k where it was reached.",
    .rank = 20,
    .extract = extract,
    .headline = headline,
    .describes_device = true,
};
