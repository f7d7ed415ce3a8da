#include "device_spec.h"

#include <ctype.h>
#include <string.h>

bool cr_spec_is_index(const char *spec)
{
    if (*spec == '\0')
        return false;
    for (; *spec; ++spec)
        if (!isdigit((unsigned char)*spec))
            return false;
    return true;
}

bool cr_spec_matches(const char *name, const char *spec)
{
    size_t len = strlen(spec);
    for (; *name; ++name) {
        size_t i = 0;
        while (i < len && name[i] && tolower((unsigned char)name[i]) == tolower((unsigned char)spec[i]))
            ++i;
        if (i == len)
            return true;
    }
    return len == 0;
}
