/* The energy levels stream's rows stand for (tools/energy_levels):
 *   dram  footprint rows whose working set (bytes_per_rep: the whole arrays,
 *         moved once a repetition) is at least 4x the last-level cache,
 *         STREAM's rule: per kernel and type the largest such point
 *   llc   footprint rows between 1/8 and 1/2 of the last-level cache:
 *         resident in it, above the caches below it; per kernel and type
 *         the largest such point */
#include "energy_levels/rule.h"

static bool footprint_point(const el_results *f, size_t i, double *key)
{
    *key = el_number(f, i, "bytes_per_rep");
    return el_is(f, i, "sweep", "footprint") && *key > 0;
}

static bool wants_dram(const el_device *d, const el_results *f, size_t i, double *key)
{
    return footprint_point(f, i, key) && *key >= 4.0 * (double)d->llc_bytes;
}

static bool wants_llc(const el_device *d, const el_results *f, size_t i, double *key)
{
    return footprint_point(f, i, key) && *key >= (double)d->llc_bytes / 8 && *key <= (double)d->llc_bytes / 2;
}

static const char *cannot_without_llc(const el_device *d)
{
    return d->llc_bytes ? NULL
                        : "the last-level cache is unknown (the metadata gives neither device.cache_bytes nor "
                          "llc_bytes): no stream row can be placed in a level";
}

static const el_rule rules[] = {
    {"dram", EL_PER_BYTE, "stream", wants_dram, EL_PICK_LARGEST_PER_KIND, EL_KEY_WORKING_SET,
     "no stream footprint row has a working set of at least 4x the %s last-level cache", false,
     cannot_without_llc},
    {"llc", EL_PER_BYTE, "stream", wants_llc, EL_PICK_LARGEST_PER_KIND, EL_KEY_WORKING_SET,
     "no stream footprint row has a working set between 1/8 and 1/2 of the %s last-level cache", false,
     cannot_without_llc},
};
const cr_bench_part el_rules_stream = {rules, sizeof rules / sizeof rules[0]};
