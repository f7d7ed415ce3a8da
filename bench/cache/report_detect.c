#include "cache/report_detect.h"

#include <stdio.h>
#include <string.h>

/* key's value in a row's params, "" where absent. */
static const char *param(const cr_csv_table *t, size_t i, const char *key, char *buf, size_t len)
{
    if (!cr_params_get(rp_get(t, i, "params"), key, buf, len))
        buf[0] = '\0';
    return buf;
}

void rp_cache_detect(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_table *d = NULL;
    for (size_t i = 0; i < t->nrows; ++i) {
        if (strcmp(rp_get(t, i, "sweep"), "detect") != 0)
            continue;
        if (d == NULL) {
            d = rp_add_table(sec, "cache-detect", "", "level parameter", "value", "unit", "reference", "match",
                             "confidence", "evidence", NULL);
            if (d == NULL)
                return;
            snprintf(d->title, sizeof d->title, "Cache geometry detected, against the host's where it is the device, from %s",
                     file);
        }
        char level[32], parameter[48], v[RP_CELL_LEN];
        rp_row *r = rp_row_for(d, "%s %s", param(t, i, "level", level, sizeof level),
                               param(t, i, "parameter", parameter, sizeof parameter));
        param(t, i, "value", v, sizeof v);
        double num = rp_number(rp_get(t, i, "figure"));
        /* A number is compared between runs; a verdict in words stays text. */
        if (num == num && strcmp(v, "undetermined") != 0 && rp_number(v) == rp_number(v))
            rp_set_num(r, 0, num, 6);
        else
            rp_set_text(r, 0, "%s", v);
        rp_set_text(r, 1, "%s", rp_get(t, i, "unit"));
        rp_set_text(r, 2, "%s", param(t, i, "reference", v, sizeof v));
        char share[32];
        if (strcmp(param(t, i, "match", v, sizeof v), "no") == 0 &&
            rp_number(param(t, i, "available_share", share, sizeof share)) > 0)
            rp_set_text(r, 3, "no: %.0f%% of it available to this process", 100 * rp_number(share));
        else
            rp_set_text(r, 3, "%s", v);
        rp_set_text(r, 4, "%s", param(t, i, "confidence", v, sizeof v));
        rp_set_text(r, 5, "%s", param(t, i, "evidence", v, sizeof v));
        if (strcmp(rp_get(t, i, "valid"), "1") != 0)
            rp_strings_push(&sec->notes, "Detection row %s %s failed verification.", level, parameter);
    }
}
