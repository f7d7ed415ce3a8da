/* The host replay of SFU chains and the bounds it is checked with (the
 * derivation is in truth.h). */
#include "sfu/truth.h"

#include "sfu/chain.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

/* Steps the replay takes before it calls the chain settled: the error of a
 * map with |g'| <= 1/2 halves every step, so 1100 steps take any start in
 * double range to the fixed point; in practice it is exact in a few dozen. */
#define REPLAY_MAX_STEPS 1100

double sfu_truth_f(sfu_func f, double x, double y)
{
    switch (f) {
    case SFU_DIV: return x / y;
    case SFU_RCP: return 1.0 / x;
    case SFU_SQRT: return sqrt(x);
    case SFU_RSQRT: return 1.0 / sqrt(x);
    case SFU_POW: return pow(x, y);
    case SFU_EXP: return exp(x);
    case SFU_LOG: return log(x);
    case SFU_SIN: return sin(x);
    case SFU_COS: return cos(x);
    case SFU_EXP2: return exp2(x);
    case SFU_LOG2: return log2(x);
    case SFU_TAN: return tan(x);
    default: return NAN;
    }
}

static double max_abs_x(const sfu_function *fn) { return fmax(fabs(fn->chain_x_lo), fabs(fn->chain_x_hi)); }

/* The largest |f| a chain meets: a*f + b stays in the domain. */
static double max_abs_f(const sfu_function *fn)
{
    return (max_abs_x(fn) + fabs(fn->chain_b)) / fabs(fn->chain_a);
}

double sfu_truth_err_f(sfu_func f, cr_dtype t, double max_seen, double bound_ulp)
{
    double ulp_f = sfu_ulp(max_abs_f(&sfu_functions[f]), t);
    double e = 2 * max_seen + ulp_f;
    if (isfinite(bound_ulp) && e < bound_ulp * ulp_f)
        e = bound_ulp * ulp_f;
    return e;
}

double sfu_truth_tol_x(sfu_func f, cr_dtype t, double err_f)
{
    const sfu_function *fn = &sfu_functions[f];
    double a = fabs(fn->chain_a), mx = max_abs_x(fn), mf = max_abs_f(fn);
    /* The kernel's a*f + b: a rounded product and a rounded sum (one
     * rounding when contracted to an fma), each at most half an ulp of a
     * value below mx + |b|. */
    double device_round = sfu_ulp(mx + fabs(fn->chain_b), t);
    /* The host's libm (a few ulps in double) and its own multiply-add. */
    double host = a * 4 * sfu_ulp(mf, CR_DOUBLE) + 2 * sfu_ulp(mx + fabs(fn->chain_b), CR_DOUBLE);
    double step = a * err_f + device_round + host;
    return 2 * step;
}

sfu_truth_chain sfu_truth_replay(sfu_func f, double x0, double y, uint32_t iters, double a, double b)
{
    sfu_truth_chain r = {.x = x0};
    double x = x0;
    uint32_t i = 0;
    while (i < iters) {
        double prev = x;
        SFU_CHAIN_STEP(x, r.s, sfu_truth_f(f, prev, y), a, b);
        r.sum_abs_s += fabsl(r.s);
        ++i;
        bool settled = x == prev;
        if (!settled && i >= REPLAY_MAX_STEPS) {
            /* A two-value cycle of roundings: the tail adds values within
             * this of the last. */
            r.tail_slack = fabs(x - prev);
            settled = true;
        }
        if (settled)
            break;
    }
    uint32_t rest = iters - i;
    if (rest) {
        /* sum over k = 1..rest of |s + k*x| <= rest*|s| + |x|*rest*(rest+1)/2 */
        double rd = (double)rest;
        r.sum_abs_s += rd * fabs((double)r.s) + fabs(x) * rd * (rd + 1) / 2;
        r.s += (long double)rest * x;
    }
    r.x = x;
    return r;
}

bool sfu_truth_check_chain(sfu_func f, cr_dtype t, double x0, double y, uint32_t iters, double a, double b,
                           double tol_x, double x_dev, double s_dev, char *why, size_t whylen)
{
    sfu_truth_chain r = sfu_truth_replay(f, x0, y, iters, a, b);
    double u = t == CR_FLOAT ? 0x1p-24 : 0x1p-53;
    double n = (double)iters;
    double tol_end = tol_x + r.tail_slack;
    /* Every partial sum of the device is off by at most i*tol_x before it is
     * rounded, hence the n^2/2 term inside the rounding bound. */
    double tol_s = n * (tol_x + r.tail_slack) + 1.01 * u * (r.sum_abs_s + n * n / 2 * tol_x);
    if (!isfinite(x_dev) || !isfinite(s_dev)) {
        snprintf(why, whylen, "x0=%.9g y=%.9g: end value %.9g, sum %.9g are not finite", x0, y, x_dev, s_dev);
        return false;
    }
    double dx = fabs(x_dev - r.x);
    if (dx > tol_end) {
        snprintf(why, whylen, "x0=%.9g y=%.9g: end value %.9g, replay %.9g (off by %.3g > %.3g)", x0, y, x_dev, r.x,
                 dx, tol_end);
        return false;
    }
    double ds = fabs((double)((long double)s_dev - r.s));
    if (ds > tol_s) {
        snprintf(why, whylen, "x0=%.9g y=%.9g: sum %.9g, replay %.9Lg (off by %.3g > %.3g)", x0, y, s_dev, r.s, ds,
                 tol_s);
        return false;
    }
    return true;
}
