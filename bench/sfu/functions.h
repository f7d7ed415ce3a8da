/* The functions the SFU benchmark measures and how their accuracy is
 * judged: the function table (names, arity, sampling domains, the OpenCL
 * specification's ULP bounds, the contracting chain each throughput and
 * latency kernel iterates), the correctly rounded reference (MPFR), and the
 * error metrics (ULP error against the exact value, relative error, the
 * integer ULP distance between two results, flush-to-zero detection). */
#ifndef CR_SFU_FUNCTIONS_H
#define CR_SFU_FUNCTIONS_H

#include "cr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Li's nine single-precision functions (Table 6.1), then exp2, log2, tan. */
typedef enum {
    SFU_DIV,   /* x/y */
    SFU_RCP,   /* 1/x */
    SFU_SQRT,  /* sqrt(x) */
    SFU_RSQRT, /* 1/sqrt(x) */
    SFU_POW,   /* x^y (x > 0: powr in OpenCL) */
    SFU_EXP,
    SFU_LOG,
    SFU_SIN,
    SFU_COS,
    SFU_EXP2,
    SFU_LOG2,
    SFU_TAN,
    SFU_NFUNCS
} sfu_func;

/* How a function is computed. OpenCL: the built-in, the same built-in in a
 * program built with -cl-fast-relaxed-math, native_*, half_*. CUDA: the
 * precise function, the intrinsic (__fdividef, __expf, __sinf, rsqrtf, ...)
 * and inline PTX .approx.ftz (Li's SFU version, the only one for rcp, sqrt
 * and double precision). */
typedef enum {
    SFU_PRECISE,
    SFU_RELAXED,
    SFU_NATIVE,
    SFU_HALF,
    SFU_INTRINSIC,
    SFU_PTX_APPROX,
    SFU_NVERSIONS
} sfu_version;

/* "precise", "relaxed-math", "native", "half", "intrinsic", "ptx-approx" */
extern const char *const sfu_version_names[SFU_NVERSIONS];

/* A sampling domain of one argument: uniform in [lo, hi], or log-uniform in
 * magnitude over [lo, hi] (0 < lo) with a random sign when is_signed. */
typedef struct {
    double lo, hi;
    bool log_uniform;
    bool is_signed;
} sfu_domain;

typedef struct {
    const char *name;   /* "div", "rcp", "sqrt", "rsqrt", "pow", "exp", "log", "sin", "cos", "exp2", "log2", "tan" */
    const char *math;   /* "x/y", "1/x", "sqrt(x)", ... for tables */
    int arity;          /* 1 or 2 */
    bool has_double;    /* Li's double-precision set: div, rcp, sqrt, rsqrt */
    /* OpenCL 1.2 full profile (section 7.4) bound for the precise built-in,
     * [0] float, [1] double; 0.5 = correctly rounded. */
    double ulp_bound[CR_NDTYPES];
    /* Accuracy inputs. typical: the range applications use (e.g. sin on
     * [-pi, pi]), the same for both types; wide: the whole range where the
     * result is finite, to show range-reduction failures (e.g. sin on |x| up
     * to 1e5 and beyond). x_wide and y_wide are float's; double's own range
     * is wider, so it has x_wide_double and y_wide_double. sfu_domain_of
     * picks the right one. y domains of unary functions are {0, 0}. */
    sfu_domain x_typical, y_typical, x_wide, y_wide;
    sfu_domain x_wide_double, y_wide_double;
    /* The throughput and latency chain: x <- a*f(x, y) + b with y fixed per
     * chain in [y_lo, y_hi] and x in [x_lo, x_hi], a map of that interval
     * into itself whose derivative stays below 1/2 in magnitude, so that a
     * rounding error never grows and the host can check the end value. */
    double chain_x_lo, chain_x_hi, chain_y_lo, chain_y_hi, chain_a, chain_b;
} sfu_function;

extern const sfu_function sfu_functions[SFU_NFUNCS];

/* The sampling domain of argument arg (0: x, 1: y) of f in type t. */
sfu_domain sfu_domain_of(sfu_func f, cr_dtype t, bool wide, int arg);

/* The function called name, or -1. */
int sfu_func_by_name(const char *name);
/* The version called name, or -1. */
int sfu_version_by_name(const char *name);

/* The exact value, to 106 bits: hi = RN(exact), lo = RN(exact - hi), from
 * MPFR's 128-bit value (a part of exact - hi below 2^-128 |exact| is lost;
 * a 128-bit value on a midpoint of two doubles is resolved the exact
 * value's way). Special results (inf, NaN, signed zero) are in hi with lo = 0, and so is
 * an exact value beyond double's range (hi = inf) or below half its smallest
 * subnormal (hi = signed 0). In double's subnormal range lo is below
 * double's resolution (0 unless exact - hi is a multiple of 2^-1074). */
typedef struct {
    double hi, lo;
} sfu_exact_value;

/* The exact f(x, y) (y ignored for unary functions) by MPFR at 128 bits,
 * then rounded to 106 bits. For type CR_FLOAT the inputs must be floats.
 * Special cases are IEEE 754 / C99 Annex F's (MPFR's): pow is C99 pow
 * (powr agrees on every input sfu_special_inputs gives), and rsqrt(-0) =
 * -inf (IEEE rSqrt and 1/sqrt(-0); MPFR alone says +inf). Thread-safe. */
sfu_exact_value sfu_exact(sfu_func f, double x, double y);
/* The same for n inputs (y may be NULL for unary functions), in parallel
 * with OpenMP. */
void sfu_exact_many(sfu_func f, const double *x, const double *y, size_t n, sfu_exact_value *out);

/* The exact value rounded correctly to type t (to nearest, ties to even;
 * beyond t's range: an infinity; below half its smallest subnormal: a
 * zero of the exact value's sign). */
double sfu_exact_to_type(sfu_exact_value exact, cr_dtype t);

/* Whether v is a subnormal of type t (non-zero, below t's smallest normal),
 * and v with a subnormal replaced by the zero of its sign (what a device
 * that flushes its inputs computes with). */
bool sfu_is_subnormal(double v, cr_dtype t);
double sfu_flush_subnormal(double v, cr_dtype t);

/* The unit in the last place of type t at the magnitude of v (subnormal
 * spacing below the normal range, the largest finite's ulp above it). */
double sfu_ulp(double v, cr_dtype t);

/* The error of got in units of t's ulp at the exact value, |got - exact| /
 * ulp(exact) with the exact value's double-double (so double results are
 * measured to a fraction of their ulp). The classes are those of the exact
 * value rounded to t (sfu_exact_to_type: a float exact beyond FLT_MAX's
 * rounding range is inf): 0 when both are NaN or the same infinity, +inf
 * when one is NaN or infinite and the other not. An exact zero has the
 * subnormal spacing as its ulp (|got| / 2^-149 for float); the sign of a
 * zero is not an ulp matter (sfu_special_ok checks it). */
double sfu_ulp_error(double got, sfu_exact_value exact, cr_dtype t);

/* |got - exact| / |exact|; NaN when the exact value is 0, inf or NaN (no
 * relative error exists); inf when got is NaN and the exact value is not. */
double sfu_rel_error(double got, sfu_exact_value exact);

/* Steps between two values of type t in the ordered set of t's values
 * (+0 and -0 are 0 apart, an infinity is one step past the largest finite
 * value); UINT64_MAX when either is NaN. Doubles given for float are
 * rounded to float first. */
uint64_t sfu_ulp_distance(double a, double b, cr_dtype t);

/* Draws n inputs (x, and y for binary functions) of type t from the typical
 * or wide domain, reproducibly from seed (splitmix64); values are
 * representable in t and inside the domain. Log-uniform domains: a binade
 * chosen uniformly, then a uniform mantissa. y may be NULL for unary
 * functions (otherwise it is filled with 0). */
void sfu_sample(sfu_func f, cr_dtype t, bool wide, uint64_t seed, size_t n, double *x, double *y);

/* The error statistics of one function and version over many inputs. */
typedef struct {
    uint64_t n;            /* results compared */
    uint64_t n_rel;        /* with a relative error (exact value finite, non-zero) */
    double sum_rel, max_rel;
    double max_ulp;
    double worst_x, worst_y; /* the inputs of max_ulp */
    uint64_t over_bound;   /* results whose ulp error exceeds the bound */
    uint64_t flushed;      /* subnormal exact results returned as zero (always counted; errors unless allowed) */
    uint64_t far;          /* results not even near: off by more than sfu_far_off() allows */
} sfu_error_stats;

/* The sanity floor of any version, fast or precise: an approximation may
 * be far off near a zero or a pole, never at most of its inputs. got is
 * far from exact when it misses by more than 1/64 of the larger of |exact|
 * and 1 (a NaN misses by everything); a version with more than 1/8 of its
 * results far off computes some other function (a sin that gives cos). */
#define SFU_FAR_SCALE (1.0 / 64)
bool sfu_far_off(double got, double exact);
bool sfu_mostly_far(uint64_t far, uint64_t n);

/* Adds one result. bound: ulp bound to count against (INFINITY for none).
 * A subnormal exact result (its value rounded to t is a non-zero subnormal)
 * returned as a zero of its sign is counted in flushed either way; with
 * flush_allowed it is not an error (it adds to no other field but n),
 * without it is also an error like any other (2^22 ulps and more). The
 * relative error counts where the exact value rounded to t is finite and
 * non-zero. A zeroed struct is an empty one. */
void sfu_error_add(sfu_error_stats *s, double x, double y, double got, sfu_exact_value exact, cr_dtype t, double bound,
                   bool flush_allowed);

/* Mean relative error, NaN when no result had one. */
double sfu_error_mean_rel(const sfu_error_stats *s);

/* Special inputs of a function for type t: zeros, subnormals, infinities,
 * NaN, and the edges of its domain (overflow and underflow thresholds,
 * exact cases, multiples of pi/2). Returns how many (at most cap; there are
 * never more than SFU_MAX_SPECIAL). y may be NULL for unary functions. The
 * expected results are sfu_exact's. A device that flushes subnormal
 * arguments computes f of the flushed argument: where flushing is allowed,
 * also accept the reference of sfu_flush_subnormal(x), (y). */
#define SFU_MAX_SPECIAL 256
size_t sfu_special_inputs(sfu_func f, cr_dtype t, double *x, double *y, size_t cap);

/* Whether got agrees with the exact value of a special input, judged by
 * the exact value rounded to t: NaN for NaN, the same infinity, the same
 * signed zero for an exact zero, and otherwise within bound ulps (a
 * subnormal result returned as the zero of its sign counts as agreeing
 * when flush_allowed). */
bool sfu_special_ok(double got, sfu_exact_value exact, cr_dtype t, double bound, bool flush_allowed);

/* Flush-to-zero probes. A probe of kind SFU_FTZ_INPUT has a subnormal
 * argument (x, or y for div) whose exact result is not that of a zero
 * argument; one of kind SFU_FTZ_RESULT has normal arguments whose exact
 * result is subnormal. Returns how many probes (at most cap; never more
 * than SFU_MAX_FTZ_PROBES; none for cos, whose subnormal arguments round to
 * cos(0) and whose results are never subnormal). */
#define SFU_MAX_FTZ_PROBES 8
typedef enum { SFU_FTZ_INPUT, SFU_FTZ_RESULT } sfu_ftz_kind;
size_t sfu_ftz_probes(sfu_func f, cr_dtype t, double *x, double *y, sfu_ftz_kind *kind, size_t cap);

/* Whether a probe's result shows flushing: for SFU_FTZ_INPUT, got equals the
 * exact result with the subnormal argument replaced by a zero of its sign
 * (at_zero = sfu_exact of the sfu_flush_subnormal arguments; both
 * rounded to t, and they differ for every probe) and not the exact result;
 * for SFU_FTZ_RESULT, got is a zero. */
bool sfu_ftz_flushed(sfu_ftz_kind kind, double got, sfu_exact_value exact, sfu_exact_value at_zero, cr_dtype t);

#endif
