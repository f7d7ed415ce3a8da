/* The X-model's part of the report: the parameters build/tools/xgraph
 * fitted (its xgraph-params.csv); the benchmarks it reads fill the same
 * section. On the first screen: R, L and M against the device's peaks,
 * and the X-graph. */
#include "report/part.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void params(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_table *x =
        rp_add_table(sec, "xmodel-params", "", "parameter", "value", "unit", "fit quality", "source", "note", NULL);
    snprintf(x->title, sizeof x->title,
             "R, L, M and the transition points (delta: f(k) saturates; pi: g(x) saturates), from %s", file);
    /* The model's own parameters; the fit's by-products and cross-checks
     * stay in the CSV. */
    static const char *const headline[] = {"R",          "delta_k", "L_ns",       "L_fit_ns", "L_chase_ns",
                                           "M",          "M_E",     "pi_E",       "cache_peak", "Z_ridge",
                                           "n_balance", "R_consistent", "M_consistent"};
    size_t shown = 0;
    for (size_t i = 0; i < t->nrows; ++i) {
        const char *dtype = rp_get(t, i, "dtype"), *ilp = rp_get(t, i, "ilp");
        bool wanted = false;
        for (size_t k = 0; k < sizeof headline / sizeof *headline && !wanted; ++k)
            wanted = strcmp(rp_get(t, i, "parameter"), headline[k]) == 0;
        if (!wanted)
            continue;
        ++shown;
        rp_row *r = rp_row_for(x, "%s%s%s%s%s", rp_get(t, i, "parameter"), *dtype ? " " : "", dtype,
                               *ilp ? " ilp=" : "", ilp);
        rp_set_number_or_text(r, 0, t, i, "value", 4);
        rp_set_text(r, 1, "%s", rp_get(t, i, "unit"));
        rp_set_number_or_text(r, 2, t, i, "fit_quality", 3);
        rp_set_text(r, 3, "%s", rp_get(t, i, "source"));
        rp_set_text(r, 4, "%s", rp_get(t, i, "note"));
        rp_mark_flags(sec, x, r, 0, t, i);
    }
    if (shown < t->nrows)
        rp_strings_push(&sec->notes,
                        "%zu more rows of %s: the fit's other parameters (slopes, the cache form of Eq. 3.5) and "
                        "its cross-checks.",
                        t->nrows - shown, file);
}


/* The parameter's row for the type: "M float ilp=8" for "M float". */
static const rp_row *parameter(const rp_section *sec, const char *name, const char *dtype)
{
    const rp_table *x = rp_find_table(sec, "xmodel-params");
    char key[64];
    int n = snprintf(key, sizeof key, "%s %s", name, dtype);
    for (size_t i = 0; x && i < x->nrows; ++i)
        if (strncmp(x->rows[i].key, key, (size_t)n) == 0 && (x->rows[i].key[n] == '\0' || x->rows[i].key[n] == ' '))
            return x->rows[i].key[0] && x->rows[i].cells[0].text[0] ? &x->rows[i] : NULL;
    return NULL;
}

static void parameter_headline(rp_device *d, int s, const char *what, const char *name, const char *dtype,
                               const char *peak_label, const char *peak_row)
{
    const rp_row *r = parameter(&d->sections[s], name, dtype);
    if (r == NULL)
        return;
    const char *ilp = strstr(r->key, " ilp=");
    rp_headline *h = rp_headline_add(d, s, "%s, %s%s%s", what, dtype, ilp ? ", ILP " : "", ilp ? ilp + 5 : "");
    rp_headline_value(h, &r->cells[0], r->cells[1].text);
    if (peak_label)
        rp_headline_against(h, peak_label, r->cells[0].num, rp_device_number(d, peak_row), r->cells[1].text);
}

static void headline(rp_device *d, int s)
{
    parameter_headline(d, s, "Memory throughput R", "R", "float", "memory peak", "memory peak (GB/s)");
    parameter_headline(d, s, "Memory throughput R", "R", "double", "memory peak", "memory peak (GB/s)");
    parameter_headline(d, s, "Memory latency L", "L_ns", "float", NULL, NULL);
    parameter_headline(d, s, "Compute peak M", "M", "float", "float peak", "float peak (GFLOP/s)");
    parameter_headline(d, s, "Compute peak M", "M", "double", "double peak", "double peak (GFLOP/s)");
}

const rp_part rp_part_xgraph = {
    .name = "xgraph",
    .section = "xmodel",
    .title = "X-model (Li 2016, ch. 3)",
    .how = "Li's cross-roofline model fitted to this device's measurements by build/tools/xgraph: f(k) from the "
           "memory benchmark's concurrency sweep, g(x) from the compute benchmark's (one curve per "
           "instruction-level parallelism E), the latency from the latency benchmark's pointer chase (the "
           "benchmarks whose descriptors give them those parts, xmodel=). R is the largest sustainable "
           "memory throughput (the plateau of f(k)), L the memory latency (L_ns: Little's law at the knee of f(k) "
           "where the pointer chase confirms it within 2x, else the chase's), M the computation lanes (the peak of "
           "g(x); M_E_settled is where a curve that sags past its peak settles); delta and pi are where f(k) and "
           "g(x) saturate, in threads per compute unit. Each value says which measurement it comes from and how "
           "well the fit matched. In the X-graph, where f(k) and g(x)/Z cross is the machine's operating point for "
           "a kernel of compute intensity Z.",
    .rank = 30,
    .extract = params,
    .headline = headline,
    .lead_figures = {"-float.png", "-double.png"},
    .task = "xgraph",
};
