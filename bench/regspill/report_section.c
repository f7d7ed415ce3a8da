/* The regspill benchmark's part of the report: the spill cliff of the
 * live-value sweep, Li's critical-points tuner against the exhaustive
 * sweep, and the register region of an offline compile; on the first
 * screen, where the cliff is. */
#include "report/part.h"

#include <stdio.h>
#include <string.h>

static void cliff_row(rp_section *sec, rp_table *cliff, const cr_csv_table *t, size_t i)
{
    rp_row *r = rp_row_for(cliff, "%s %s", rp_get(t, i, "backend"), rp_get(t, i, "dtype"));
    rp_set_int(r, 0, rp_param(t, i, "last_fitting"));
    rp_set_int(r, 1, rp_param(t, i, "first_spilling"));
    rp_set_num(r, 2, rp_param(t, i, "best_Gops"), 4);
    rp_set_num(r, 3, rp_param(t, i, "after_Gops"), 4);
    rp_set_num(r, 4, 100 * rp_param(t, i, "drop"), 3);
    const char *note = rp_get(t, i, "note");
    if (*note)
        rp_strings_push(&sec->notes, "Cliff: %s.", note);
}

static void tuner_row(rp_section *sec, rp_table *tuner, const cr_csv_table *t, size_t i)
{
    char buf[128], rule[32];
    rp_row *r = rp_row_for(tuner, "live=%s rule=%s", rp_param_text(t, i, "live", buf, sizeof buf),
                           rp_param_text(t, i, "rule", rule, sizeof rule));
    rp_set_text(r, 0, "%s", rp_param_text(t, i, "critical_points", buf, sizeof buf));
    rp_set_int(r, 1, rp_param(t, i, "best_cp"));
    rp_set_int(r, 2, rp_param(t, i, "best"));
    rp_set_int(r, 3, rp_param(t, i, "default"));
    rp_set_num(r, 4, rp_param(t, i, "speedup_cp"), 4);
    rp_set_num(r, 5, rp_param(t, i, "speedup_best"), 4);
    rp_set_num(r, 6, rp_param(t, i, "reduction"), 3);
    const char *note = rp_get(t, i, "note");
    if (*note)
        rp_strings_push(&sec->notes, "Tuner: %s.", note);
}

static void region_row(rp_table *region, const cr_csv_table *t, size_t i)
{
    char buf[128];
    const char *arch = rp_param_text(t, i, "arch", buf, sizeof buf);
    rp_row *r = rp_row_for(region, "%s live=%.0f", *arch ? arch : rp_get(t, i, "device"), rp_param(t, i, "live"));
    double cap = rp_param(t, i, "cap"), regs = rp_param(t, i, "registers");
    if (cap == 1) {
        rp_set_int(r, 0, regs);
        rp_set_int(r, 2, rp_param(t, i, "spill_store_bytes") + rp_param(t, i, "spill_load_bytes"));
    } else {
        rp_set_int(r, 1, regs);
    }
}

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *cliff = rp_add_table(sec, "regspill-cliff", "The spill cliff of the live-value sweep", "", "last fitting",
                                   "first spilling", "best (Gop/s)", "after (Gop/s)", "falls to (%)", NULL);
    rp_table *tuner = rp_add_table(sec, "regspill-tuner", "Li's critical-points tuner against the exhaustive sweep",
                                   "kernel", "critical points", "best CP cap", "exhaustive best cap",
                                   "default registers", "speed-up (CPs)", "speed-up (exhaustive)",
                                   "search reduction (x)", NULL);
    rp_table *region = rp_add_table(sec, "regspill-region",
                                    "Register effective region [r_min, r_max] (Li Eq. 4.1), offline compile",
                                    "architecture", "r_min", "r_max", "spill at r_min (B/thread)", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!rp_valid(t, i))
            continue;
        const char *variant = rp_get(t, i, "variant");
        if (strcmp(variant, "cliff") == 0)
            cliff_row(sec, cliff, t, i);
        else if (strcmp(variant, "tuner") == 0)
            tuner_row(sec, tuner, t, i);
        else if (strcmp(variant, "offline-bound") == 0)
            region_row(region, t, i);
    }
    if (region->nrows > 0 && tuner->nrows == 0)
        rp_strings_push(&sec->notes, "No critical points measured: they come from the register-cap sweep on a GPU. "
                                     "build/tools/critical-points lists them for any block size and architecture.");
}

static void headline(rp_device *d, int s)
{
    const rp_table *cliff = rp_find_table(&d->sections[s], "regspill-cliff");
    for (size_t i = 0; cliff && i < cliff->nrows; ++i) {
        const rp_row *r = &cliff->rows[i];
        rp_headline *h = rp_headline_add(d, s, "Register spill cliff, %s", r->key);
        snprintf(h->value, sizeof h->value, "%.24s to %.24s live values: down to %.24s%%", r->cells[0].text,
                 r->cells[1].text, r->cells[4].text[0] ? r->cells[4].text : "\xe2\x80\x93");
    }
    const rp_table *tuner = rp_find_table(&d->sections[s], "regspill-tuner");
    for (size_t i = 0; tuner && i < tuner->nrows; ++i) {
        rp_headline *h = rp_headline_add(d, s, "Critical-points tuner, %s", tuner->rows[i].key);
        rp_headline_value(h, &tuner->rows[i].cells[4], "x over the default");
    }
}

const rp_part rp_part_regspill = {
    .name = "regspill",
    .title = "Register pressure and spilling (Li 2016, ch. 4)",
    .how = "The cliff is where throughput falls once the values a work-item keeps live no longer fit in its "
           "registers (on a CPU: its vector registers) and the compiler spills: the last count that fits and the "
           "first below 70% of the best. On a GPU the critical points are the register caps at the end of each "
           "occupancy level (Li's Eq. 4.3); the tuner runs only those and says whether they contain the best cap "
           "of the exhaustive sweep, and the speed-up over the compiler's default. The effective region [r_min, "
           "r_max] is what the compiler can be asked for, from an offline compile (no GPU needed).",
    .rank = 60,
    .extract = extract,
    .headline = headline,
};
