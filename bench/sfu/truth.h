/* The SFU benchmark's host truth for a chain run (sfu/backend.h:
 * x <- a*f(x, y) + b, s += x): the host replays a chain with the exact map
 * in double precision and accepts the device's end value and sum within
 * bounds derived from the error of the device's f.
 *
 * The bound. The exact map g(x) = a*f(x, y) + b has |g'| <= 1/2 on the
 * chain domain (sfu/functions.h), so an error made in one step is at
 * least halved by the next: with e_i = |x_dev,i - x_host,i| and every step
 * adding at most `step` (the device's error of f times |a|, the rounding of
 * the multiply-add in the kernel's type, the host's own libm error),
 * e_{i+1} <= e_i / 2 + step, hence e_i <= 2 * step = tol_x at every i. The
 * sums then differ by at most iters * tol_x plus the rounding of the
 * device's running sum, at most u * sum_i |s_i| (u: the type's unit
 * roundoff), which the replay adds up. The host sums in long double, whose
 * rounding is below either. */
#ifndef CR_SFU_TRUTH_H
#define CR_SFU_TRUTH_H

#include "sfu/functions.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* f(x, y) with the host's double-precision libm (1/sqrt for rsqrt, pow for
 * x^y): the replay's map, within a few double ulps of the exact value. */
double sfu_truth_f(sfu_func f, double x, double y);

/* tol_x for chains of f in type t whose f is off by at most err_f
 * (absolute) anywhere on the chain domain. */
double sfu_truth_tol_x(sfu_func f, cr_dtype t, double err_f);

/* The device's largest credible error of f on the chain domain from the
 * largest seen on a sample (max_seen): twice it, as a sample's maximum may
 * miss the worst input, plus an ulp at the largest |f|; for a version with
 * a specified bound (bound_ulp finite) never less than that bound. */
double sfu_truth_err_f(sfu_func f, cr_dtype t, double max_seen, double bound_ulp);

/* The host's replay of one chain. */
typedef struct {
    double x;          /* end value */
    long double s;     /* sum of every x */
    double sum_abs_s;  /* sum over steps of |s_i|, for the rounding bound */
    double tail_slack; /* what the replay's shortcut may be off by per step (0 when it reached a fixed point) */
} sfu_truth_chain;

/* Replays iters steps from x0 with y fixed: the y the kernels hand f in
 * every step (SFU_CHAIN_FRESH_BITS, sfu/chain.h) is y bit for bit, zero
 * being 0. Once x stops changing (the contraction reaches its fixed point
 * within a few dozen steps), the rest of the chain adds that value:
 * computed in closed form, not stepped. */
sfu_truth_chain sfu_truth_replay(sfu_func f, double x0, double y, uint32_t iters, double a, double b);

/* Checks one chain's device end value and sum against the replay. On
 * failure why says what differs and by how much. */
bool sfu_truth_check_chain(sfu_func f, cr_dtype t, double x0, double y, uint32_t iters, double a, double b,
                           double tol_x, double x_dev, double s_dev, char *why, size_t whylen);

#endif
