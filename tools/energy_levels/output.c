#define _GNU_SOURCE
#include "energy_levels/output.h"

#include "csv.h"

#include <math.h>
#include <string.h>

/* A finite figure in 6 digits; nothing (an empty field) otherwise. */
static const char *number(char *buf, size_t len, double v)
{
    buf[0] = '\0';
    if (isfinite(v))
        snprintf(buf, len, "%.6g", v);
    return buf;
}

void el_write_csv(FILE *f, const el_level *levels, size_t n)
{
    fputs("level,basis,pj,rows,sensor,status,thesis_pj,thesis_symbol,source,reason\n", f);
    for (size_t i = 0; i < n; ++i) {
        const el_level *l = &levels[i];
        char pj[32], rows[32], thesis_pj[32];
        snprintf(rows, sizeof rows, "%zu", l->rows);
        const char *fields[] = {l->level,
                                el_basis_name(l->basis),
                                number(pj, sizeof pj, l->pj),
                                rows,
                                l->sensor,
                                el_status_name(l->status),
                                number(thesis_pj, sizeof thesis_pj, l->thesis_pj),
                                l->thesis_symbol,
                                l->source,
                                l->reason};
        cr_csv_record(f, fields, sizeof fields / sizeof *fields);
    }
}

typedef struct {
    const el_level *levels;
    size_t n;
} rows;

static int write_rows(FILE *f, void *ctx)
{
    const rows *r = ctx;
    el_write_csv(f, r->levels, r->n);
    return ferror(f) ? -1 : 0;
}

int el_write_file(const char *path, const el_level *levels, size_t n, char *err, size_t errlen)
{
    rows r = {levels, n};
    return cr_write_atomic(path, write_rows, &r, err, errlen);
}
