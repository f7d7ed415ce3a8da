#include "plausibility.h"

#include "options.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cr_peaks_unknown(cr_peaks *p)
{
    memset(p, 0, sizeof *p);
    p->memory_gbs = p->compute_gflops[0] = p->compute_gflops[1] = p->local_gbs = NAN;
    p->compute_model_gflops[0] = p->compute_model_gflops[1] = p->host_clock_mhz = NAN;
    snprintf(p->memory_source, sizeof p->memory_source, "unknown");
    snprintf(p->compute_source, sizeof p->compute_source, "unknown");
    snprintf(p->local_source, sizeof p->local_source, "unknown");
}

void cr_flag_add(char *flags, size_t flags_len, char *note, size_t note_len, const char *token, const char *fmt, ...)
{
    size_t used = strlen(flags);
    snprintf(flags + used, flags_len - used, "%s%s", used ? ";" : "", token);
    used = strlen(note);
    if (used + 2 >= note_len)
        return;
    snprintf(note + used, note_len - used, "%s%s: ", used ? "; " : "", token);
    used = strlen(note);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, note_len - used, fmt, ap);
    va_end(ap);
}

static int stability(const cr_peaks *p, cr_result *r)
{
    int n = 0;
    if (strcmp(r->stop, "max-reps") == 0 || strcmp(r->stop, "time-budget") == 0 ||
        strcmp(r->stop, "out-of-reach") == 0) {
        char ci[32] = "unknown";
        if (isfinite(r->stats.ci_rel))
            snprintf(ci, sizeof ci, "+-%.2g%%", 100 * r->stats.ci_rel);
        CR_FLAG(r, "unstable", "stopped at %s after %zu repetitions with the median's 95%% CI %s, target +-%.2g%%",
                r->stop, r->stats.n, ci, 100 * p->target_ci);
        ++n;
    }
    /* Three repetitions are the fewest where a best far from the median
     * says more than one outlier. */
    if (r->stats.n >= 3 && r->stats.median > 0 && r->stats.min / r->stats.median < CR_BIMODAL_RATIO) {
        CR_FLAG(r, "bimodal",
                "the best repetition took %.2g of the median's time (below %.2g): the repetitions fall into groups, "
                "and the median is one group's",
                r->stats.min / r->stats.median, CR_BIMODAL_RATIO);
        ++n;
    }
    return n;
}

/* The larger of the median's and the best's figure: what a reader might
 * quote. */
static double top_figure(const cr_result *r)
{
    if (isnan(r->figure_best) || r->figure >= r->figure_best)
        return r->figure;
    return r->figure_best;
}

static bool positive(double x) { return isfinite(x) && x > 0; }

/* A row whose host limit was measured in its own rounds. */
static bool phase_limited(const cr_result *r) { return r->ref_is_limit && positive(r->limit_best); }

/* What the phase's own limit and the measured spread explain: the margin,
 * widened by the spread of the two medians up to CR_SPREAD_CAP. */
static double allowance(const cr_result *r)
{
    return CR_PEAK_MARGIN * (1 + (positive(r->ref_spread) ? fmin(r->ref_spread, CR_SPREAD_CAP) : 0));
}

/* Memory's ceiling in the row's phase: the peak measured before the run,
 * or the limit of the row's own rounds where memory ran faster then. */
static int above_phase_peak(const cr_peaks *p, cr_result *r, double top)
{
    bool phase = !(p->memory_gbs >= r->limit_best);
    double ceiling = phase ? r->limit_best : p->memory_gbs, allow = allowance(r);
    if (!(top > allow * ceiling))
        return 0;
    CR_FLAG(r, "above-peak", "%.4g GB/s is %.3gx %s of %.4g GB/s, beyond the %.3gx that the margin and the spread "
                             "(+-%.2g%%) explain", top, top / ceiling,
            phase ? "the best of the host's limit in the same rounds" : "the memory peak", ceiling, allow,
            100 * (allow / CR_PEAK_MARGIN - 1));
    return 1;
}

static int peak(const cr_peaks *p, cr_result *r)
{
    double top = top_figure(r);
    if (!isfinite(top))
        return 0;
    if (r->peak_kind == CR_PEAK_MEMORY) {
        int n = 0;
        bool cache = false;
        if (r->working_set_bytes && p->llc_bytes &&
            r->working_set_bytes < (uint64_t)CR_RESIDENT_FACTOR * p->llc_bytes) {
            char ws[32], llc[32];
            cr_format_bytes(r->working_set_bytes, ws, sizeof ws);
            cr_format_bytes(p->llc_bytes, llc, sizeof llc);
            CR_FLAG(r, "cache", "the %s working set is below %dx the %s last-level cache: this is the cache's "
                               "bandwidth, not memory's", ws, CR_RESIDENT_FACTOR, llc);
            cache = true;
            ++n;
        }
        if (!cache && phase_limited(r))
            return n + above_phase_peak(p, r, top);
        if (!cache && isfinite(p->memory_gbs) && top > CR_PEAK_MARGIN * p->memory_gbs) {
            CR_FLAG(r, "above-peak", "%.4g GB/s is %.3gx the memory peak of %.4g GB/s (%s)", top, top / p->memory_gbs,
                    p->memory_gbs, p->memory_source);
            ++n;
        }
        return n;
    }
    if (r->peak_kind == CR_PEAK_LOCAL) {
        if (isfinite(p->local_gbs) && top > CR_PEAK_MARGIN * p->local_gbs) {
            CR_FLAG(r, "above-peak", "%.4g GB/s is %.3gx the local-memory peak of %.4g GB/s (%s)", top,
                    top / p->local_gbs, p->local_gbs, p->local_source);
            return 1;
        }
        return 0;
    }
    if (r->peak_kind == CR_PEAK_COMPUTE) {
        double pk = p->compute_gflops[strcmp(r->dtype, "double") == 0];
        if (isfinite(pk) && top > CR_PEAK_MARGIN * pk) {
            CR_FLAG(r, "above-peak", "%.4g %s is %.3gx the %s peak of %.4g GFLOP/s (%s)", top, r->unit, top / pk,
                    r->dtype[0] ? r->dtype : "float", pk, p->compute_source);
            return 1;
        }
    }
    return 0;
}

static int host_limit(cr_result *r)
{
    if (!r->ref_is_limit)
        return 0;
    double allow = allowance(r);
    bool median = r->ref_ratio > allow, best = r->ref_best_ratio > allow;
    if (!median && !best)
        return 0;
    char bests[64] = "";
    if (positive(r->ref_best_ratio))
        snprintf(bests, sizeof bests, ", best to best %.3gx", r->ref_best_ratio);
    CR_FLAG(r, "above-host-limit", "median to median %.3gx the host's own limit for the same work%s: beyond the "
                                   "%.3gx that the margin and the spread explain, this cannot be this memory's (the "
                                   "host limit was measured short, or the data sat in a cache)",
            r->ref_ratio, bests, allow);
    return 1;
}

int cr_plausibility_check(const cr_peaks *p, cr_result *r)
{
    if (strcmp(r->timer, "none") == 0 || r->stats.n == 0)
        return 0;
    return stability(p, r) + peak(p, r) + host_limit(r);
}

void cr_result_energy_per_unit(cr_result *r)
{
    if (r->energy_j == 0 || !isfinite(r->energy_j))
        return;
    bool idle = !(r->energy_busy >= CR_ENERGY_MIN_BUSY), below = r->energy_j < 0;
    if (idle)
        CR_FLAG(r, "energy-idle",
                "the repetitions kept the device busy %.3g%% of the energy window (at least %.0f%% needed): the "
                "window's energy is the idle device's more than the point's, and is left out",
                100 * r->energy_busy, 100 * CR_ENERGY_MIN_BUSY);
    if (below)
        CR_FLAG(r, "energy-below-static", "the point drew %.3g W less than the static power; its energy is left out",
                -r->power_w);
    if (idle || below) {
        r->energy_j = r->power_w = 0;
        return;
    }
    if (r->bytes_per_rep > 0 && isfinite(r->bytes_per_rep))
        r->pj_per_byte = r->energy_j / r->bytes_per_rep * 1e12;
    if (r->ops_per_rep > 0 && isfinite(r->ops_per_rep))
        r->pj_per_op = r->energy_j / r->ops_per_rep * 1e12;
}
