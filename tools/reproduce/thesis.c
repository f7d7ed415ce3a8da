#define _GNU_SOURCE
#include "reproduce/reproduce.h"

#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Both tables as text (Makefile: embed). */
extern const char reproduce_values_csv[], reproduce_claims_csv[];

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

/* The columns each table must have; those before the first NULL may not
 * be empty (where a value is printed matters as much as the value). */
static const char *const value_columns[] = {"target", "seed", "source", "page", "seed_line", "quantity", "kind",
                                            NULL, "key", "value", "unit", "note"};
static const char *const claim_columns[] = {"target", "title", "seed", "source", "page", "claim", NULL};

/* Every column there, the first ones filled in every row. */
static int check_columns(const cr_csv_table *t, const char *const *cols, size_t n, char *err, size_t errlen)
{
    for (size_t k = 0; k < n; ++k)
        if (cols[k] != NULL && cr_csv_column(t, cols[k]) < 0)
            return cr_errf(err, errlen, "%s:%u: no column '%s' in the header", t->path, t->header_line, cols[k]);
    for (size_t i = 0; i < t->nrows; ++i)
        for (size_t k = 0; k < n && cols[k] != NULL; ++k)
            if (*field(t, i, cols[k]) == '\0')
                return cr_errf(err, errlen, "%s:%u: the %s is empty", t->path, t->rows[i].line, cols[k]);
    return 0;
}

/* Row i as a value: its line of the seed a line, its value a number
 * unless it is of kind none (a figure only drawn), which has none. */
static int read_value_row(const cr_csv_table *t, size_t i, void *entry, char *err, size_t errlen)
{
    rr_value *v = entry;
    *v = (rr_value){field(t, i, "target"), field(t, i, "seed"),     field(t, i, "source"), field(t, i, "page"),
                    field(t, i, "quantity"), field(t, i, "key"),    field(t, i, "value"),  field(t, i, "unit"),
                    field(t, i, "kind"),   field(t, i, "note"),     0,                     NAN};
    char *end;
    unsigned long line = strtoul(field(t, i, "seed_line"), &end, 10);
    bool none = strcmp(v->kind, "none") == 0;
    unsigned at = t->rows[i].line;
    if (*end != '\0' || line == 0 || line > 1000000)
        return cr_errf(err, errlen, "%s:%u: seed_line must be a line of the seed (1 or more)", t->path, at);
    v->seed_line = (unsigned)line;
    if (!none && !read_value(v->value_text, &v->value))
        return cr_errf(err, errlen, "%s:%u: value '%s' is not a number (kind %s)", t->path, at, v->value_text,
                       v->kind);
    if (none && *v->value_text)
        return cr_errf(err, errlen, "%s:%u: a value of kind none has no value", t->path, at);
    return 0;
}

static int read_claim_row(const cr_csv_table *t, size_t i, void *entry, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    *(rr_claim *)entry =
        (rr_claim){field(t, i, "target"), field(t, i, "title"), field(t, i, "source"), field(t, i, "page"),
                   field(t, i, "claim")};
    return 0;
}

/* Every row of t, its columns checked, into *rows (entries of size bytes,
 * *n of them read). */
static int read_rows(const cr_csv_table *t, const char *const *cols, size_t ncols, size_t size,
                     int (*read)(const cr_csv_table *, size_t, void *, char *, size_t), void **rows, size_t *n,
                     char *err, size_t errlen)
{
    if (check_columns(t, cols, ncols, err, errlen) != 0)
        return -1;
    *rows = calloc(t->nrows ? t->nrows : 1, size);
    if (*rows == NULL)
        return cr_errf(err, errlen, "%s: out of memory", t->path);
    for (; *n < t->nrows; ++*n)
        if (read(t, *n, (char *)*rows + *n * size, err, errlen) != 0)
            return -1;
    return 0;
}

static int read_tables(rr_thesis *th, char *err, size_t errlen)
{
    void *values = NULL, *claims = NULL;
    int rc = read_rows(&th->values_table, value_columns, sizeof value_columns / sizeof *value_columns,
                       sizeof *th->values, read_value_row, &values, &th->nvalues, err, errlen);
    th->values = values;
    if (rc == 0)
        rc = read_rows(&th->claims_table, claim_columns, sizeof claim_columns / sizeof *claim_columns,
                       sizeof *th->claims, read_claim_row, &claims, &th->nclaims, err, errlen);
    th->claims = claims;
    return rc;
}

int rr_thesis_parse(rr_thesis *th, const char *values_name, const char *values_text, size_t values_len,
                    const char *claims_name, const char *claims_text, size_t claims_len, char *err, size_t errlen)
{
    memset(th, 0, sizeof *th);
    if (cr_csv_parse(&th->values_table, values_name, values_text, values_len, &cr_schema_any, err, errlen) != 0)
        return -1;
    if (cr_csv_parse(&th->claims_table, claims_name, claims_text, claims_len, &cr_schema_any, err, errlen) != 0) {
        cr_csv_free(&th->values_table);
        return -1;
    }
    if (read_tables(th, err, errlen) != 0) {
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

const rr_value *rr_value_keyed(const rr_thesis *th, const char *target, const char *quantity, const char *key)
{
    size_t i = 0;
    for (const rr_value *v; (v = rr_next_value(th, target, quantity, &i)) != NULL;)
        if (strcmp(v->key, key) == 0)
            return v;
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
