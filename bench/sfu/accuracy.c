/* The SFU benchmark's accuracy yardstick: the correctly rounded reference
 * (MPFR, kept as a double-double so that double results are measured as
 * finely as float ones) and the error metrics against it. */
#include "sfu/functions.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mpfr.h>

/* 128 bits hold the 106 of the double-double with 22 to spare; the only
 * way the spare bits matter is a 128-bit result that lands exactly on a
 * midpoint between two doubles, which to_ref resolves with MPFR's ternary
 * value. Lower precision would make lo inexact, not hi wrong. */
#define REF_PREC 128

/* One evaluator's MPFR variables: the arguments (53 bits hold any double
 * exactly), the result, and room for result - hi without rounding. */
typedef struct {
    mpfr_t a, b, r, d;
} ref_ctx;

static void ctx_init(ref_ctx *c)
{
    mpfr_init2(c->a, 53);
    mpfr_init2(c->b, 53);
    mpfr_init2(c->r, REF_PREC);
    mpfr_init2(c->d, REF_PREC + 64);
}

static void ctx_clear(ref_ctx *c)
{
    mpfr_clear(c->a);
    mpfr_clear(c->b);
    mpfr_clear(c->r);
    mpfr_clear(c->d);
}

/* f(a, b) into r; returns MPFR's ternary value (sign of r - exact). */
static int eval_exact(ref_ctx *c, sfu_func f)
{
    const mpfr_rnd_t rn = MPFR_RNDN;
    switch (f) {
    case SFU_DIV: return mpfr_div(c->r, c->a, c->b, rn);
    case SFU_RCP: return mpfr_ui_div(c->r, 1, c->a, rn);
    case SFU_SQRT: return mpfr_sqrt(c->r, c->a, rn);
    case SFU_RSQRT:
        /* MPFR gives +inf for both zeros; IEEE 754 rSqrt, CUDA's rsqrt and
         * the precise form 1/sqrt(x) give the zero's sign: rsqrt(-0) = -inf. */
        if (mpfr_zero_p(c->a)) {
            mpfr_set_inf(c->r, mpfr_signbit(c->a) ? -1 : 1);
            return 0;
        }
        return mpfr_rec_sqrt(c->r, c->a, rn);
    case SFU_POW: return mpfr_pow(c->r, c->a, c->b, rn);
    case SFU_EXP: return mpfr_exp(c->r, c->a, rn);
    case SFU_LOG: return mpfr_log(c->r, c->a, rn);
    case SFU_SIN: return mpfr_sin(c->r, c->a, rn);
    case SFU_COS: return mpfr_cos(c->r, c->a, rn);
    case SFU_EXP2: return mpfr_exp2(c->r, c->a, rn);
    case SFU_LOG2: return mpfr_log2(c->r, c->a, rn);
    case SFU_TAN: return mpfr_tan(c->r, c->a, rn);
    default: mpfr_set_nan(c->r); return 0;
    }
}

/* r (inexact by ternary) as hi = RN(exact), lo = RN(exact - hi). */
static sfu_exact_value to_ref(ref_ctx *c, int ternary)
{
    sfu_exact_value e = {mpfr_get_d(c->r, MPFR_RNDN), 0};
    /* Below half the smallest subnormal, RN(exact - 0) is 0 as well. */
    if (!isfinite(e.hi) || e.hi == 0)
        return e;
    mpfr_sub_d(c->d, c->r, e.hi, MPFR_RNDN); /* exact: d has the bits */
    e.lo = mpfr_get_d(c->d, MPFR_RNDN);
    if (ternary != 0 && e.lo != 0) {
        /* r on a midpoint of two doubles: ties-to-even may have picked the
         * side the exact value is not on. The ternary says which it is. */
        double next = nextafter(e.hi, e.lo > 0 ? INFINITY : -INFINITY);
        bool exact_beyond_r = e.lo > 0 ? ternary < 0 : ternary > 0;
        if (isfinite(next) && 2 * e.lo == next - e.hi && exact_beyond_r) {
            e.lo = -e.lo;
            e.hi = next;
        }
    }
    return e;
}

static sfu_exact_value ref_eval(ref_ctx *c, sfu_func f, double x, double y)
{
    mpfr_set_d(c->a, x, MPFR_RNDN);
    mpfr_set_d(c->b, y, MPFR_RNDN);
    return to_ref(c, eval_exact(c, f));
}

sfu_exact_value sfu_exact(sfu_func f, double x, double y)
{
    ref_ctx c;
    ctx_init(&c);
    sfu_exact_value e = ref_eval(&c, f, x, y);
    ctx_clear(&c);
    return e;
}

void sfu_exact_many(sfu_func f, const double *x, const double *y, size_t n, sfu_exact_value *out)
{
#pragma omp parallel
    {
        ref_ctx c;
        ctx_init(&c);
        /* Dynamic: sin of 1e5 costs more than sin of 1. */
#pragma omp for schedule(dynamic, 512)
        for (size_t i = 0; i < n; ++i)
            out[i] = ref_eval(&c, f, x[i], y ? y[i] : 0.0);
        ctx_clear(&c);
        /* The per-thread constant caches (pi, log 2) would otherwise
         * outlive the call in the pool's threads. */
        mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    }
}

/* ---- type properties ---- */

static double min_normal(cr_dtype t) { return t == CR_FLOAT ? FLT_MIN : DBL_MIN; }
static double max_finite(cr_dtype t) { return t == CR_FLOAT ? FLT_MAX : DBL_MAX; }

bool sfu_is_subnormal(double v, cr_dtype t) { return v != 0 && fabs(v) < min_normal(t); }

double sfu_flush_subnormal(double v, cr_dtype t) { return sfu_is_subnormal(v, t) ? copysign(0.0, v) : v; }

/* A float as a double, with float's overflow threshold 2^128 standing in
 * for an infinity so that the distances to it are finite. */
static double extended(float v) { return isinf(v) ? copysign(0x1p128, v) : v; }

double sfu_exact_to_type(sfu_exact_value exact, cr_dtype t)
{
    if (t == CR_DOUBLE)
        return exact.hi;
    float f = (float)exact.hi;
    double fd = extended(f);
    if (fd == exact.hi || exact.lo == 0 || isnan(exact.hi))
        return f;
    /* hi lies strictly between f and its neighbour g; only a tie needs lo,
     * which then says on which side the exact value is. */
    float g = nextafterf(f, fd < exact.hi ? INFINITY : -INFINITY);
    double gd = extended(g);
    if (fabs(exact.hi - fd) == fabs(gd - exact.hi) && (gd > fd) == (exact.lo > 0))
        return g;
    return f;
}

double sfu_ulp(double v, cr_dtype t)
{
    const int digits = t == CR_FLOAT ? FLT_MANT_DIG : DBL_MANT_DIG;
    double a = fabs(v);
    if (isnan(a))
        return NAN;
    if (a >= max_finite(t))
        a = max_finite(t);
    if (a < min_normal(t))
        a = min_normal(t); /* the subnormals share the smallest normals' spacing */
    int e;
    frexp(a, &e); /* a in [2^(e-1), 2^e) */
    return ldexp(1.0, e - digits);
}

/* The ulp at the exact value rather than at hi: hi may have rounded up to
 * a power of two from just below it, where the spacing is half. */
static double ulp_at(sfu_exact_value exact, cr_dtype t)
{
    double u = sfu_ulp(exact.hi, t);
    double a = fabs(exact.hi);
    int e;
    if (exact.lo != 0 && signbit(exact.lo) != signbit(exact.hi) && a > min_normal(t) && a < max_finite(t) &&
        frexp(a, &e) == 0.5)
        u /= 2;
    return u;
}

double sfu_ulp_error(double got, sfu_exact_value exact, cr_dtype t)
{
    double ex = sfu_exact_to_type(exact, t);
    if (isnan(ex) || isnan(got))
        return isnan(ex) && isnan(got) ? 0.0 : INFINITY;
    if (isinf(ex) || isinf(got))
        return got == ex ? 0.0 : INFINITY;
    /* got - hi is exact whenever the two are within a factor of two, i.e.
     * whenever the error is small enough for its rounding to matter. */
    return fabs((got - exact.hi) - exact.lo) / ulp_at(exact, t);
}

double sfu_rel_error(double got, sfu_exact_value exact)
{
    if (!isfinite(exact.hi) || exact.hi == 0)
        return NAN;
    if (isnan(got))
        return INFINITY;
    return fabs((got - exact.hi) - exact.lo) / fabs(exact.hi);
}

/* The position of v on the line of t's values ordered by magnitude and
 * sign; both zeros sit at 0 and an infinity one step past the largest
 * finite value. */
static int64_t ordered(double v, cr_dtype t)
{
    if (t == CR_FLOAT) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        int64_t m = u & UINT32_C(0x7fffffff);
        return (u >> 31) ? -m : m;
    }
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    int64_t m = (int64_t)(u & UINT64_C(0x7fffffffffffffff));
    return (u >> 63) ? -m : m;
}

uint64_t sfu_ulp_distance(double a, double b, cr_dtype t)
{
    if (isnan(a) || isnan(b))
        return UINT64_MAX;
    int64_t oa = ordered(a, t), ob = ordered(b, t);
    /* The difference of two positions fits in 64 unsigned bits. */
    return oa >= ob ? (uint64_t)oa - (uint64_t)ob : (uint64_t)ob - (uint64_t)oa;
}

/* A zero of the sign of a non-zero subnormal exact result: what a device
 * that flushes results to zero returns. */
static bool is_flush(double got, sfu_exact_value exact, cr_dtype t)
{
    double ex = sfu_exact_to_type(exact, t);
    return got == 0 && sfu_is_subnormal(ex, t) && signbit(got) == signbit(ex);
}

bool sfu_far_off(double got, double exact)
{
    if (isnan(exact) || isinf(exact))
        return isnan(exact) ? !isnan(got) : got != exact;
    return !(fabs(got - exact) <= SFU_FAR_SCALE * fmax(1.0, fabs(exact)));
}

bool sfu_mostly_far(uint64_t far, uint64_t n)
{
    return far > n / 8;
}

void sfu_error_add(sfu_error_stats *s, double x, double y, double got, sfu_exact_value exact, cr_dtype t, double bound,
                   bool flush_allowed)
{
    s->n++;
    double ex = sfu_exact_to_type(exact, t);
    s->far += sfu_far_off(got, ex);
    if (is_flush(got, exact, t)) {
        s->flushed++;
        if (flush_allowed)
            return;
    }
    double ulp = sfu_ulp_error(got, exact, t);
    if (s->n == 1 || ulp > s->max_ulp) {
        s->max_ulp = ulp;
        s->worst_x = x;
        s->worst_y = y;
    }
    if (ulp > bound)
        s->over_bound++;
    /* A relative error exists where the correct result of type t is finite
     * and non-zero (a float overflow to inf is right, not infinitely wrong). */
    if (isfinite(ex) && ex != 0) {
        double rel = sfu_rel_error(got, exact);
        s->n_rel++;
        s->sum_rel += rel;
        if (rel > s->max_rel)
            s->max_rel = rel;
    }
}

double sfu_error_mean_rel(const sfu_error_stats *s) { return s->n_rel ? s->sum_rel / (double)s->n_rel : NAN; }

bool sfu_special_ok(double got, sfu_exact_value exact, cr_dtype t, double bound, bool flush_allowed)
{
    double ex = sfu_exact_to_type(exact, t);
    if (isnan(ex))
        return isnan(got);
    if (isnan(got))
        return false;
    if (isinf(ex) || isinf(got))
        return got == ex;
    if (exact.hi == 0) /* an exact zero: its sign is part of the answer */
        return got == 0 && signbit(got) == signbit(exact.hi);
    if (flush_allowed && is_flush(got, exact, t))
        return true;
    return sfu_ulp_error(got, exact, t) <= bound;
}

bool sfu_ftz_flushed(sfu_ftz_kind kind, double got, sfu_exact_value exact, sfu_exact_value at_zero, cr_dtype t)
{
    if (kind == SFU_FTZ_RESULT)
        return got == 0;
    double ex = sfu_exact_to_type(exact, t), az = sfu_exact_to_type(at_zero, t);
    bool same_as_zero_arg = (isnan(got) && isnan(az)) || got == az;
    bool distinguishable = !((isnan(ex) && isnan(az)) || ex == az);
    return same_as_zero_arg && distinguishable;
}
