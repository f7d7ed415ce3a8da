/* The SFU benchmark's error measurements: every version of a function
 * against the correctly rounded value (MPFR) over sampled inputs of the
 * typical and the wide domain, special values, and what flushing of
 * subnormal inputs and results the device does. */
#define _GNU_SOURCE
#include "sfu/errors.h"

#include "error.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The seed of a sample: one per function, type and domain, so every
 * version of a function sees the same inputs. */
static uint64_t sample_seed(sfu_func f, cr_dtype t, int domain)
{
    return 0x5f0000u + 16u * f + 4u * t + (unsigned)domain;
}

void sfu_prepare_function(sfu_state *s)
{
    /* y is filled with zeros for unary functions. */
    sfu_sample(s->f, s->t, false, sample_seed(s->f, s->t, 0), s->n, s->typ_x, s->typ_y);
    sfu_exact_many(s->f, s->typ_x, sfu_functions[s->f].arity == 2 ? s->typ_y : NULL, s->n, s->typ_ref);
    s->chain_ref_ready = false;
    s->wide_ready = false;
    for (int v = 0; v < SFU_NVERSIONS; ++v) {
        memset(s->chain_err[v], 0, sizeof s->chain_err[v]);
        s->plateau_wi[v] = 0;
        s->timed[v] = (sfu_chain){0};
    }
}

static const char *bound_text(double bound, char *buf, size_t len)
{
    if (isnan(bound))
        snprintf(buf, len, "none");
    else
        snprintf(buf, len, "%g", bound);
    return buf;
}

/* A row of version v that is not timed: a fixed set of evaluations on
 * the chain kernel of `like`, whose work-group is the row's. */
static void init_fixed_row(const sfu_state *s, cr_result *row, sfu_version v, const char *sweep, const char *unit,
                           const sfu_chain *like)
{
    sfu_init_version_row(s, row, v, sweep);
    cr_result_unmeasured(row);
    snprintf(row->unit, sizeof row->unit, "%s", unit);
    snprintf(row->stop, sizeof row->stop, "fixed");
    row->work_group = like->work_group;
}

/* Names that kernel, last in the params: the errors come first. */
static void add_accuracy_kernel(const sfu_state *s, cr_result *row, sfu_version v, const sfu_chain *like)
{
    char name[16];
    sfu_kernel k = sfu_plain_kernel(s, v);
    cr_result_add_param(row, "accuracy_kernel=%s;ilp=%u", sfu_kernel_name(s, &k, like, name, sizeof name), like->ilp);
}

/* One domain's row: the error statistics of version v over n inputs. */
static int accuracy_row(sfu_state *s, sfu_version v, bool wide, const double *x, const double *y, const sfu_exact_value *ref,
                        sfu_summary_entry *e)
{
    const sfu_function *fn = &sfu_functions[s->f];
    char err[CR_ERRLEN], bound_buf[32];
    cr_result row;
    sfu_chain like = sfu_accuracy_chain(s, v);
    init_fixed_row(s, &row, v, "accuracy", "ulp", &like);
    sfu_kernel k = sfu_plain_kernel(s, v);
    if (sfu_eval_doubles(s, &k, &like, x, y, s->n, s->got, err, sizeof err) != CR_OK) {
        row.valid = false;
        cr_result_add_param(&row, "domain=%s", wide ? "wide" : "typical");
        add_accuracy_kernel(s, &row, v, &like);
        snprintf(row.note, sizeof row.note, "evaluation failed: %s", err);
        e->valid = false;
        return cr_session_record(&s->ses, &row);
    }
    double bound = sfu_bound_ulp(s->f, s->t, v);
    bool flush_ok = !s->be->keeps_subnormals(s->t, v);
    sfu_error_stats st = {0};
    for (size_t i = 0; i < s->n; ++i)
        sfu_error_add(&st, x[i], y[i], s->got[i], ref[i], s->t, isnan(bound) ? INFINITY : bound, flush_ok);
    double mean = sfu_error_mean_rel(&st);
    /* An infinite error (a NaN or infinite result where the exact value is
     * finite) is no number for the CSV: the note says max_ulp was infinite
     * (the harness leaves it out of the params, cr_result_drop_nonfinite_params). */
    row.figure = isinf(st.max_ulp) ? NAN : st.max_ulp;
    row.ops_per_rep = (double)st.n;
    cr_result_add_param(&row, "domain=%s;n=%" PRIu64 ";mean_rel=%.4g;max_rel=%.4g;max_ulp=%.4g;bound_ulp=%s",
                        wide ? "wide" : "typical", st.n, mean, st.max_rel, st.max_ulp,
                        bound_text(bound, bound_buf, sizeof bound_buf));
    cr_result_add_param(&row, "over_bound=%" PRIu64 ";worst_x=%.9g", st.over_bound, st.worst_x);
    if (fn->arity == 2)
        cr_result_add_param(&row, "worst_y=%.9g", st.worst_y);
    add_accuracy_kernel(s, &row, v, &like);
    /* Only the precise built-in is held to a bound: fast versions' errors
     * are what is being measured, however large, but for the floor any
     * version must clear on its typical inputs. */
    if (!wide && sfu_mostly_far(st.far, st.n)) {
        row.valid = false;
        snprintf(row.note, sizeof row.note,
                 "%" PRIu64 " of %" PRIu64 " results off by more than 1/%g of max(|f|,1): not %s at all", st.far, st.n,
                 1 / SFU_FAR_SCALE, fn->name);
    } else if (v == SFU_PRECISE && st.over_bound > 0) {
        row.valid = false;
        snprintf(row.note, sizeof row.note,
                 "%" PRIu64 " of %" PRIu64 " results exceed the specification's %g ulp; worst %.4g ulp at x=%.9g%s",
                 st.over_bound, st.n, bound, st.max_ulp, st.worst_x, fn->arity == 2 ? " (y in params)" : "");
    } else if (st.flushed > 0) {
        snprintf(row.note, sizeof row.note, "%" PRIu64 " subnormal results returned as zero (flush allowed)",
                 st.flushed);
    }
    if (!row.valid)
        e->valid = false;
    if (wide) {
        e->max_ulp_wide = st.max_ulp;
    } else {
        e->mean_rel = mean;
        e->max_rel = st.max_rel;
        e->max_ulp = st.max_ulp;
        e->bound_ulp = bound;
    }
    return cr_session_record(&s->ses, &row);
}

int sfu_accuracy_rows(sfu_state *s, sfu_version v)
{
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    if (accuracy_row(s, v, false, s->typ_x, s->typ_y, s->typ_ref, e) != 0)
        return -1;
    if (!s->wide_ready) {
        bool binary = sfu_functions[s->f].arity == 2;
        sfu_sample(s->f, s->t, true, sample_seed(s->f, s->t, 1), s->n, s->wide_x, s->wide_y);
        sfu_exact_many(s->f, s->wide_x, binary ? s->wide_y : NULL, s->n, s->wide_ref);
        s->wide_ready = true;
    }
    return accuracy_row(s, v, true, s->wide_x, s->wide_y, s->wide_ref, e);
}

/* The inputs whose results disagreed, for the row's note. */
static void add_mismatch(char *note, size_t len, double x, double y, bool binary, double got, sfu_exact_value exact)
{
    size_t used = strlen(note);
    if (used + 48 >= len)
        return;
    if (binary)
        snprintf(note + used, len - used, "%s(%.3g,%.3g)=%.3g not %.3g", used ? "; " : "", x, y, got, exact.hi);
    else
        snprintf(note + used, len - used, "%s(%.3g)=%.3g not %.3g", used ? "; " : "", x, got, exact.hi);
}

int sfu_special_row(sfu_state *s, sfu_version v)
{
    const sfu_function *fn = &sfu_functions[s->f];
    bool binary = fn->arity == 2;
    char err[CR_ERRLEN];
    cr_result row;
    sfu_chain like = sfu_accuracy_chain(s, v);
    init_fixed_row(s, &row, v, "special", "ok", &like);
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];

    double x[SFU_MAX_PROBED], y[SFU_MAX_PROBED], got[SFU_MAX_PROBED];
    sfu_ftz_kind kind[SFU_MAX_FTZ_PROBES];
    size_t ns = sfu_special_inputs(s->f, s->t, x, y, SFU_MAX_SPECIAL);
    size_t np = sfu_ftz_probes(s->f, s->t, x + ns, y + ns, kind, SFU_MAX_FTZ_PROBES);
    if (!binary)
        for (size_t i = 0; i < ns + np; ++i)
            y[i] = 0;
    sfu_kernel k = sfu_plain_kernel(s, v);
    if (sfu_eval_doubles(s, &k, &like, x, y, ns + np, got, err, sizeof err) != CR_OK) {
        add_accuracy_kernel(s, &row, v, &like);
        row.valid = e->valid = false;
        snprintf(row.note, sizeof row.note, "evaluation failed: %s", err);
        return cr_session_record(&s->ses, &row);
    }
    bool claims = s->be->keeps_subnormals(s->t, v);
    double bound = sfu_bound_ulp(s->f, s->t, v);
    size_t ok = 0;
    for (size_t i = 0; i < ns; ++i) {
        sfu_exact_value exact = sfu_exact(s->f, x[i], y[i]);
        /* Fast versions are held to the value's class only (NaN, infinity,
         * signed zero); the precise one also to its bound. A version that
         * may flush computes f of the flushed arguments. */
        double b = isnan(bound) || v != SFU_PRECISE ? INFINITY : bound;
        bool agrees = sfu_special_ok(got[i], exact, s->t, b, !claims);
        if (!agrees && !claims) {
            sfu_exact_value flushed_args =
                sfu_exact(s->f, sfu_flush_subnormal(x[i], s->t), sfu_flush_subnormal(y[i], s->t));
            agrees = sfu_special_ok(got[i], flushed_args, s->t, b, true);
        }
        if (agrees)
            ++ok;
        else
            add_mismatch(row.note, sizeof row.note, x[i], y[i], binary, got[i], exact);
    }
    int seen[2] = {0, 0}, flushed[2] = {0, 0};
    for (size_t j = 0; j < np; ++j) {
        size_t i = ns + j;
        sfu_exact_value exact = sfu_exact(s->f, x[i], y[i]);
        sfu_exact_value at_zero = sfu_exact(s->f, sfu_flush_subnormal(x[i], s->t), sfu_flush_subnormal(y[i], s->t));
        seen[kind[j]]++;
        flushed[kind[j]] += sfu_ftz_flushed(kind[j], got[i], exact, at_zero, s->t);
    }
    const char *in = seen[SFU_FTZ_INPUT] ? (flushed[SFU_FTZ_INPUT] ? "yes" : "no") : "n/a";
    const char *out = seen[SFU_FTZ_RESULT] ? (flushed[SFU_FTZ_RESULT] ? "yes" : "no") : "n/a";
    row.figure = (double)ok;
    row.ops_per_rep = (double)ns;
    cr_result_add_param(&row, "special_ok=%zu/%zu;ftz_inputs=%s;ftz_results=%s;claims_subnormals=%d", ok, ns, in, out,
                        claims ? 1 : 0);
    cr_result_add_param(&row, "ftz_probes=%d+%d", seen[SFU_FTZ_INPUT], seen[SFU_FTZ_RESULT]);
    add_accuracy_kernel(s, &row, v, &like);
    bool fin = flushed[SFU_FTZ_INPUT] > 0, fout = flushed[SFU_FTZ_RESULT] > 0;
    snprintf(e->ftz, sizeof e->ftz, "%s", fin && fout ? "both" : fin ? "inputs" : fout ? "results" : "none");
    if (ok < ns) {
        char head[64];
        snprintf(head, sizeof head, "%zu special input(s) disagree: ", ns - ok);
        size_t hl = strlen(head), nl = strlen(row.note);
        if (hl + nl < sizeof row.note) {
            memmove(row.note + hl, row.note, nl + 1);
            memcpy(row.note, head, hl);
        }
    } else if (claims && (fin || fout)) {
        snprintf(row.note, sizeof row.note, "the device reports subnormal support, yet this version flushes");
    }
    return cr_session_record(&s->ses, &row);
}

/* The slot of a geometry's error: its own, else a free one, else NULL. */
static sfu_chain_err *chain_err_slot(sfu_state *s, sfu_version v, const sfu_chain *like)
{
    sfu_chain_err *free_slot = NULL;
    for (int i = 0; i < SFU_CHAIN_ERR_SLOTS; ++i) {
        sfu_chain_err *e = &s->chain_err[v][i];
        if (e->ilp == like->ilp && e->work_group == like->work_group)
            return e;
        if (e->ilp == 0 && !free_slot)
            free_slot = e;
    }
    return free_slot;
}

double sfu_chain_error(sfu_state *s, sfu_version v, const sfu_chain *like, char *err, size_t errlen)
{
    sfu_chain_err *slot = chain_err_slot(s, v, like);
    if (slot && slot->ilp)
        return slot->err;
    if (!s->chain_ref_ready) {
        uint64_t rng = 0xc4a1u + 16u * s->f + s->t;
        for (size_t i = 0; i < SFU_CHAIN_SAMPLES; ++i)
            sfu_chain_seed(s, &rng, &s->chain_x[i], &s->chain_y[i]);
        bool binary = sfu_functions[s->f].arity == 2;
        sfu_exact_many(s->f, s->chain_x, binary ? s->chain_y : NULL, SFU_CHAIN_SAMPLES, s->chain_ref);
        s->chain_ref_ready = true;
    }
    double got[SFU_CHAIN_SAMPLES];
    sfu_kernel k = sfu_plain_kernel(s, v);
    if (sfu_eval_doubles(s, &k, like, s->chain_x, s->chain_y, SFU_CHAIN_SAMPLES, got, err, errlen) != CR_OK)
        return NAN;
    double worst = 0;
    uint64_t far = 0;
    for (size_t i = 0; i < SFU_CHAIN_SAMPLES; ++i) {
        double d = fabs(got[i] - s->chain_ref[i].hi);
        if (!(d <= worst)) /* NaN too */
            worst = isnan(d) ? INFINITY : d;
        far += sfu_far_off(got[i], s->chain_ref[i].hi);
    }
    /* No tolerance is drawn from a version that is not the function. */
    if (sfu_mostly_far(far, SFU_CHAIN_SAMPLES)) {
        cr_errf(err, errlen,
                "%" PRIu64 " of %d results of the %s kernel off by more than 1/%g of max(|f|,1): not %s at all", far,
                SFU_CHAIN_SAMPLES, sfu_version_names[v], 1 / SFU_FAR_SCALE, sfu_functions[s->f].name);
        return NAN;
    }
    if (slot)
        *slot = (sfu_chain_err){like->ilp, like->work_group, worst};
    return worst;
}
