/* The SFU benchmark's function table and its inputs: random samples from
 * each function's domains, special values, flush-to-zero probes. */
#include "sfu/functions.h"
#include "random.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

const char *const sfu_version_names[SFU_NVERSIONS] = {"precise", "relaxed-math", "native", "half", "intrinsic",
                                                      "ptx-approx"};

/* Domains: uniform in [lo, hi]; log-uniform magnitude, positive or signed. */
#define UNI(lo, hi) {(lo), (hi), false, false}
#define LOGP(lo, hi) {(lo), (hi), true, false}
#define LOGS(lo, hi) {(lo), (hi), true, true}
/* A row of the table: the function's names, arity, whether it is in Li's
 * double set and the specification's bounds in float and double; its x
 * domains (typical, float's wide, double's wide; a unary function's y
 * domains are left zero, which is no domain); its chain. */
#define FUNC(n, m, ar, dbl, bound_f, bound_d)                                                                      \
    .name = (n), .math = (m), .arity = (ar), .has_double = (dbl), .ulp_bound = {(bound_f), (bound_d)}
#define X_DOMAINS(typical, wide, wide_double) .x_typical = typical, .x_wide = wide, .x_wide_double = wide_double
#define Y_DOMAINS(typical, wide, wide_double) .y_typical = typical, .y_wide = wide, .y_wide_double = wide_double
#define CHAIN(x_lo, x_hi, a, b) .chain_x_lo = (x_lo), .chain_x_hi = (x_hi), .chain_a = (a), .chain_b = (b)
#define CHAIN_Y(y_lo, y_hi) .chain_y_lo = (y_lo), .chain_y_hi = (y_hi)
/* x over the positive numbers: around 1 typically, every normal value wide.
 * Log-uniform, so that odd and even exponents (the two halves of a sqrt
 * table) come equally often, and so do x near 1 (where ln x is small and a
 * fast log's absolute error shows as many ulps) and x far from it. */
#define POSITIVE_X X_DOMAINS(LOGP(1e-3, 1e3), LOGP(FLT_MIN, FLT_MAX), LOGP(DBL_MIN, DBL_MAX))
/* x over a period typically; wide: magnitudes far beyond pi, where a range
 * reduction by a short pi (native_sin, __sinf) loses every bit. */
#define PERIODIC_X X_DOMAINS(UNI(-PI, PI), LOGS(0x1p-20, 1e5), LOGS(0x1p-30, 1e12))

/* Every domain keeps the exact result finite and normal in its type
 * (results beyond the range, subnormal ones and special arguments are the
 * special inputs' and the flush probes' job). The chains are checked by the
 * unit test: a*f maps [chain_x_lo, chain_x_hi] into itself with slope at
 * most 1/2 for every y in [chain_y_lo, chain_y_hi]. */
const sfu_function sfu_functions[SFU_NFUNCS] = {
    /* y's magnitude at least 1e-2: |x/y| <= 1e5, no near-division by 0.
     * Wide: y up to the largest finite, where x * (1/y) fails once 1/y is
     * subnormal (about 1% of the samples: y above 2^126); x from 4 on
     * keeps |x/y| >= 2^-126, and |x/y| <= 2^64 / 2^-62 = 2^126. Chain: x/y
     * in [1/4, 1], slope 1/y <= 1/2 before a. */
    [SFU_DIV] = {FUNC("div", "x/y", 2, true, 2.5, 0.5),
                 X_DOMAINS(UNI(-1e3, 1e3), LOGS(0x1p2, 0x1p64), LOGS(0x1p2, 0x1p512)),
                 Y_DOMAINS(LOGS(1e-2, 1e3), LOGS(0x1p-62, FLT_MAX), LOGS(0x1p-510, DBL_MAX)),
                 CHAIN(1, 2, 0.5, 1.2), CHAIN_Y(2, 4)},
    /* 1/x stays normal for |x| in [2^-126, 2^126]. Chain: 1/x in [1/2, 1],
     * |f'| <= 1. */
    [SFU_RCP] = {FUNC("rcp", "1/x", 1, true, 2.5, 0.5),
                 X_DOMAINS(LOGS(1e-3, 1e3), LOGS(FLT_MIN, 0x1p126), LOGS(DBL_MIN, 0x1p1022)),
                 CHAIN(1, 2, 0.5, 1.2)},
    /* Chain: sqrt(x) in [1, 2], f' in [1/4, 1/2]. */
    [SFU_SQRT] = {FUNC("sqrt", "sqrt(x)", 1, true, 3, 0.5), POSITIVE_X, CHAIN(1, 4, 1, 1.5)},
    /* Chain: 1/sqrt(x) in [1/2, 1], |f'| <= 1/2. */
    [SFU_RSQRT] = {FUNC("rsqrt", "1/sqrt(x)", 1, true, 2, 2), POSITIVE_X, CHAIN(1, 4, 1, 1.5)},
    /* x > 0 (powr); |y log2 x| <= 8 * 10 keeps x^y well inside float.
     * Wide: the whole result range, |y log2 x| up to 7.875 * 16 = 126,
     * where the error of log2 x, multiplied by y, shows. Chain: x^y in
     * [1, 2^1.5], d/dx = y x^(y-1) <= 1.5 * 2^0.5 < 2.2. */
    [SFU_POW] = {FUNC("pow", "x^y", 2, false, 16, 16),
                 X_DOMAINS(UNI(1e-3, 10), LOGP(0x1p-16, 0x1p16), LOGP(0x1p-128, 0x1p128)),
                 Y_DOMAINS(UNI(-8, 8), UNI(-7.875, 7.875), UNI(-7.9375, 7.9375)),
                 CHAIN(1, 2, 0.2, 1.2), CHAIN_Y(0.5, 1.5)},
    /* Wide: ln(FLT_MIN) = -87.34, ln(FLT_MAX) = 88.72; double: -708.40,
     * 709.78. Chain: e^x in [1, e], f' <= e. */
    [SFU_EXP] = {FUNC("exp", "e^x", 1, false, 3, 3), X_DOMAINS(UNI(-10, 10), UNI(-87.3, 88.7), UNI(-708.3, 709.7)),
                 CHAIN(0, 1, 0.15, 0.3)},
    /* Chain: ln x in [0.69, 1.39], away from the cancellation at 1;
     * f' <= 1/2. */
    [SFU_LOG] = {FUNC("log", "ln(x)", 1, false, 3, 3), POSITIVE_X, CHAIN(2, 4, 1, 2)},
    /* Chain: sin x in [0.48, 1], |f'| <= 1. */
    [SFU_SIN] = {FUNC("sin", "sin(x)", 1, false, 4, 4), PERIODIC_X, CHAIN(0.5, 1.5, 0.5, 0.4)},
    /* Chain: cos x in [0.07, 0.88], |f'| <= 1. */
    [SFU_COS] = {FUNC("cos", "cos(x)", 1, false, 4, 4), PERIODIC_X, CHAIN(0.5, 1.5, 0.5, 0.6)},
    /* Wide: 2^x normal and finite, x in (-126, 128); double (-1022, 1024).
     * Chain: 2^x in [1, 2], f' <= 2 ln 2. */
    [SFU_EXP2] = {FUNC("exp2", "2^x", 1, false, 3, 3),
                  X_DOMAINS(UNI(-10, 10), UNI(-125.9, 127.9), UNI(-1021.9, 1023.9)), CHAIN(0, 1, 0.25, 0.25)},
    /* Chain: log2 x in [1, 2], f' <= 1/(2 ln 2). */
    [SFU_LOG2] = {FUNC("log2", "log2(x)", 1, false, 3, 3), POSITIVE_X, CHAIN(2, 4, 0.5, 2.25)},
    /* No float is a pole: tan stays finite (|tan| < 2.3e7) on [-pi, pi].
     * Chain: tan x in [0.26, 1.56], f' <= 3.5. */
    [SFU_TAN] = {FUNC("tan", "tan(x)", 1, false, 5, 5), PERIODIC_X, CHAIN(0.25, 1, 0.125, 0.4)},
};

int sfu_func_by_name(const char *name)
{
    for (int i = 0; name && i < SFU_NFUNCS; ++i)
        if (strcmp(name, sfu_functions[i].name) == 0)
            return i;
    return -1;
}

int sfu_version_by_name(const char *name)
{
    for (int i = 0; name && i < SFU_NVERSIONS; ++i)
        if (strcmp(name, sfu_version_names[i]) == 0)
            return i;
    return -1;
}

sfu_domain sfu_domain_of(sfu_func f, cr_dtype t, bool wide, int arg)
{
    const sfu_function *fn = &sfu_functions[f];
    if (!wide)
        return arg == 0 ? fn->x_typical : fn->y_typical;
    if (t == CR_DOUBLE)
        return arg == 0 ? fn->x_wide_double : fn->y_wide_double;
    return arg == 0 ? fn->x_wide : fn->y_wide;
}

/* ---- values of a type ---- */

static double to_type(double v, cr_dtype t) { return t == CR_FLOAT ? (double)(float)v : v; }

/* The smallest value of t at or above v, the largest at or below. */
static double type_ceil(double v, cr_dtype t)
{
    if (t == CR_DOUBLE)
        return v;
    float f = (float)v;
    return f < v ? nextafterf(f, INFINITY) : f;
}

static double type_floor(double v, cr_dtype t)
{
    if (t == CR_DOUBLE)
        return v;
    float f = (float)v;
    return f > v ? nextafterf(f, -INFINITY) : f;
}

static double next_up(double v, cr_dtype t)
{
    return t == CR_FLOAT ? nextafterf((float)v, INFINITY) : nextafter(v, INFINITY);
}

static double next_down(double v, cr_dtype t)
{
    return t == CR_FLOAT ? nextafterf((float)v, -INFINITY) : nextafter(v, -INFINITY);
}

static double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ---- sampling ---- */

static double uniform01(uint64_t *state) { return (double)(cr_splitmix64(state) >> 11) * 0x1p-53; }

/* Log-uniform: a binade chosen uniformly, then a uniform mantissa in it
 * (every mantissa bit random), clipped to the domain in the end binades. */
static double draw_log(double lo, double hi, cr_dtype t, uint64_t *state)
{
    int elo, ehi;
    frexp(lo, &elo);
    frexp(hi, &ehi); /* binade k is [2^(k-1), 2^k) */
    int e = elo + (int)(cr_splitmix64(state) % (uint64_t)(ehi - elo + 1));
    double b0 = ldexp(0.5, e), b1 = ldexp(1.0, e); /* b1 may be inf */
    double a = fmax(b0, lo), b = fmin(b1, hi);
    double v;
    if (a == b0 && b == b1) {
        int bits = (t == CR_FLOAT ? FLT_MANT_DIG : DBL_MANT_DIG) - 1;
        uint64_t k = cr_splitmix64(state) >> (64 - bits);
        v = b0 * (1 + ldexp((double)k, -bits));
    } else {
        v = a + (b - a) * uniform01(state);
    }
    return clamp(to_type(v, t), lo, hi);
}

static double draw(const sfu_domain *d, cr_dtype t, uint64_t *state)
{
    /* The domain's ends as values of t, so that rounding stays inside. */
    double lo = type_ceil(d->lo, t), hi = type_floor(d->hi, t);
    if (!(lo < hi))
        return lo;
    if (!d->log_uniform) {
        /* 53 random bits leave the last bits of a double far below hi's
         * magnitude zero; a second draw fills them. */
        double w = hi - lo, u = uniform01(state), fine = uniform01(state) * 0x1p-53;
        return clamp(to_type(lo + w * u + w * fine, t), lo, hi);
    }
    double v = draw_log(lo, hi, t, state);
    if (d->is_signed && (cr_splitmix64(state) >> 63))
        v = -v;
    return v;
}

void sfu_sample(sfu_func f, cr_dtype t, bool wide, uint64_t seed, size_t n, double *x, double *y)
{
    sfu_domain dx = sfu_domain_of(f, t, wide, 0), dy = sfu_domain_of(f, t, wide, 1);
    bool binary = sfu_functions[f].arity == 2;
    uint64_t state = seed;
    for (size_t i = 0; i < n; ++i) {
        x[i] = draw(&dx, t, &state);
        if (y)
            y[i] = binary ? draw(&dy, t, &state) : 0.0;
    }
}

/* ---- special inputs and flush probes ---- */

typedef struct {
    double min_sub, max_sub, min_normal, max_finite;
    int min_exp, max_exp; /* of the normal binades: 2^min_exp .. 2^max_exp */
} type_limits;

static type_limits limits_of(cr_dtype t)
{
    if (t == CR_FLOAT)
        return (type_limits){0x1p-149, 0x1p-126 - 0x1p-149, FLT_MIN, FLT_MAX, -126, 127};
    return (type_limits){0x1p-1074, DBL_MIN - 0x1p-1074, DBL_MIN, DBL_MAX, -1022, 1023};
}

typedef struct {
    double *x, *y;
    sfu_ftz_kind *kind;
    size_t n, cap;
    cr_dtype t;
} input_list;

static void put(input_list *l, double x, double y, sfu_ftz_kind kind)
{
    if (l->n >= l->cap)
        return;
    l->x[l->n] = to_type(x, l->t);
    if (l->y)
        l->y[l->n] = to_type(y, l->t);
    if (l->kind)
        l->kind[l->n] = kind;
    l->n++;
}

static void put1(input_list *l, double x) { put(l, x, 0, SFU_FTZ_INPUT); }
static void put2(input_list *l, double x, double y) { put(l, x, y, SFU_FTZ_INPUT); }

/* Both values of t around v (around a threshold such as ln(FLT_MAX)). */
static void put_around(input_list *l, double v)
{
    double below = type_floor(v, l->t);
    put1(l, below);
    put1(l, next_up(below, l->t));
}

/* pow's inputs are those where C99 pow (MPFR's and CUDA's) and OpenCL powr
 * agree; they differ for x < 0 (powr: always NaN; pow: NaN only for a
 * finite non-integral y), x = -0 with an odd integral y, x^0 of 0, inf and
 * NaN, and 1^inf, 1^NaN. */
static void pow_specials(input_list *l, const type_limits *k)
{
    const double pos[] = {k->min_sub, k->min_normal, 0.5, 1, 2, k->max_finite};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; ++i) {
        put2(l, pos[i], 0.0);  /* 1 */
        put2(l, pos[i], -0.0); /* 1 */
    }
    const double ys[] = {2, -2, 0.5, -0.5, 3, -3, k->max_finite, -k->max_finite};
    for (size_t i = 0; i < sizeof ys / sizeof ys[0]; ++i)
        put2(l, 1, ys[i]); /* 1 */
    const double zero_ys[] = {1, -1, 2, -2, 0.5, -0.5, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof zero_ys / sizeof zero_ys[0]; ++i)
        put2(l, 0.0, zero_ys[i]); /* +0 or +inf */
    const double even_ys[] = {2, -2, 0.5, -0.5};
    for (size_t i = 0; i < sizeof even_ys / sizeof even_ys[0]; ++i) {
        put2(l, -0.0, even_ys[i]);    /* +0 or +inf, as for +0 */
        put2(l, INFINITY, even_ys[i]); /* +inf or +0 */
    }
    const double not_one[] = {k->min_sub, 0.5, 2, k->max_finite};
    for (size_t i = 0; i < sizeof not_one / sizeof not_one[0]; ++i) {
        put2(l, not_one[i], INFINITY);  /* +0 below 1, +inf above */
        put2(l, not_one[i], -INFINITY); /* the other way round */
    }
    put2(l, NAN, 2);
    put2(l, 2, NAN);
    put2(l, 0.5, NAN);
    put2(l, -1, 0.5);           /* NaN */
    put2(l, -2, -0.5);          /* NaN */
    put2(l, -k->min_sub, 0.5);  /* NaN */
    put2(l, 2, k->max_exp + 1); /* overflow: inf */
    put2(l, 2, k->min_exp - 60);  /* below half the smallest subnormal: 0 */
    put2(l, k->max_sub, 0.5);
    put2(l, k->min_sub, -0.5);
    put2(l, k->max_finite, 0.5);
    put2(l, k->max_finite, -1); /* subnormal */
    put2(l, k->max_finite, 2);  /* inf */
    put2(l, 10, 0.3);           /* irrational */
}

size_t sfu_special_inputs(sfu_func f, cr_dtype t, double *x, double *y, size_t cap)
{
    input_list l = {x, y, NULL, 0, cap, t};
    type_limits k = limits_of(t);
    if (f == SFU_POW) {
        pow_specials(&l, &k);
        return l.n;
    }
    /* Zeros, the ends of the subnormal and normal ranges, infinities, NaN,
     * and the unit values, with both signs. */
    const double common[] = {0.0, -0.0, k.min_sub, -k.min_sub, k.max_sub, -k.max_sub, k.min_normal,
                             -k.min_normal, k.max_finite, -k.max_finite, INFINITY, -INFINITY, NAN, 1, -1, 3};
    const size_t ncommon = sizeof common / sizeof common[0];
    if (f == SFU_DIV) {
        /* Every pair: 0/0, inf/inf, x/0 and 0/x signs, overflow (max/min_sub),
         * underflow (min_sub/max). */
        for (size_t i = 0; i < ncommon; ++i)
            for (size_t j = 0; j < ncommon; ++j)
                put2(&l, common[i], common[j]);
        return l.n;
    }
    for (size_t i = 0; i < ncommon; ++i)
        put1(&l, common[i]);
    switch (f) {
    case SFU_RCP:
        put1(&l, 2);
        put1(&l, 0.5);
        put1(&l, -0.1);
        break;
    case SFU_SQRT:
    case SFU_RSQRT:
        put1(&l, 4);    /* exact */
        put1(&l, 0.25); /* exact */
        put1(&l, 2);
        break;
    case SFU_EXP:
        put_around(&l, log(k.max_finite));            /* the overflow edge */
        put_around(&l, log(k.min_normal));            /* where results turn subnormal */
        put_around(&l, log(k.min_sub / 2));          /* where they round to zero */
        put1(&l, 10);
        put1(&l, -10);
        break;
    case SFU_EXP2:
        put1(&l, k.max_exp + 1); /* inf */
        put1(&l, k.max_exp);
        put1(&l, k.min_exp);         /* the smallest normal */
        put1(&l, k.min_exp - (t == CR_FLOAT ? 23 : 52)); /* the smallest subnormal */
        put1(&l, k.min_exp - (t == CR_FLOAT ? 24 : 53)); /* half of it: a tie, to 0 */
        put1(&l, 0.5);
        put1(&l, -0.5);
        break;
    case SFU_LOG:
    case SFU_LOG2:
        put1(&l, 2);
        put1(&l, 8);
        put1(&l, 0.5);
        put1(&l, 10);
        put1(&l, 2.718281828459045);
        put1(&l, next_up(1, t));                /* log near 1: a tiny result */
        put1(&l, next_down(1, t));
        break;
    case SFU_SIN:
    case SFU_COS:
    case SFU_TAN:
        /* Where the rounded argument's distance to a multiple of pi/2
         * decides the result. */
        put1(&l, PI);
        put1(&l, PI / 2);
        put1(&l, -PI / 2);
        put1(&l, 1e5);
        put1(&l, 0x1p24);
        put1(&l, 1e22);
        break;
    default:
        break;
    }
    return l.n;
}

size_t sfu_ftz_probes(sfu_func f, cr_dtype t, double *x, double *y, sfu_ftz_kind *kind, size_t cap)
{
    input_list l = {x, y, kind, 0, cap, t};
    type_limits k = limits_of(t);
    const sfu_ftz_kind in = SFU_FTZ_INPUT, out = SFU_FTZ_RESULT;
    switch (f) {
    case SFU_DIV:
        put(&l, k.max_sub, 0x1p-10, in);  /* normal quotient; 0 with x flushed */
        put(&l, -k.max_sub, 0x1p-10, in);
        put(&l, 1, k.max_sub, in);        /* about 2^-min_exp; inf with y flushed */
        put(&l, ldexp(1, k.min_exp + 26), 0x1p30, out); /* 2^(min_exp - 4) */
        put(&l, 1.5, ldexp(1, k.max_exp), out);         /* 1/y itself subnormal */
        break;
    case SFU_RCP:
        put(&l, k.max_sub, 0, in); /* about 2^-min_exp; inf when flushed */
        put(&l, -k.max_sub, 0, in);
        put(&l, ldexp(1, k.max_exp), 0, out);
        put(&l, k.max_finite, 0, out);
        put(&l, -3 * ldexp(1, k.max_exp - 2), 0, out);
        break;
    case SFU_SQRT:
    case SFU_RSQRT:
        /* Normal results (sqrt of a normal is never subnormal). */
        put(&l, k.min_sub, 0, in);
        put(&l, k.max_sub, 0, in);
        break;
    case SFU_POW:
        put(&l, k.max_sub, 0.5, in);     /* 0 when flushed */
        put(&l, k.min_sub, -0.25, in);   /* inf when flushed */
        put(&l, 2, k.min_exp - 4, out);
        put(&l, 0.5, -k.min_exp + 14, out);
        break;
    case SFU_EXP:
        /* exp(subnormal) rounds to exp(0) = 1: no input probe. */
        put(&l, t == CR_FLOAT ? -88 : -709, 0, out);
        put(&l, t == CR_FLOAT ? -100 : -720, 0, out);
        break;
    case SFU_EXP2:
        put(&l, k.min_exp - 4, 0, out);
        put(&l, k.min_exp - 14.5, 0, out);
        break;
    case SFU_LOG:
    case SFU_LOG2:
        put(&l, k.max_sub, 0, in); /* finite; -inf when flushed */
        put(&l, k.min_sub, 0, in);
        break;
    case SFU_SIN:
    case SFU_TAN:
        /* f(x) = x to within far less than an ulp: subnormal in, out. */
        put(&l, k.max_sub, 0, in);
        put(&l, -k.max_sub, 0, in);
        put(&l, k.min_sub, 0, in);
        break;
    default: /* cos: cos(subnormal) rounds to cos(0), and no result is subnormal */
        break;
    }
    return l.n;
}
