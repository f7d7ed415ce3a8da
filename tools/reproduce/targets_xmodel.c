/* Li 2016, Table 3.2 and Fig. 3.10: the memory system's plateau R and its
 * knee, from the X-model's fit (xgraph-params.csv), the memory peak and
 * the compute units the run records. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "reproduce/targets.h"
#include "shared/descriptors.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The nominal bandwidth of the GPU a value of Table 3.2 is keyed by
 * ("GTX570 float": "GTX570"). */
static double table32_memory(const rr_thesis *th, const char *key)
{
    size_t i = 0, n = strcspn(key, " ");
    for (const rr_value *v; (v = rr_next_value(th, "li-table3.2", "mem_GBps", &i)) != NULL;)
        if (strlen(v->key) == n && strncmp(v->key, key, n) == 0)
            return v->value;
    return NAN;
}

/* A number the metadata gives key (benchmark's own first); NaN where none. */
static double meta_number(const rr_device *d, const char *benchmark, const char *key)
{
    double v = NAN;
    const char *text = rr_meta(d, benchmark, key);
    return *text && cr_number_fault(text, &v) == NULL ? v : NAN;
}

static size_t xgraph_row(const rr_file *f, const char *parameter, const char *dtype)
{
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (strcmp(rr_get(f, i, "parameter"), parameter) == 0 && strcmp(rr_get(f, i, "dtype"), dtype) == 0 &&
            isfinite(rr_num(f, i, "value")))
            return i;
    return SIZE_MAX;
}

/* Table 3.2: R over the memory's peak, the thesis GPUs' against the run's,
 * for float and double. */
void rr_li_table32(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *x = rr_named(d, "xgraph-params.csv");
    /* The peak the X-model's memory side was measured against, in its own
     * metadata first. */
    const cr_descriptor *memory = cr_descriptor_xmodel("memory");
    double peak = meta_number(d, memory ? memory->name : NULL, "peak.memory_GBps");
    if (x == NULL)
        return rr_not_measurable(o, "the run has no X-model fit (xgraph-params.csv): xgraph did not run here");
    if (!(peak > 0))
        return rr_not_measurable(o, "the run records no memory peak (peak.memory_GBps) to scale R by");
    static const char *const dtypes[] = {"float", "double"};
    size_t compared = 0, within = 0, premise_fails = 0;
    char cite[200];
    for (size_t k = 0; k < 2; ++k) {
        size_t row = xgraph_row(x, "R", dtypes[k]);
        if (row == SIZE_MAX)
            continue;
        rr_rests_on(o, x, row);
        double run = rr_num(x, row, "value") / peak, lo = NAN, hi = NAN;
        size_t i = 0, n = 0;
        for (const rr_value *v; (v = rr_next_value(th, "li-table3.2", "R_GBps", &i)) != NULL;) {
            if (strstr(v->key, dtypes[k]) == NULL)
                continue;
            double ratio = v->value / table32_memory(th, v->key);
            rr_cite(v, cite, sizeof cite);
            rr_add_pair(o, "R_over_memory_peak", v->key, "x", ratio, run, "R ÷ the memory's peak", cite);
            lo = n == 0 || ratio < lo ? ratio : lo;
            hi = n == 0 || ratio > hi ? ratio : hi;
            ++n;
        }
        ++compared;
        bool cache = strstr(rr_get(x, row, "flags"), "cache") != NULL;
        premise_fails += cache;
        within += !cache && run >= lo - 0.1 && run <= hi + 0.1;
        RR_SAY(o, this_device, "%sR %s = %.3g GB/s, %.2f of the memory's peak (%.4g GB/s)%s", k && *o->this_device ? "; " : "",
               dtypes[k], rr_num(x, row, "value"), run, peak, cache ? ", the cache's" : "");
        RR_SAY(o, reason, "%s%s: %.2f against the thesis's %.2f-%.2f", *o->reason ? "; " : "", dtypes[k], run, lo, hi);
    }
    if (compared == 0)
        return rr_not_measurable(o, "xgraph-params.csv has no R");
    RR_SAY(o, rule,
           "R ÷ the memory's peak (the run's peak.memory_GBps; the thesis's nominal bandwidth); reproduced: within "
           "0.1 of the thesis GPUs' range for every type; holds qualitatively: f(k) reaches a plateau R (the fit "
           "found one); differs: R is not memory's (the arrays sat in a cache: the premise fails)");
    if (premise_fails > 0) {
        o->verdict = RR_DIFFERS;
        RR_SAY(o, reason, "; the triad arrays sat in the last-level cache (flag cache): R is the cache's bandwidth");
    } else {
        o->verdict = within == compared ? RR_REPRODUCED : RR_QUALITATIVE;
    }
}


/* The first of the X-model's latencies the fit gives dtype (else float):
 * the model's own L, the chase's, Little's law's; SIZE_MAX where none. */
static size_t latency_row(const rr_file *x, const char *dtype)
{
    static const char *const names[] = {"L_ns", "L_chase_ns", "L_fit_ns"};
    for (size_t t = 0; t < 2; ++t)
        for (size_t k = 0; k < 3; ++k) {
            size_t row = xgraph_row(x, names[k], t ? "float" : dtype);
            if (row != SIZE_MAX)
                return row;
        }
    return SIZE_MAX;
}

/* The bytes in flight per SM at the knee of each thesis GPU's f(k) for
 * dtype (δ warps × 32 threads × the type's bytes) beside the run's, into
 * o; their range. */
static void knee_bytes(const rr_thesis *th, const char *dtype, double run, rr_outcome *o, double *lo, double *hi)
{
    size_t i = 0, n = 0;
    char cite[200];
    double size = strcmp(dtype, "float") == 0 ? 4 : 8;
    for (const rr_value *v; (v = rr_next_value(th, "li-table3.2", "delta_warps", &i)) != NULL;) {
        if (strstr(v->key, dtype) == NULL)
            continue;
        double bytes = v->value * 32 * size;
        rr_cite(v, cite, sizeof cite);
        rr_add_pair(o, "bytes_in_flight_per_sm", v->key, "B", bytes, run,
                    "thesis: δ warps × 32 × the type's bytes; here R × L ÷ compute units (Little's law)", cite);
        *lo = n == 0 || bytes < *lo ? bytes : *lo;
        *hi = n == 0 || bytes > *hi ? bytes : *hi;
        ++n;
    }
}

/* Fig. 3.10: the X-graph's memory curve, its knee δ in the bytes in
 * flight per SM or compute unit it takes (R × L), beside the thesis GPUs'. */
void rr_li_fig310(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *x = rr_named(d, "xgraph-params.csv");
    double units = meta_number(d, "stream", "device.compute_units");
    if (x == NULL)
        return rr_not_measurable(o, "the run has no X-model fit (xgraph-params.csv): xgraph did not run here");
    if (!(units > 0))
        return rr_not_measurable(o, "the run records no compute units (device.compute_units) to share R × L among");
    static const char *const dtypes[] = {"float", "double"};
    size_t compared = 0, within = 0, cache = 0, no_latency = 0;
    for (size_t k = 0; k < 2; ++k) {
        size_t r = xgraph_row(x, "R", dtypes[k]), l = r == SIZE_MAX ? SIZE_MAX : latency_row(x, dtypes[k]);
        no_latency += r != SIZE_MAX && l == SIZE_MAX;
        if (l == SIZE_MAX)
            continue;
        rr_rests_on(o, x, r);
        rr_rests_on(o, x, l);
        double run = rr_num(x, r, "value") * rr_num(x, l, "value") / units, lo = NAN, hi = NAN;
        knee_bytes(th, dtypes[k], run, o, &lo, &hi);
        size_t z = xgraph_row(x, "Z_ridge", dtypes[k]);
        if (z != SIZE_MAX)
            rr_add_pair(o, "Z_ridge", dtypes[k], "flop/B", NAN, rr_num(x, z, "value"),
                        "M ÷ R, the ridge where the compute curves cross f(k); the thesis prints no M", "Fig. 3.10");
        bool in_cache = strstr(rr_get(x, r, "flags"), "cache") != NULL;
        cache += in_cache;
        within += !in_cache && run >= lo / 2 && run <= hi * 2;
        ++compared;
        RR_SAY(o, this_device, "%s%s: R %.4g GB/s × %s %.4g ns ÷ %.0f units = %.4g B in flight per unit%s",
               *o->this_device ? "; " : "", dtypes[k], rr_num(x, r, "value"), rr_get(x, l, "parameter"),
               rr_num(x, l, "value"), units, run, in_cache ? " (R the cache's)" : "");
        RR_SAY(o, reason, "%s%s: %.4g B against the thesis's %.4g-%.4g", *o->reason ? "; " : "", dtypes[k], run, lo, hi);
    }
    if (compared == 0)
        return rr_not_measurable(o, "%s", no_latency ? "xgraph-params.csv has R but no latency (L_ns, L_chase_ns or "
                                                       "L_fit_ns) to turn it into bytes in flight"
                                                     : "xgraph-params.csv has no R");
    RR_SAY(o, rule, "the knee δ as the bytes in flight per SM it takes (the thesis's δ warps × 32 × the type's "
                    "bytes; here R × L ÷ compute units, Little's law, L the X-model's); reproduced: every type "
                    "within 2x of the thesis GPUs' range; holds qualitatively: f(k) reaches a plateau R (the fit "
                    "found one); differs: R is a cache's (the premise fails)");
    o->verdict = cache > 0 ? RR_DIFFERS : within == compared ? RR_REPRODUCED : RR_QUALITATIVE;
    if (cache > 0)
        RR_SAY(o, reason, "; the triad arrays sat in a cache (flag cache): R × L is not memory's");
}
