#include "xgraph/li2016_reference.h"

#include "error.h"
#include "shared/result_reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* results/reference/li2016-table3.2.csv, embedded by the build. */
extern const char xgraph_li2016_csv[];

int xg_reference_load(xg_reference *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    cr_csv_table t;
    int rc = path ? cr_csv_load(&t, path, &cr_schema_reference, err, errlen)
                  : cr_csv_parse(&t, "li2016-table3.2.csv (built in)", xgraph_li2016_csv, strlen(xgraph_li2016_csv),
                                 &cr_schema_reference, err, errlen);
    if (rc != 0)
        return -1;
    snprintf(r->source, sizeof r->source, "%s", t.path);
    static const char *const cols[] = {"gpu", "dtype", "delta_warps", "R_GBps", "mwarps"};
    int c[5];
    if (cr_csv_require(&t, cols, 5, c, err, errlen) != 0 || (t.nrows && !(r->v = calloc(t.nrows, sizeof *r->v)))) {
        cr_csv_free(&t);
        return -1;
    }
    for (size_t i = 0; i < t.nrows; ++i) {
        xg_ref_line *l = &r->v[r->n];
        snprintf(l->gpu, sizeof l->gpu, "%s", t.rows[i].fields[c[0]]);
        snprintf(l->dtype, sizeof l->dtype, "%s", t.rows[i].fields[c[1]]);
        if (cr_csv_number(&t, i, c[2], false, &l->delta_warps, err, errlen) != 0 ||
            cr_csv_number(&t, i, c[3], false, &l->r_gbps, err, errlen) != 0 ||
            cr_csv_number(&t, i, c[4], false, &l->mwarps, err, errlen) != 0) {
            rc = -1;
            break;
        }
        if (!(l->delta_warps > 0 && l->r_gbps > 0 && l->mwarps >= l->delta_warps)) {
            rc = cr_errf(err, errlen, "%s:%u: delta_warps, R_GBps must be positive and mwarps at least delta_warps",
                         t.path, t.rows[i].line);
            break;
        }
        ++r->n;
    }
    cr_csv_free(&t);
    if (rc != 0)
        xg_reference_free(r);
    return rc;
}

void xg_reference_free(xg_reference *r)
{
    free(r->v);
    r->v = NULL;
    r->n = 0;
}
