#define _POSIX_C_SOURCE 200809L
#include "shared/utf8.h"

#include <stdio.h>
#include <string.h>

size_t cr_utf8_length(const unsigned char *s, size_t avail)
{
    if (s[0] < 0x80)
        return 1;
    size_t n;
    unsigned cp, min;
    if ((s[0] & 0xe0) == 0xc0)
        n = 2, cp = s[0] & 0x1fu, min = 0x80;
    else if ((s[0] & 0xf0) == 0xe0)
        n = 3, cp = s[0] & 0x0fu, min = 0x800;
    else if ((s[0] & 0xf8) == 0xf0)
        n = 4, cp = s[0] & 0x07u, min = 0x10000;
    else
        return 0;
    if (n > avail)
        return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[k] & 0x3fu);
    }
    return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : n;
}

size_t cr_utf8_visible(const char *s, char rep[16])
{
    const unsigned char *u = (const unsigned char *)s;
    /* strnlen: a sequence is never read past the string's end */
    size_t n = cr_utf8_length(u, strnlen(s, 4));
    rep[0] = '\0';
    if (n == 0) {
        snprintf(rep, 16, "\xef\xbf\xbd");
        return 1;
    }
    int control = (u[0] < 0x20 && u[0] != '\t' && u[0] != '\n' && u[0] != '\r') || u[0] == 0x7f ||
                  (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f);
    if (control) {
        if (n == 1)
            snprintf(rep, 16, "\\x%02x", u[0]);
        else
            snprintf(rep, 16, "\\x%02x\\x%02x", u[0], u[1]);
    }
    return n;
}
