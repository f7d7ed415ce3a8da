#define _GNU_SOURCE
#include "report/check_markup.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The elements and attributes report.html is made of (render_html.c). */
static const char *const elements[] = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3",
                                       "h4", "p", "b", "span", "div", "ul", "li", "a", "table", "caption",
                                       "tr", "th", "td", "figure", "figcaption", "img"};
static const char *const attributes[] = {"lang", "charset", "id", "class", "href", "alt", "data-file", "src"};

typedef struct {
    void (*say)(void *ctx, const char *what);
    void *ctx;
    int found;
} sayer;

static void say(sayer *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(sayer *s, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    s->say(s->ctx, what);
    ++s->found;
}

static bool listed(const char *name, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (strcasecmp(name, set[i]) == 0)
            return true;
    return false;
}

/* A word of p, as far as a blank, '=', '>' or '/' (at most len - 1 bytes
 * into out); returns where it ends. */
static const char *word(const char *p, char *out, size_t len)
{
    size_t n = strcspn(p, " \t\r\n\f=>/");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
    return p + n;
}

/* An attribute's value at p (after '='): quoted or bare, into out;
 * returns where it ends. */
static const char *value(const char *p, char *out, size_t len)
{
    char q = *p == '"' || *p == '\'' ? *p : 0;
    size_t n = q ? strcspn(p + 1, q == '"' ? "\"" : "'") : strcspn(p, " \t\r\n\f>");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p + (q != 0));
    return p + n + (q ? 1 + (p[n + 1] == q) : 0);
}

/* The bytes a link's target is written in: letters, digits, "-._~/" and
 * the '%' of a percent-encoded byte (render_text.c), none that an entity
 * or a scheme ("javascript&#58;", "http:") could be made of. */
static const char link_bytes[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/%";

/* A link's target the report writes: an id of the page ("#device-1") or a
 * relative path of the run, never a scheme or another host ("//x"). */
static bool own_link(const char *target)
{
    const char *path = target + (*target == '#');
    return strncmp(path, "//", 2) != 0 && strspn(path, link_bytes) == strlen(path);
}

/* An image's source the report writes: a PNG in base64, in the page. */
static bool own_source(const char *tag, const char *v)
{
    static const char prefix[] = "data:image/png;base64,";
    const char *b64 = v + sizeof prefix - 1;
    return strcasecmp(tag, "img") == 0 && strncmp(v, prefix, sizeof prefix - 1) == 0 &&
           strspn(b64, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == strlen(b64);
}

static void check_attribute(sayer *s, const char *tag, const char *name, const char *v)
{
    if (strncasecmp(name, "on", 2) == 0)
        say(s, "event-handler attribute %s= of <%s>", name, tag);
    else if (!listed(name, attributes, sizeof attributes / sizeof *attributes))
        say(s, "attribute %s= of <%s>, which the report does not write", name, tag);
    else if (strcasecmp(name, "href") == 0 && !own_link(v))
        say(s, "link '%s' of <%s> leads out of the run", v, tag);
    else if (strcasecmp(name, "src") == 0 && !own_source(tag, v))
        say(s, "source '%.60s' of <%s> is no embedded PNG", v, tag);
}

/* The tag at p (just after '<'): its element and attributes; returns
 * where it ends. */
static const char *check_tag(sayer *s, const char *p)
{
    char tag[32], name[64], v[2048];
    p = word(p + (*p == '/'), tag, sizeof tag);
    if (!listed(tag, elements, sizeof elements / sizeof *elements))
        say(s, "element <%s>, which the report does not write", tag);
    for (;;) {
        p += strspn(p, " \t\r\n\f/");
        if (*p == '\0' || *p == '>')
            return p;
        p = word(p, name, sizeof name);
        v[0] = '\0';
        if (*p == '=')
            p = value(p + 1, v, sizeof v);
        check_attribute(s, tag, name, v);
    }
}

/* Whether the n bytes at p hold needle, in any case. */
static bool holds(const char *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; ++i)
        if (strncasecmp(p + i, needle, k) == 0)
            return true;
    return false;
}

/* The style sheet from p: nothing it loads (url(), @import), no escape
 * that could spell either. */
static void check_style(sayer *s, const char *p)
{
    const char *end = strcasestr(p, "</style");
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (holds(p, n, "url(") || holds(p, n, "@import") || holds(p, n, "\\"))
        say(s, "a style sheet that loads something (url(), @import) or escapes");
}

int rp_check_markup(const char *html, void (*say_to)(void *ctx, const char *what), void *ctx)
{
    sayer s = {say_to, ctx, 0};
    const char *p = html;
    if (strncmp(p, "<!DOCTYPE html>", 15) == 0)
        p += 15;
    for (p = strchr(p, '<'); p; p = strchr(p, '<')) {
        ++p;
        if (*p == '!' || *p == '?') {
            say(&s, "markup <%.20s, which the report does not write", p);
            continue;
        }
        if (!isalpha((unsigned char)*p) && !(*p == '/' && isalpha((unsigned char)p[1])))
            continue;
        bool style = strncasecmp(p, "style", 5) == 0 && !isalnum((unsigned char)p[5]);
        p = check_tag(&s, p);
        if (style && *p == '>')
            check_style(&s, p + 1);
    }
    return s.found;
}
