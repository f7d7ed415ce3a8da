#include "gpu_check/rules.h"

#include <string.h>

size_t gc_rule_count(void)
{
    size_t n = 0;
    for (size_t l = 0; l < gc_nrule_lists; ++l)
        n += gc_rule_lists[l]->n;
    return n;
}

const gc_rule *gc_rule_at(size_t i)
{
    for (size_t l = 0; l < gc_nrule_lists; ++l) {
        if (i < gc_rule_lists[l]->n)
            return &gc_rule_lists[l]->rules[i];
        i -= gc_rule_lists[l]->n;
    }
    return NULL;
}

const gc_rule *gc_rule_named(const char *figure)
{
    for (size_t i = 0; i < gc_rule_count(); ++i)
        if (strcmp(gc_rule_at(i)->figure, figure) == 0)
            return gc_rule_at(i);
    return NULL;
}
