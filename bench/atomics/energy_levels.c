/* The energy level atomics' rows stand for (tools/energy_levels):
 *   atomic  degree-sweep rows in global memory at the lowest contention
 *           degree, every read-modify-write operation (not the atomic read) */
#include "energy_levels/rule.h"

#include "options.h"

#include <string.h>

static bool wants_atomic(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    char space[16];
    *key = el_param(f, i, "degree");
    return el_is(f, i, "sweep", "degree") && !el_is(f, i, "variant", "read") &&
           cr_params_get(el_field(f, i, "params"), "space", space, sizeof space) && strcmp(space, "global") == 0 &&
           *key >= 1;
}

static const el_rule rules[] = {
    {"atomic", EL_PER_OP, "atomics", wants_atomic, EL_PICK_SMALLEST, EL_KEY_DEGREE,
     "no atomics degree-sweep row in global memory verified", false, NULL},
};
const cr_bench_part el_rules_atomics = {rules, sizeof rules / sizeof rules[0]};
