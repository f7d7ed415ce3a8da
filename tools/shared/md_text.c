#include "shared/md_text.h"

#include "shared/utf8.h"

#include <stdbool.h>
#include <strings.h>

/* Where GitHub would see the start of a link in plain text: the ':' of
 * "scheme://", the '.' of "www." and the '@' of an
 * address. Written as an entity, it is the same character on the page and
 * no link. */
static bool starts_autolink(const char *start, const char *s)
{
    if (*s == ':')
        return s[1] == '/' && s[2] == '/';
    if (*s == '.')
        return s - start >= 3 && strncasecmp(s - 3, "www", 3) == 0;
    return *s == '@';
}

/* One byte of text (at s, in the string from start) in Markdown. */
static void md_char(FILE *f, const char *start, const char *s)
{
    if (starts_autolink(start, s)) {
        fprintf(f, "&#%d;", *s);
        return;
    }
    switch (*s) {
    case '|': fputs("\\|", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '[': fputs("&#91;", f); break;
    case ']': fputs("&#93;", f); break;
    /* emphasis, code, strike-through and an escape of their own */
    case '*': fputs("&#42;", f); break;
    case '_': fputs("&#95;", f); break;
    case '`': fputs("&#96;", f); break;
    case '~': fputs("&#126;", f); break;
    case '\\': fputs("&#92;", f); break;
    case '\n':
    case '\r': fputc(' ', f); break;
    default: fputc(*s, f);
    }
}

void cr_md_text(FILE *f, const char *s)
{
    for (const char *start = s; *s;) {
        char rep[16];
        size_t n = cr_utf8_visible(s, rep);
        if (rep[0])
            for (const char *r = rep; *r; ++r)
                md_char(f, rep, r);
        else if (n == 1)
            md_char(f, start, s);
        else
            fwrite(s, 1, n, f);
        s += n;
    }
}
