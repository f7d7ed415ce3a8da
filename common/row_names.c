#include "row_names.h"

#include <fnmatch.h>
#include <stdbool.h>
#include <string.h>

const cr_row_names *cr_row_names_of(const char *benchmark)
{
    for (size_t i = 0; i < cr_nrow_names; ++i)
        if (strcmp(cr_row_names_table[i].benchmark, benchmark) == 0)
            return &cr_row_names_table[i];
    return NULL;
}

/* Whether name matches a word of list (space-separated patterns). */
static bool listed(const char *name, const char *list)
{
    char word[64];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, " ");
        if (n > 0 && n < sizeof word) {
            memcpy(word, p, n);
            word[n] = '\0';
            if (fnmatch(word, name, 0) == 0)
                return true;
        }
        p += n + (p[n] == ' ');
    }
    return false;
}

const char *cr_row_name_unknown(const char *benchmark, const char *variant, const char *sweep)
{
    const cr_row_names *names = cr_row_names_of(benchmark);
    if (names == NULL || (strcmp(variant, CR_ENERGY_ROW_VARIANT) == 0 && strcmp(sweep, CR_ENERGY_ROW_SWEEP) == 0))
        return NULL;
    if (*sweep && !listed(sweep, names->sweeps))
        return "sweep";
    if (*variant && !listed(variant, names->variants))
        return "variant";
    return NULL;
}
