#include "report/render_text.h"

#include "shared/md_text.h"
#include "shared/utf8.h"

#include <stddef.h>
#include <string.h>

/* A character and what a format writes for it. */
typedef struct {
    char c;
    const char *as;
} escape;

/* n bytes of s, each one that e names as what it says. */
static void escaped_bytes(FILE *f, const char *s, size_t len, const escape *e, size_t n)
{
    for (size_t i = 0; i < len; ++i) {
        size_t k = 0;
        while (k < n && e[k].c != s[i])
            ++k;
        if (k < n)
            fputs(e[k].as, f);
        else
            fputc(s[i], f);
    }
}

/* s, character by character as cr_utf8_visible shows it, escaped. */
static void escaped(FILE *f, const char *s, const escape *e, size_t n)
{
    while (*s) {
        char rep[16];
        size_t len = cr_utf8_visible(s, rep);
        if (rep[0])
            escaped_bytes(f, rep, strlen(rep), e, n);
        else
            escaped_bytes(f, s, len, e, n);
        s += len;
    }
}

void rp_plain_text(FILE *f, const char *s)
{
    fputs(s, f);
}

void rp_md_text(FILE *f, const char *s)
{
    cr_md_text(f, s);
}

void rp_html_text(FILE *f, const char *s)
{
    static const escape html[] = {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
    escaped(f, s, html, sizeof html / sizeof html[0]);
}

/* So that a name with quotes, brackets, blanks or a colon stays one
 * relative link, in an HTML attribute as in Markdown. */
static void url_path(FILE *f, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c))
            fputc(c, f);
        else
            fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
    }
}

void rp_link_target(FILE *f, const char *pre, const char *name)
{
    url_path(f, pre);
    url_path(f, name);
}
