#include "report/render_markup.h"

#include "report/render_text.h"

void rp_wrapped(FILE *f, void (*text)(FILE *, const char *), const char *open, const char *s, const char *close)
{
    fputs(open, f);
    text(f, s);
    fputs(close, f);
}

/* A link in the format's order: its target (written by target from a and
 * b) and its text. */
static void link_with(FILE *f, const rp_markup *m, const char *text, void (*target)(FILE *, const char *, const char *),
                      const char *a, const char *b)
{
    fputs(m->link_open, f);
    if (m->target_first)
        target(f, a, b);
    else
        m->text(f, text);
    fputs(m->link_mid, f);
    if (m->target_first)
        m->text(f, text);
    else
        target(f, a, b);
    fputs(m->link_close, f);
}

static void anchor_target(FILE *f, const char *hash, const char *id)
{
    fputs(hash, f);
    fputs(id, f);
}

void rp_link(FILE *f, const rp_markup *m, const char *pre, const char *name)
{
    link_with(f, m, name, rp_link_target, pre, name);
}

void rp_anchor_link(FILE *f, const rp_markup *m, const char *id, const char *text)
{
    link_with(f, m, text, anchor_target, "#", id);
}

void rp_flags_text(const char *flags, char *out, size_t len)
{
    size_t o = 0;
    for (; *flags && o + 3 < len; ++flags) {
        if (*flags == ';') {
            out[o++] = ',';
            out[o++] = ' ';
        } else {
            out[o++] = *flags;
        }
    }
    out[o] = '\0';
}

void rp_prefix_of(const rp_device *d, char *out, size_t len)
{
    snprintf(out, len, "%s%s", d->dir, d->dir[0] ? "/" : "");
}
