#define _POSIX_C_SOURCE 200809L
/* Comma lists of option values: names from a table, strictly increasing
 * counts; every one under the same rule (cr_list_check). */
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

int cr_parse_count_list(const char *text, uint64_t *out, size_t cap, size_t *count, char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty list");
    size_t n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[32];
        if (len == 0 || len >= sizeof item)
            return cr_errf(err, errlen, "list '%s' has an empty or overlong item", text);
        memcpy(item, p, len);
        item[len] = '\0';
        if (n == cap)
            return cr_errf(err, errlen, "list '%s' has more than %zu items", text, cap);
        char sub[CR_ERRLEN];
        if (cr_parse_count(item, &out[n], sub, sizeof sub) != 0)
            return cr_errf(err, errlen, "list '%s': %s", text, sub);
        if (n > 0 && out[n] <= out[n - 1])
            return cr_errf(err, errlen, "list '%s' is not strictly increasing", text);
        ++n;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    *count = n;
    return 0;
}
