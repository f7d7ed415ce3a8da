/* The sfu benchmark's part of the report: the Table 6.4/6.5 analogue it
 * writes beside its CSV (the full CSV is a source); on the first screen,
 * the fast version that gains most over the precise one, with its error. */
#include "report/part.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool is_sfu_table(const char *file)
{
    static const char suffix[] = ".table.csv";
    size_t n = strlen(file), k = sizeof suffix - 1;
    return n >= k && strcmp(file + n - k, suffix) == 0;
}

/* An error cell: "inf" where the error is infinite (a NaN or infinite
 * result where the exact value is finite), else the number to digits
 * significant digits, the whole part never cut (32768 ulp, not 3.277e+04). */
static void set_error(rp_row *r, int c, const cr_csv_table *t, size_t i, const char *col, int digits)
{
    if (strcmp(rp_get(t, i, col), "inf") == 0) {
        rp_set_text(r, c, "inf");
        return;
    }
    double v = rp_num(t, i, col);
    for (double whole = 1e4; digits < 17 && fabs(v) >= whole; whole *= 10)
        ++digits;
    rp_set_num(r, c, v, digits);
}

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    if (!is_sfu_table(file))
        return;
    /* Both domains' worst ulp: a native version can be close on the typical
     * domain and thousands of ulp off on the wide one, and only the two side
     * by side say which. */
    rp_table *s = rp_add_table(sec, "sfu-table", "", "function type version", "latency (ns)",
                               "throughput (Gop/s)", "speed-up", "mean rel. err", "max rel. err", "max ulp",
                               "max ulp (wide domain)", "verified", NULL);
    snprintf(s->title, sizeof s->title, "Speed and error per function and version (Li Tables 6.4/6.5), from %s",
             file);
    for (size_t i = 0; i < t->nrows; ++i) {
        rp_row *r = rp_row_for(s, "%s %s %s", rp_get(t, i, "func"), rp_get(t, i, "dtype"),
                               rp_get(t, i, "version"));
        bool ok = rp_valid(t, i);
        rp_set_text(r, 7, "%s", ok ? "yes" : "NO");
        if (!ok)
            continue;
        rp_set_num(r, 0, rp_num(t, i, "latency_ns"), 4);
        rp_set_num(r, 1, rp_num(t, i, "throughput_Gops"), 4);
        rp_mark_flags(sec, s, r, 1, t, i);
        rp_set_num(r, 2, rp_num(t, i, "speedup_vs_precise"), 3);
        set_error(r, 3, t, i, "mean_rel_err", 3);
        set_error(r, 4, t, i, "max_rel_err", 3);
        set_error(r, 5, t, i, "max_ulp", 4);
        set_error(r, 6, t, i, "max_ulp_wide", 4);
    }
}

static void headline(rp_device *d, int s)
{
    const rp_table *t = rp_find_table(&d->sections[s], "sfu-table");
    const rp_row *best = NULL;
    for (size_t i = 0; t && i < t->nrows; ++i)
        if (isfinite(t->rows[i].cells[2].num) && (best == NULL || t->rows[i].cells[2].num > best->cells[2].num))
            best = &t->rows[i];
    if (best == NULL)
        return;
    rp_headline *h = rp_headline_add(d, s, "Special functions, largest speed-up");
    rp_headline_value(h, &best->cells[2], "x");
    rp_appendf(h->value, sizeof h->value, " ", "(%s)", best->key);
    /* The throughput's flags are what the speed-up rests on. */
    rp_headline tp = {0};
    rp_headline_value(&tp, &best->cells[1], "");
    snprintf(h->flags, sizeof h->flags, "%s", tp.flags);
    if (best->cells[5].text[0])
        rp_appendf(h->value, sizeof h->value, ", ", "at most %s ulp off", best->cells[5].text);
}

const rp_part rp_part_sfu = {
    .name = "sfu",
    .title = "Special functions (SFU; Li 2016, ch. 6)",
    .how = "Each transcendental function in its precise and fast versions: the latency of a dependent chain, the "
           "throughput with independent chains, the speed-up of each version over the precise one, and its error "
           "against a correctly rounded reference over sampled inputs (mean and largest relative error, largest "
           "error in ulp on the typical domain and on a wide one). A fast version is worth it where its speed-up "
           "is large and its error is within what the application tolerates (Li's Table 6.4/6.5).",
    .rank = 50,
    .extract = extract,
    .headline = headline,
};
