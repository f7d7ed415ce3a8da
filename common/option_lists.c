#define _POSIX_C_SOURCE 200809L
/* Comma lists of names from a table, and the rule every comma list of an
 * option follows (cr_list_check). */
#include "options.h"

#include "error.h"

#include <string.h>

int cr_list_check(const char *text, char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty list");
    for (const char *p = text;; ++p) {
        size_t len = strcspn(p, ",");
        if (len == 0)
            return cr_errf(err, errlen, "list '%s' has an empty item", text);
        p += len;
        if (*p == '\0')
            return 0;
    }
}

int cr_parse_name_list(const char *text, const char *const *names, unsigned count, unsigned *bits, char *err,
                       size_t errlen)
{
    char buf[256];
    if (cr_list_check(text, err, errlen) != 0)
        return -1;
    if (strlen(text) >= sizeof buf)
        return cr_errf(err, errlen, "'%s' is not a list of names", text);
    strcpy(buf, text);
    *bits = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0) {
            *bits = (1u << count) - 1;
            continue;
        }
        unsigned i = 0;
        while (i < count && strcmp(tok, names[i]) != 0)
            ++i;
        if (i == count)
            return cr_errf(err, errlen, "unknown name '%s'", tok);
        *bits |= 1u << i;
    }
    if (*bits == 0)
        return cr_errf(err, errlen, "'%s' names nothing", text);
    return 0;
}
