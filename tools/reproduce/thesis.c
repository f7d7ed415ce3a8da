#define _GNU_SOURCE
#include "reproduce/reproduce.h"

#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Both tables as text (Makefile: embed). */
extern const char reproduce_values_csv[], reproduce_claims_csv[];

static const cr_column_spec value_cols[] = {
    {"target", CR_TEXT, CR_NEVER_EMPTY},   {"seed", CR_TEXT, CR_NEVER_EMPTY},
    {"source", CR_TEXT, CR_NEVER_EMPTY},   {"page", CR_TEXT, CR_NEVER_EMPTY},
    {"seed_line", CR_COUNT, CR_NEVER_EMPTY}, {"quantity", CR_TEXT, CR_NEVER_EMPTY},
    {"key", CR_TEXT, CR_MAY_BE_EMPTY},     {"value", CR_TEXT, CR_MAY_BE_EMPTY},
    {"unit", CR_TEXT, CR_MAY_BE_EMPTY},    {"kind", CR_TEXT, CR_NEVER_EMPTY},
    {"note", CR_TEXT, CR_MAY_BE_EMPTY},
};
static const cr_csv_schema values_schema = {"the theses' values (target,seed,source,page,seed_line,...)", value_cols,
                                            sizeof value_cols / sizeof *value_cols, false, NULL, 0};
static const cr_column_spec claim_cols[] = {
    {"target", CR_TEXT, CR_NEVER_EMPTY}, {"seed", CR_TEXT, CR_NEVER_EMPTY},  {"source", CR_TEXT, CR_NEVER_EMPTY},
    {"page", CR_TEXT, CR_NEVER_EMPTY},   {"claim", CR_TEXT, CR_NEVER_EMPTY},
};
static const cr_csv_schema claims_schema = {"the theses' claims (target,seed,source,page,claim)", claim_cols,
                                            sizeof claim_cols / sizeof *claim_cols, false, NULL, 0};

/* A printed value as a number: "2.3433E-8" or "2.2×10^{-9}" as printed, a
 * thousands separator or a trailing "x" or "%" (a ratio, a share) read
 * past. */
static bool read_value(const char *text, double *out)
{
    char buf[64];
    size_t n = 0;
    static const char times_ten[] = "×10^{"; /* "2.2×10^{-9}", as printed */
    for (const char *p = text; *p && n + 1 < sizeof buf; ++p) {
        if (strncmp(p, times_ten, sizeof times_ten - 1) == 0) {
            buf[n++] = 'e';
            p += sizeof times_ten - 2;
        } else if (*p != ',' && *p != ' ' && *p != '}') {
            buf[n++] = *p;
        }
    }
    while (n > 0 && (buf[n - 1] == 'x' || buf[n - 1] == '%'))
        --n;
    buf[n] = '\0';
    return n > 0 && cr_number_fault(buf, out) == NULL;
}

static const char *field(const cr_csv_table *t, size_t i, const char *col)
{
    return t->rows[i].fields[cr_csv_column(t, col)];
}

static int read_values(rr_thesis *th, char *err, size_t errlen)
{
    const cr_csv_table *t = &th->values_table;
    th->values = calloc(t->nrows ? t->nrows : 1, sizeof *th->values);
    if (th->values == NULL)
        return cr_errf(err, errlen, "%s: out of memory", t->path);
    for (size_t i = 0; i < t->nrows; ++i) {
        rr_value *v = &th->values[th->nvalues++];
        *v = (rr_value){field(t, i, "target"), field(t, i, "seed"),     field(t, i, "source"), field(t, i, "page"),
                        field(t, i, "quantity"), field(t, i, "key"),    field(t, i, "value"),  field(t, i, "unit"),
                        field(t, i, "kind"),   field(t, i, "note"),     0,                     NAN};
        v->seed_line = (unsigned)strtoul(field(t, i, "seed_line"), NULL, 10);
        bool none = strcmp(v->kind, "none") == 0;
        if (v->seed_line == 0)
            return cr_errf(err, errlen, "%s:%u: seed_line must be a line of the seed (1 or more)", t->path,
                           t->rows[i].line);
        if (!none && !read_value(v->value_text, &v->value))
            return cr_errf(err, errlen, "%s:%u: value '%s' is not a number (kind %s)", t->path, t->rows[i].line,
                           v->value_text, v->kind);
        if (none && *v->value_text)
            return cr_errf(err, errlen, "%s:%u: a value of kind none has no value", t->path, t->rows[i].line);
    }
    return 0;
}

static int read_claims(rr_thesis *th, char *err, size_t errlen)
{
    const cr_csv_table *t = &th->claims_table;
    th->claims = calloc(t->nrows ? t->nrows : 1, sizeof *th->claims);
    if (th->claims == NULL)
        return cr_errf(err, errlen, "%s: out of memory", t->path);
    for (size_t i = 0; i < t->nrows; ++i)
        th->claims[th->nclaims++] =
            (rr_claim){field(t, i, "target"), field(t, i, "source"), field(t, i, "page"), field(t, i, "claim")};
    return 0;
}

int rr_thesis_parse(rr_thesis *th, const char *values_name, const char *values_text, size_t values_len,
                    const char *claims_name, const char *claims_text, size_t claims_len, char *err, size_t errlen)
{
    memset(th, 0, sizeof *th);
    if (cr_csv_parse(&th->values_table, values_name, values_text, values_len, &values_schema, err, errlen) != 0)
        return -1;
    if (cr_csv_parse(&th->claims_table, claims_name, claims_text, claims_len, &claims_schema, err, errlen) != 0) {
        cr_csv_free(&th->values_table);
        return -1;
    }
    if (read_values(th, err, errlen) != 0 || read_claims(th, err, errlen) != 0) {
        rr_thesis_free(th);
        return -1;
    }
    return 0;
}

int rr_thesis_builtin(rr_thesis *th, char *err, size_t errlen)
{
    return rr_thesis_parse(th, "thesis-values.csv", reproduce_values_csv, strlen(reproduce_values_csv),
                           "thesis-claims.csv", reproduce_claims_csv, strlen(reproduce_claims_csv), err, errlen);
}

void rr_thesis_free(rr_thesis *th)
{
    cr_csv_free(&th->values_table);
    cr_csv_free(&th->claims_table);
    free(th->values);
    free(th->claims);
    memset(th, 0, sizeof *th);
}

const rr_claim *rr_claim_of(const rr_thesis *th, const char *target)
{
    for (size_t i = 0; i < th->nclaims; ++i)
        if (strcmp(th->claims[i].target, target) == 0)
            return &th->claims[i];
    return NULL;
}

const rr_value *rr_next_value(const rr_thesis *th, const char *target, const char *quantity, size_t *i)
{
    for (; *i < th->nvalues; ++*i) {
        const rr_value *v = &th->values[*i];
        if (strcmp(v->target, target) == 0 && (quantity == NULL || strcmp(v->quantity, quantity) == 0)) {
            ++*i;
            return v;
        }
    }
    return NULL;
}
