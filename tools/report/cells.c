#define _GNU_SOURCE
#include "report/cells.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool rp_is(const cr_csv_table *t, size_t i, const char *col, const char *value)
{
    return strcmp(rp_get(t, i, col), value) == 0;
}

bool rp_valid(const cr_csv_table *t, size_t i)
{
    return rp_is(t, i, "valid", "1");
}

double rp_num(const cr_csv_table *t, size_t i, const char *col)
{
    return rp_number(rp_get(t, i, col));
}

double rp_param(const cr_csv_table *t, size_t i, const char *key)
{
    char v[96];
    return cr_params_get(rp_get(t, i, "params"), key, v, sizeof v) ? rp_number(v) : NAN;
}

const char *rp_param_text(const cr_csv_table *t, size_t i, const char *key, char *buf, size_t len)
{
    if (!cr_params_get(rp_get(t, i, "params"), key, buf, len))
        buf[0] = '\0';
    return buf;
}

bool rp_device_row(const cr_csv_table *t, size_t i)
{
    return strncmp(rp_get(t, i, "backend"), "host", 4) != 0;
}

void rp_set_number_or_text(rp_row *r, int c, const cr_csv_table *t, size_t i, const char *col, int digits)
{
    double v = rp_num(t, i, col);
    if (isfinite(v))
        rp_set_num(r, c, v, digits);
    else
        rp_set_text(r, c, "%s", rp_get(t, i, col));
}

void rp_file_summary(rp_section *sec, const char *title, const char *file, const cr_csv_table *t)
{
    rp_table *o = (rp_table *)rp_find_table(sec, "other-files");
    if (o == NULL)
        o = rp_add_table(sec, "other-files", title, "file", "rows", "invalid rows", "units", NULL);
    rp_row *r = rp_row_for(o, "%s", file);
    size_t invalid = 0;
    rp_strings units = {0};
    for (size_t i = 0; i < t->nrows; ++i) {
        invalid += rp_is(t, i, "valid", "0");
        const char *u = rp_get(t, i, "unit");
        if (*u && !rp_strings_has(&units, u) && units.n < 6)
            rp_strings_push(&units, "%s", u);
    }
    rp_set_int(r, 0, (double)t->nrows);
    rp_set_int(r, 1, (double)invalid);
    char list[RP_CELL_LEN] = "";
    for (size_t k = 0; k < units.n; ++k)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", units.v[k]);
    rp_set_text(r, 2, "%s", list);
    rp_strings_free(&units);
}

void rp_extract_other(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_file_summary(sec, "Results without a headline table here", file, t);
}

void rp_extract_input(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_file_summary(sec, "The measurements behind this section's figures (their numbers are in its tables)", file, t);
}
