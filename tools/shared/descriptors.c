#include "shared/descriptors.h"

#include <string.h>

const cr_descriptor *cr_descriptor_named(const char *name)
{
    for (size_t i = 0; i < cr_ndescriptors; ++i)
        if (strcmp(cr_descriptors[i].name, name) == 0)
            return &cr_descriptors[i];
    return NULL;
}

const cr_descriptor *cr_descriptor_xmodel(const char *part)
{
    for (size_t i = 0; i < cr_ndescriptors; ++i)
        if (cr_descriptors[i].xmodel && strcmp(cr_descriptors[i].xmodel, part) == 0)
            return &cr_descriptors[i];
    return NULL;
}
