/* The energy levels fma's rows stand for (tools/energy_levels):
 *   sp-op  the row in float at the highest throughput, per floating-point
 *          operation (an FMA counts two)
 *   dp-op  the same in double, where such rows exist */
#include "energy_levels/rule.h"

static bool of_type(const el_results *f, size_t i, const char *dtype, double *key)
{
    *key = el_number(f, i, "figure");
    return el_is(f, i, "dtype", dtype) && *key > 0;
}

static bool wants_sp(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    return of_type(f, i, "float", key);
}

static bool wants_dp(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    return of_type(f, i, "double", key);
}

static const el_rule rules[] = {
    {"sp-op", EL_PER_OP, "fma", wants_sp, EL_PICK_LARGEST, EL_KEY_GOPS, "no fma row in float verified", false, NULL},
    {"dp-op", EL_PER_OP, "fma", wants_dp, EL_PICK_LARGEST, EL_KEY_GOPS, "no fma row in double verified", true, NULL},
};
const cr_bench_part el_rules_fma = {rules, sizeof rules / sizeof rules[0]};
