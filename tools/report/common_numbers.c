#include "report/common_numbers.h"

#include <math.h>
#include <string.h>

bool rp_compared(const rp_table *t, const rp_row *r, int c)
{
    return strcmp(t->cols[c], "rows") != 0 && strcmp(t->cols[c], "invalid rows") != 0 && !isnan(r->cells[c].num);
}

const rp_cell *rp_counterpart(const rp_table *t, const rp_row *r, int c, const rp_table *other)
{
    const rp_row *o = rp_find_row(other, r->key);
    int oc = rp_col_index(other, t->cols[c]);
    return o == NULL || oc < 0 || isnan(o->cells[oc].num) ? NULL : &o->cells[oc];
}
