/* Lee's transfer model per path: the fit row, made over the path's
 * verified points only, each point's error against it, and the fits of
 * the cache-resident and the memory sizes apart. */
#include "bandwidth/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The path's fit row: c and b where the fit was made over valid points
 * only, else invalid; its note says what was fitted, how many points were
 * left out, or why there is no fit.
 *
 * The model stays per transfer: S is the size of one transfer and T(S) the
 * time of the repetition that made all of a path's transfers at once. For
 * a duplex copy (two transfers of S, one each way, overlapping) B(S) =
 * S/T(S) is what each direction moved while the other ran, b the rate of
 * one direction, and the path's size rows report the two together. */
static int record_fit_row(bw_run *run, const bw_path *p, const bw_fit_outcome *o)
{
    cr_result r;
    bw_init_device_row(run, &r, p->key, "fit", 0);
    r.bytes_per_rep = NAN;
    r.stats.n = o->valid;
    cr_result_unmeasured(&r);
    r.valid = bw_fit_outcome_valid(o);
    bw_fit_outcome_note(o, r.note, sizeof r.note);
    if (!r.valid)
        return bw_record(run, &r);
    const bw_fit *f = &o->fit;
    r.figure = f->b_Bps * 1e-9;
    snprintf(r.params, sizeof r.params, "c_us=%.4g;b_GBps=%.4g;max_rel_err=%.3g;rms_rel_err=%.3g%s", f->c_s * 1e6,
             f->b_Bps * 1e-9, f->max_rel_err, f->rms_rel_err, f->intercept_clamped ? ";c_clamped_to_0=1" : "");
    size_t used = strlen(r.note);
    unsigned transfers = bw_transfers_of(run, p);
    if (p->kind == BW_CPU_ACCESS)
        snprintf(r.note + used, sizeof r.note - used, "; time = map + access + unmap");
    if (transfers > 1) {
        cr_result_add_param(&r, "transfers=%u", transfers);
        snprintf(r.note + used, sizeof r.note - used, "; b per transfer, %u at once", transfers);
    }
    bw_judge_fit(&run->ses.peaks, f, &r);
    return bw_record(run, &r);
}

/* The fit's error at one measured point, valid only where the point and
 * the fit both are: an invalid point was left out of the fit (its error
 * is still given, as a diagnosis), and without a fit there is no error. */
static int record_fit_error(bw_run *run, const bw_path *p, double bytes, double seconds, bool point_valid,
                            const bw_fit_outcome *o)
{
    cr_result r;
    bw_init_device_row(run, &r, p->key, "fit-error", (uint64_t)bytes);
    r.bytes_per_rep = NAN;
    cr_result_unmeasured(&r);
    snprintf(r.unit, sizeof r.unit, "%%");
    r.valid = point_valid && bw_fit_outcome_valid(o);
    if (!bw_fit_outcome_valid(o)) {
        snprintf(r.params, sizeof r.params, "measured_GBps=%.4g", bytes / seconds * 1e-9);
        snprintf(r.note, sizeof r.note, "no fit for this path (see its fit row)");
        return bw_record(run, &r);
    }
    r.figure = 100.0 * bw_fit_rel_err(&o->fit, bytes, seconds);
    snprintf(r.params, sizeof r.params, "fit_GBps=%.4g;measured_GBps=%.4g",
             bytes / bw_fit_seconds(&o->fit, bytes) * 1e-9, bytes / seconds * 1e-9);
    if (!point_valid)
        snprintf(r.note, sizeof r.note, "this point failed verification: left out of the fit");
    return bw_record(run, &r);
}

/* Lee's model over one regime's sizes apart (transfer_model.h): one row,
 * where the sweep has enough valid sizes in it for a fit (fewer is no
 * failure of the run, only a sweep that does not reach the regime). The
 * cache regime's b is a cache's bandwidth, judged only by how well the
 * model fits; the memory regime's is judged against the memory limit too. */
static int record_regime_fit(bw_run *run, const bw_path *p, const double *bytes, const double *seconds,
                             const bool *valid, size_t n, bw_regime g)
{
    uint64_t llc = run->ses.peaks.llc_bytes;
    double b[BW_MAX_SIZES], t[BW_MAX_SIZES];
    bool v[BW_MAX_SIZES];
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
        if (!isnan(seconds[i]) && bw_regime_of(bytes[i], llc) == g)
            b[m] = bytes[i], t[m] = seconds[i], v[m++] = valid[i];
    if (m == 0)
        return 0;
    bw_fit_outcome o;
    if (bw_fit_valid_points(b, t, v, m, &o) != 0)
        return -1;
    if (!bw_fit_outcome_valid(&o))
        return 0;
    cr_result r;
    bw_init_device_row(run, &r, p->key, "fit-regime", 0);
    r.bytes_per_rep = NAN;
    r.stats.n = o.valid;
    cr_result_unmeasured(&r);
    bw_fit_outcome_note(&o, r.note, sizeof r.note);
    char cache[32];
    cr_format_bytes(llc, cache, sizeof cache);
    size_t used = strlen(r.note);
    snprintf(r.note + used, sizeof r.note - used, "; the %s regime: sizes %s the last-level cache (%s)",
             bw_regime_name(g), g == BW_REGIME_CACHE ? "up to" : "of 4x or more", cache);
    snprintf(r.params, sizeof r.params, "regime=%s;llc_bytes=%llu", bw_regime_name(g), (unsigned long long)llc);
    r.figure = o.fit.b_Bps * 1e-9;
    cr_result_add_param(&r, "c_us=%.4g;b_GBps=%.4g;max_rel_err=%.3g;rms_rel_err=%.3g", o.fit.c_s * 1e6,
                        o.fit.b_Bps * 1e-9, o.fit.max_rel_err, o.fit.rms_rel_err);
    cr_peaks judged = run->ses.peaks;
    if (g == BW_REGIME_CACHE)
        judged.memory_gbs = NAN;
    bw_judge_fit(&judged, &o.fit, &r);
    return bw_record(run, &r);
}

int bw_record_fit(bw_run *run, const bw_path *p, const uint64_t *sizes, const double *seconds, const bool *valid,
                      size_t n, bw_fit *fit, bool *fitted)
{
    double bytes[BW_MAX_SIZES];
    for (size_t i = 0; i < n; ++i)
        bytes[i] = (double)sizes[i];
    bw_fit_outcome o;
    if (bw_fit_valid_points(bytes, seconds, valid, n, &o) != 0) {
        fprintf(stderr, "%s: error: out of memory fitting %s\n", run->ses.opt.program, p->key);
        return -1;
    }
    *fitted = bw_fit_outcome_valid(&o);
    if (*fitted)
        *fit = o.fit;
    if (record_fit_row(run, p, &o) != 0)
        return -1;
    for (size_t i = 0; i < n; ++i)
        if (!isnan(seconds[i]) && record_fit_error(run, p, bytes[i], seconds[i], valid[i], &o) != 0)
            return -1;
    if (run->ses.peaks.llc_bytes == 0)
        return 0; /* no cache size: no regime to tell */
    if (record_regime_fit(run, p, bytes, seconds, valid, n, BW_REGIME_CACHE) != 0 ||
        record_regime_fit(run, p, bytes, seconds, valid, n, BW_REGIME_MEMORY) != 0)
        return -1;
    return 0;
}
