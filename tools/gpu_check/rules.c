#include "gpu_check/rules.h"

#include <string.h>

size_t gc_rule_count(void)
{
    return cr_bench_parts_count(gc_rule_lists, gc_nrule_lists);
}

const gc_rule *gc_rule_at(size_t i)
{
    return cr_bench_parts_at(gc_rule_lists, gc_nrule_lists, sizeof(gc_rule), i);
}

const gc_rule *gc_rule_named(const char *figure)
{
    for (size_t i = 0; i < gc_rule_count(); ++i)
        if (strcmp(gc_rule_at(i)->figure, figure) == 0)
            return gc_rule_at(i);
    return NULL;
}
