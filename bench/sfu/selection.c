/* What the SFU options chosen measure (selection.h). */
#include "sfu/selection.h"

#include <stdio.h>

bool sfu_in_type(sfu_func f, cr_dtype t)
{
    return t != CR_DOUBLE || sfu_functions[f].has_double;
}

typedef struct {
    sfu_query query;
} asked;

/* Whether f in t with v is measured; why not. */
static bool measures(sfu_query query, int f, int t, int v, char *why, size_t len)
{
    if (!sfu_in_type((sfu_func)f, (cr_dtype)t)) {
        snprintf(why, len, "double precision covers Li's div, rcp, sqrt and rsqrt only");
        return false;
    }
    return query((sfu_func)f, (cr_dtype)t, (sfu_version)v, why, len) == CR_OK;
}

/* idx: a type, a function, a version. */
static bool combination_measured(const void *ctx, const unsigned *idx, char *why, size_t len)
{
    return measures(((const asked *)ctx)->query, (int)idx[1], (int)idx[0], (int)idx[2], why, len);
}

/* Whether f has a partition sweep in a type chosen: the precise version
 * and the backend's fast one both there. */
static bool partition_measures(const sfu_state *s, sfu_query query, int f, char *why, size_t len)
{
    for (int t = 0; t < CR_NDTYPES; ++t)
        if ((s->cfg.types >> t & 1u) && measures(query, f, t, SFU_PRECISE, why, len) &&
            measures(query, f, t, (int)s->be->partition_fast, why, len))
            return true;
    return false;
}

/* A function named for the partition sweep has one; --lambdas given has
 * some sweep to be used in. */
static int check_partition(sfu_state *s, sfu_query query, const char *where)
{
    bool any = false;
    char why[CR_ERRLEN] = "", first_why[CR_ERRLEN] = ""; /* the first function's: the table's first is div */
    for (int f = 0; f < SFU_NFUNCS; ++f) {
        if (!(s->cfg.partition_funcs >> f & s->cfg.funcs >> f & 1u))
            continue;
        bool runs = partition_measures(s, query, f, why, sizeof why);
        if (!runs && s->cfg.partition_named)
            return cr_fail_usage(&s->ses, "--partition-functions %s has no partition sweep%s in the --types chosen: %s",
                                 sfu_functions[f].name, where, why);
        if (!runs && first_why[0] == '\0')
            snprintf(first_why, sizeof first_why, "%s", why);
        any = any || runs;
    }
    if (!any && s->cfg.lambdas_given && s->cfg.partition_funcs != 0)
        return cr_fail_usage(&s->ses, "--lambdas: no partition sweep runs%s with these --types and --functions%s%s",
                             where, first_why[0] ? ": " : "", first_why);
    return -1;
}

int sfu_check_selection(sfu_state *s, sfu_given given, sfu_query query, const char *where)
{
    const char *types[CR_NDTYPES], *funcs[SFU_NFUNCS];
    for (int t = 0; t < CR_NDTYPES; ++t)
        types[t] = cr_dtype_name((cr_dtype)t);
    for (int f = 0; f < SFU_NFUNCS; ++f)
        funcs[f] = sfu_functions[f].name;
    const cr_choice dims[] = {{"types", s->cfg.types, types, CR_NDTYPES, given.types},
                              {"functions", s->cfg.funcs, funcs, SFU_NFUNCS, given.functions},
                              {"versions", s->cfg.versions, sfu_version_names, SFU_NVERSIONS, given.versions}};
    asked ctx = {query};
    if (cr_check_choices(s->ses.opt.program, dims, 3, combination_measured, &ctx, where) != 0)
        return CR_EXIT_USAGE;
    return check_partition(s, query, where);
}
