/* The energy level sfu's rows stand for (tools/energy_levels):
 *   sfu-op  throughput rows of the fast versions in float (OpenCL's
 *           native_*, CUDA's PTX .approx: the special function unit), per
 *           call with the chain's multiply-add and running sum */
#include "energy_levels/rule.h"
#include "shared/names.h"

#include <string.h>

static bool wants_sfu(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    const char *v = el_field(f, i, "variant");
    *key = el_number(f, i, "figure");
    return el_is(f, i, "sweep", "throughput") && el_is(f, i, "dtype", "float") &&
           (cr_ends_with(v, "/native") || cr_ends_with(v, "/ptx-approx"));
}

static const el_rule rules[] = {
    {"sfu-op", EL_PER_OP, "sfu", wants_sfu, EL_PICK_ALL, EL_KEY_GOPS,
     "no sfu throughput row of a fast version in float (native, ptx-approx) verified", false, NULL},
};
const cr_bench_part el_rules_sfu = {rules, sizeof rules / sizeof rules[0]};
