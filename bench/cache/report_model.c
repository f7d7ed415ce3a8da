#include "cache/report_model.h"

#include "report/flags.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "L1d 0.98, L2 0.02, mem 0": the params' hit_<level> values, in order. */
static void hit_rates(const char *params, char *out, size_t size)
{
    out[0] = '\0';
    size_t used = 0;
    for (const char *p = params; *p && used + 1 < size;) {
        size_t len = strcspn(p, ";");
        const char *eq = memchr(p, '=', len);
        if (len > 4 && strncmp(p, "hit_", 4) == 0 && eq) {
            int n = snprintf(out + used, size - used, "%s%.*s %.*s", used ? ", " : "", (int)(eq - p - 4), p + 4,
                             (int)(p + len - eq - 1), eq + 1);
            used = n > 0 && (size_t)n < size - used ? used + (size_t)n : size - 1;
        }
        p += len + (p[len] == ';');
    }
}

static double param_number(const cr_csv_table *t, size_t i, const char *key)
{
    char v[64];
    return cr_params_get(rp_get(t, i, "params"), key, v, sizeof v) ? rp_number(v) : NAN;
}

void rp_cache_model(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_table *m = NULL;
    bool said_counters = false;
    for (size_t i = 0; i < t->nrows; ++i) {
        if (strcmp(rp_get(t, i, "sweep"), "model") != 0)
            continue;
        if (m == NULL) {
            m = rp_add_table(sec, "cache-model", "", "pattern footprint", "measured (ns)", "predicted (ns)",
                             "error (%)", "stride prefetcher: ns (error %)", "hit rate per level",
                             "verified", NULL);
            if (m == NULL)
                return;
            snprintf(m->title, sizeof m->title,
                     "Cache model: predicted against measured time per access, eq. 7.1 error, from %s", file);
        }
        char size[32];
        rp_format_bytes(rp_number(rp_get(t, i, "size_bytes")), size, sizeof size);
        rp_row *r = rp_row_for(m, "%s %s", rp_get(t, i, "variant"), size);
        bool ok = strcmp(rp_get(t, i, "valid"), "1") == 0;
        rp_set_text(r, 5, "%s", ok ? "yes" : "NO");
        const char *note = rp_get(t, i, "note");
        if (strncmp(note, "model not run: ", 15) == 0) {
            rp_set_text(r, 4, "%s", note);
            continue;
        }
        if (!ok)
            continue;
        rp_set_num(r, 0, param_number(t, i, "measured_ns"), 4);
        rp_set_num(r, 1, rp_number(rp_get(t, i, "figure")), 4);
        rp_set_num(r, 2, param_number(t, i, "error_pct"), 3);
        double with_ns = param_number(t, i, "predicted_prefetch_ns");
        if (isfinite(with_ns))
            rp_set_text(r, 3, "%.4g (%.3g)", with_ns, param_number(t, i, "error_prefetch_pct"));
        char hits[RP_CELL_LEN];
        hit_rates(rp_get(t, i, "params"), hits, sizeof hits);
        rp_set_text(r, 4, "%s", hits);
        rp_mark_flags(sec, m, r, 1, t, i);
        const char *perf = strstr(note, "perf counters ");
        if (!said_counters && perf) {
            size_t len = strcspn(perf, ";");
            rp_strings_push(&sec->notes, "Hardware counters, first model row: %.*s.", (int)len, perf);
            said_counters = true;
        }
    }
}
