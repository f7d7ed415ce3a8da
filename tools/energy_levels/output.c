#define _GNU_SOURCE
#include "energy_levels/output.h"

#include "csv.h"

#include <math.h>
#include <string.h>

static void number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
}

void el_write_csv(FILE *f, const el_level *levels, size_t n)
{
    fputs("level,basis,pj,rows,sensor,status,thesis_pj,thesis_symbol,source,reason\n", f);
    for (size_t i = 0; i < n; ++i) {
        const el_level *l = &levels[i];
        fprintf(f, "%s,%s,", l->level, el_basis_name(l->basis));
        number(f, l->pj);
        fprintf(f, ",%zu,", l->rows);
        cr_csv_field(f, l->sensor);
        fprintf(f, ",%s,", el_status_name(l->status));
        number(f, l->thesis_pj);
        fputc(',', f);
        cr_csv_field(f, l->thesis_symbol);
        fputc(',', f);
        cr_csv_field(f, l->source);
        fputc(',', f);
        cr_csv_field(f, l->reason);
        fputc('\n', f);
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
