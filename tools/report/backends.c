#include "report/backends.h"

#include "report/common_numbers.h"
#include "report/registry.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool same_device(const rp_device *a, const rp_device *b)
{
    return a->device_name[0] && a->backend[0] && b->backend[0] && strcmp(a->device_name, b->device_name) == 0 &&
           strcmp(a->backend, b->backend) != 0;
}

/* Every number of ta that tb holds too, as a row of out. */
static void add_common(rp_table *out, const rp_table *ta, const rp_table *tb)
{
    for (size_t i = 0; i < ta->nrows; ++i) {
        const rp_row *ra = &ta->rows[i];
        for (int c = 0; c < ta->ncols; ++c) {
            const rp_cell *b = rp_compared(ta, ra, c) ? rp_counterpart(ta, ra, c, tb) : NULL;
            if (b == NULL)
                continue;
            rp_row *r = rp_row_for(out, "%s: %s, %s", ta->id, ra->key, ta->cols[c]);
            rp_set_text(r, 0, "%s", ra->cells[c].text);
            r->cells[0].num = ra->cells[c].num;
            rp_set_text(r, 1, "%s", b->text);
            r->cells[1].num = b->num;
            if (isfinite(ra->cells[c].num) && isfinite(b->num) && ra->cells[c].num != 0)
                rp_set_num(r, 2, b->num / ra->cells[c].num, 3);
        }
    }
}

static void pair_table(rp_section *out, const rp_device *a, const rp_device *b)
{
    char ratio[2 * sizeof a->backend + 4];
    snprintf(ratio, sizeof ratio, "%s / %s", b->backend, a->backend);
    rp_table *t = rp_add_table(out, "backends", "", "figure", a->backend, b->backend, ratio, NULL);
    snprintf(t->title, sizeof t->title, "%.120s: %s and %s", a->device_name, a->backend, b->backend);
    for (int s = 0; s < rp_nsections(); ++s)
        for (size_t k = 0; k < a->sections[s].ntables; ++k) {
            const rp_table *tb = rp_find_table(&b->sections[s], a->sections[s].tables[k].id);
            if (tb)
                add_common(t, &a->sections[s].tables[k], tb);
        }
}

size_t rp_backend_tables(const rp_run *run, rp_section *out)
{
    for (size_t i = 0; i < run->ndevices; ++i)
        for (size_t j = i + 1; j < run->ndevices && out->ntables < RP_MAX_TABLES; ++j) {
            const rp_device *a = &run->devices[i], *b = &run->devices[j];
            if (!same_device(a, b))
                continue;
            bool b_first = strcmp(b->backend, "cuda") == 0;
            pair_table(out, b_first ? b : a, b_first ? a : b);
        }
    return out->ntables;
}
