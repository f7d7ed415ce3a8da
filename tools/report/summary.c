#define _GNU_SOURCE
#include "report/summary.h"


#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rp_headline *rp_headline_add(rp_device *d, int s, const char *fmt, ...)
{
    d->headlines = rp_grow(d->headlines, &d->nheadlines, sizeof *d->headlines);
    rp_headline *h = &d->headlines[d->nheadlines - 1];
    h->section = s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->what, sizeof h->what, fmt, ap);
    va_end(ap);
    return h;
}

void rp_headline_text(rp_device *d, int s, const char *what, const char *value)
{
    if (value[0])
        snprintf(rp_headline_add(d, s, "%s", what)->value, sizeof d->headlines->value, "%s", value);
}

/* rp_mark_flags writes a flagged cell as "VALUE (flagged: FLAGS)". */
static const char flagged[] = " (flagged: ";

void rp_headline_value(rp_headline *h, const rp_cell *c, const char *unit)
{
    const char *mark = strstr(c->text, flagged);
    int len = mark ? (int)(mark - c->text) : (int)strlen(c->text);
    /* "1.09x", "7.04 GB/s": a ratio's x is written against its number. */
    const char *gap = unit[0] && unit[0] != 'x' ? " " : "";
    snprintf(h->value, sizeof h->value, "%.*s%s%s", len, c->text, gap, unit);
    if (mark) {
        const char *f = mark + strlen(flagged);
        size_t n = strcspn(f, ")");
        snprintf(h->flags, sizeof h->flags, "%.*s", (int)n, f);
    }
}

void rp_appendf(char *buf, size_t len, const char *sep, const char *fmt, ...)
{
    char piece[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(piece, sizeof piece, fmt, ap);
    va_end(ap);
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s", used ? sep : "", piece);
}

void rp_headline_against(rp_headline *h, const char *label, double value, double limit, const char *unit)
{
    if (!(limit > 0) || !isfinite(limit))
        return;
    /* A value far above a small limit: a share past what a double holds
     * says so, never "inf". */
    double share = 100 * (value / limit);
    if (isfinite(value) && isfinite(share))
        rp_appendf(h->limit, sizeof h->limit, "; ", "%s %.4g %s (%.*g%%)", label, limit, unit,
                   fabs(share) < 1e6 ? 6 : 3, fabs(share) < 1e6 ? round(share) : share);
    else if (isfinite(value)) {
        char over[32];
        rp_format_past_double(share, over, sizeof over);
        rp_appendf(h->limit, sizeof h->limit, "; ", "%s %.4g %s (%s%%)", label, limit, unit, over);
    }
    else
        rp_appendf(h->limit, sizeof h->limit, "; ", "%s %.4g %s", label, limit, unit);
}

const rp_cell *rp_cell_of(const rp_section *sec, const char *table, const char *key, const char *col)
{
    const rp_table *t = rp_find_table(sec, table);
    const rp_row *r = t ? rp_find_row(t, key) : NULL;
    int c = t ? rp_col_index(t, col) : -1;
    return r && c >= 0 && r->cells[c].text[0] ? &r->cells[c] : NULL;
}

double rp_device_number(const rp_device *d, const char *label)
{
    const rp_cell *c = rp_cell_of(&d->sections[RP_DEVICE_SECTION], "device", label, "value");
    return c ? c->num : NAN;
}
