#define _POSIX_C_SOURCE 200809L
/* Comma lists of names from a table, and the rule every comma list of an
 * option follows (cr_list_check). */
#include "options.h"

#include "error.h"

#include <string.h>

#define CR_LIST_MAX_BYTES 4096

/* Whether the item of len bytes at item comes again after it: a second
 * one would be measured twice, a second row of the same point. */
static bool item_repeats(const char *item, size_t len)
{
    for (const char *q = item + len; *q == ',';) {
        size_t n = strcspn(++q, ",");
        if (n == len && memcmp(q, item, len) == 0)
            return true;
        q += n;
    }
    return false;
}

int cr_list_check(const char *text, char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty list");
    /* Each item is looked for in the rest: bounded, as the lists are short. */
    if (strlen(text) > CR_LIST_MAX_BYTES)
        return cr_errf(err, errlen, "list '%.32s...' is longer than %d bytes", text, CR_LIST_MAX_BYTES);
    for (const char *p = text;; ++p) {
        size_t len = strcspn(p, ",");
        if (len == 0)
            return cr_errf(err, errlen, "list '%s' has an empty item", text);
        if (item_repeats(p, len))
            return cr_errf(err, errlen, "'%.*s' is given twice", (int)len, p);
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
