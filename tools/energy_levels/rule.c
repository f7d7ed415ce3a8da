/* What a benchmark's energy-level rules read a row with. */
#include "energy_levels/rule.h"

#include "options.h"

#include <math.h>
#include <string.h>

static double number(const char *text)
{
    double v;
    return cr_number_fault(text, &v) == NULL ? v : NAN;
}

double el_number(const el_results *f, size_t i, const char *col)
{
    return number(el_field(f, i, col));
}

double el_param(const el_results *f, size_t i, const char *key)
{
    char v[64];
    return cr_params_get(el_field(f, i, "params"), key, v, sizeof v) ? number(v) : NAN;
}

bool el_is(const el_results *f, size_t i, const char *col, const char *value)
{
    return strcmp(el_field(f, i, col), value) == 0;
}
