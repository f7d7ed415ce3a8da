#define _GNU_SOURCE
#include "energy_levels/thesis.h"

#include "error.h"
#include "shared/result_reader.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The reference CSV as text (Makefile: embed). */
extern const char energy_levels_table51_csv[];

static const char builtin_name[] = "ranasinghe2014-table5.1.csv";

/* Sums of the parameters that stand beside each level. */
typedef struct {
    double sum;
    unsigned count;
    char symbols[64];
} accumulated;

/* Checks row i and converts its value: *pj in picojoules per byte or per
 * operation, *shown the symbol as the figure names it ("e_gs/4B"). */
static int check_row(const cr_csv_table *t, size_t i, const int *c, el_basis *basis, double *pj, char *shown,
                     size_t shown_len, char *err, size_t errlen)
{
    const char *const *f = (const char *const *)t->rows[i].fields;
    unsigned line = t->rows[i].line;
    if (!el_level_known(f[c[3]], basis))
        return cr_errf(err, errlen, "%s:%u: level '%s' is not one of energy-levels' levels", t->path, line, f[c[3]]);
    if (strcmp(f[c[4]], el_basis_name(*basis)) != 0)
        return cr_errf(err, errlen, "%s:%u: basis '%s': level %s is %s", t->path, line, f[c[4]], f[c[3]],
                       el_basis_name(*basis));
    if (strcmp(f[c[2]], "J") != 0)
        return cr_errf(err, errlen, "%s:%u: unit '%s': a level's value is in J", t->path, line, f[c[2]]);
    double value;
    if (cr_number_fault(f[c[1]], &value) != NULL)
        return cr_errf(err, errlen, "%s:%u: value '%s' is not a number", t->path, line, f[c[1]]);
    *pj = value * 1e12;
    snprintf(shown, shown_len, "%s", f[c[0]]);
    if (*basis == EL_PER_BYTE) {
        uint64_t bytes = 0;
        if (cr_count_fault(f[c[5]], &bytes) != NULL || bytes == 0)
            return cr_errf(err, errlen, "%s:%u: a per-byte value needs its access_bytes (a count above 0)", t->path,
                           line);
        *pj /= (double)bytes;
        snprintf(shown, shown_len, "%s/%" PRIu64 "B", f[c[0]], bytes);
    }
    return 0;
}

int el_thesis_apply(const char *name, const char *text, size_t len, el_level *levels, size_t n, char *err,
                    size_t errlen)
{
    cr_csv_table t;
    if (cr_csv_parse(&t, name, text, len, cr_schema_for(builtin_name), err, errlen) != 0)
        return -1;
    static const char *const cols[] = {"symbol", "value", "unit", "level", "basis", "access_bytes"};
    int c[6];
    int rc = cr_csv_require(&t, cols, 6, c, err, errlen);
    accumulated acc[EL_MAX_LEVELS] = {0};
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        const char *level = t.rows[i].fields[c[3]];
        if (*level == '\0')
            continue; /* a parameter no level of the suite measures: static power, integer arithmetic */
        el_basis basis = EL_PER_OP;
        double pj = NAN;
        char symbol[48] = "";
        rc = check_row(&t, i, c, &basis, &pj, symbol, sizeof symbol, err, errlen);
        for (size_t k = 0; rc == 0 && k < n; ++k) {
            if (strcmp(levels[k].level, level) != 0)
                continue;
            accumulated *a = &acc[k];
            a->sum += pj;
            a->count++;
            size_t used = strlen(a->symbols);
            snprintf(a->symbols + used, sizeof a->symbols - used, "%s%s", used ? "+" : "", symbol);
        }
    }
    for (size_t k = 0; rc == 0 && k < n && k < EL_MAX_LEVELS; ++k) {
        if (acc[k].count == 0)
            continue;
        levels[k].thesis_pj = acc[k].sum / acc[k].count;
        if (acc[k].count == 1)
            snprintf(levels[k].thesis_symbol, sizeof levels[k].thesis_symbol, "%s", acc[k].symbols);
        else
            snprintf(levels[k].thesis_symbol, sizeof levels[k].thesis_symbol, "(%s)/%u", acc[k].symbols,
                     acc[k].count);
    }
    cr_csv_free(&t);
    return rc;
}

int el_thesis_apply_builtin(el_level *levels, size_t n, char *err, size_t errlen)
{
    return el_thesis_apply(builtin_name, energy_levels_table51_csv, strlen(energy_levels_table51_csv), levels, n,
                           err, errlen);
}
