/* The values of options: sizes, ranges, counts and their lists, seconds,
 * on/off/auto modes; and a byte count as text. */
#include "options.h"

#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* strtoull accepts a leading '-' and wraps it around; reject signs and blanks
 * before it ever sees them. */
static int parse_u64_prefix(const char *text, uint64_t *value, const char **rest)
{
    if (!isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return -2;
    *value = v;
    *rest = end;
    return 0;
}

static int suffix_shift(const char *s, unsigned *shift)
{
    static const struct { const char *name; unsigned shift; } table[] = {
        {"", 0},     {"B", 0},     {"K", 10},    {"KB", 10},   {"KiB", 10}, {"k", 10},
        {"M", 20},   {"MB", 20},   {"MiB", 20},  {"G", 30},    {"GB", 30},  {"GiB", 30},
        {"T", 40},   {"TB", 40},   {"TiB", 40},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        if (strcmp(s, table[i].name) == 0) {
            *shift = table[i].shift;
            return 0;
        }
    }
    return -1;
}

/* The leading number of a size or count (what), with the errors both share;
 * number says what it must be ("a number", "a whole number"). */
static int parse_leading(const char *text, const char *what, const char *number, uint64_t *v, const char **rest,
                         char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty %s", what);
    if (text[0] == '-')
        return cr_errf(err, errlen, "%s '%s' is negative", what, text);
    int rc = parse_u64_prefix(text, v, rest);
    if (rc == -2)
        return cr_errf(err, errlen, "%s '%s' does not fit in 64 bits", what, text);
    if (rc != 0)
        return cr_errf(err, errlen, "%s '%s' is not %s", what, text, number);
    return 0;
}

int cr_parse_size(const char *text, uint64_t *out, char *err, size_t errlen)
{
    uint64_t v;
    const char *rest;
    if (parse_leading(text, "size", "a number", &v, &rest, err, errlen) != 0)
        return -1;
    unsigned shift;
    if (suffix_shift(rest, &shift) != 0)
        return cr_errf(err, errlen, "size '%s' has an unknown suffix (use K, M, G or T)", text);
    if (v == 0)
        return cr_errf(err, errlen, "size '%s' must be positive", text);
    if (shift > 0 && v > (UINT64_MAX >> shift))
        return cr_errf(err, errlen, "size '%s' does not fit in 64 bits", text);
    *out = v << shift;
    return 0;
}

int cr_parse_range(const char *text, cr_range *out, char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty range");
    char buf[128];
    if (strlen(text) >= sizeof buf)
        return cr_errf(err, errlen, "range '%s' is too long", text);
    strcpy(buf, text);

    char *first = strchr(buf, ':');
    if (first == NULL) {
        uint64_t v;
        if (cr_parse_size(buf, &v, err, errlen) != 0)
            return -1;
        *out = (cr_range){v, v, 2};
        return 0;
    }
    *first = '\0';
    char *second = strchr(first + 1, ':');
    if (second == NULL)
        return cr_errf(err, errlen, "range '%s' must be START:END:xFACTOR", text);
    *second = '\0';
    const char *step = second + 1;

    cr_range r;
    char sub[CR_ERRLEN];
    if (cr_parse_size(buf, &r.start, sub, sizeof sub) != 0)
        return cr_errf(err, errlen, "range '%s': start: %s", text, sub);
    if (cr_parse_size(first + 1, &r.end, sub, sizeof sub) != 0)
        return cr_errf(err, errlen, "range '%s': end: %s", text, sub);
    if (step[0] != 'x')
        return cr_errf(err, errlen, "range '%s': step must be xFACTOR, e.g. x2", text);
    const char *rest;
    int rc = parse_u64_prefix(step + 1, &r.factor, &rest);
    if (rc != 0 || *rest != '\0')
        return cr_errf(err, errlen, "range '%s': step '%s' is not xN with N an integer", text, step);
    if (r.factor < 2)
        return cr_errf(err, errlen, "range '%s': factor must be at least 2", text);
    if (r.start > r.end)
        return cr_errf(err, errlen, "range '%s': start is larger than end", text);
    *out = r;
    return 0;
}

size_t cr_range_count(const cr_range *r)
{
    size_t n = 0;
    uint64_t v = r->start;
    for (;;) {
        ++n;
        if (v > r->end / r->factor)
            break; /* next value would exceed end (or overflow) */
        v *= r->factor;
    }
    return n;
}

uint64_t cr_range_value(const cr_range *r, size_t i)
{
    uint64_t v = r->start;
    while (i-- > 0)
        v *= r->factor;
    return v;
}

int cr_parse_count(const char *text, uint64_t *out, char *err, size_t errlen)
{
    uint64_t v;
    const char *rest;
    if (parse_leading(text, "count", "a whole number", &v, &rest, err, errlen) != 0)
        return -1;
    if (*rest != '\0')
        return cr_errf(err, errlen, "count '%s' is not a whole number", text);
    if (v == 0)
        return cr_errf(err, errlen, "count '%s' must be positive", text);
    *out = v;
    return 0;
}

int cr_parse_count_at_most(const char *text, uint64_t max, const char *what, uint64_t *out, char *err,
                           size_t errlen)
{
    if (cr_parse_count(text, out, err, errlen) != 0)
        return -1;
    if (*out > max)
        return cr_errf(err, errlen, "%" PRIu64 " %s is above %" PRIu64, *out, what, max);
    return 0;
}

/* auto, on, off: 0, 1, 2 (the order of cr_host_ref and cr_energy_mode). */
static int parse_auto_on_off(const char *text, int *out, char *err, size_t errlen)
{
    static const char *const names[] = {"auto", "on", "off"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return cr_errf(err, errlen, "'%s' is not auto, on or off", text);
}

int cr_parse_host_ref(const char *text, cr_host_ref *out, char *err, size_t errlen)
{
    int v = 0;
    if (parse_auto_on_off(text, &v, err, errlen) != 0)
        return -1;
    *out = (cr_host_ref)v;
    return 0;
}

int cr_parse_energy_mode(const char *text, cr_energy_mode *out, char *err, size_t errlen)
{
    int v = 0;
    if (parse_auto_on_off(text, &v, err, errlen) != 0)
        return -1;
    *out = (cr_energy_mode)v;
    return 0;
}

bool cr_host_ref_wanted(cr_host_ref mode, bool device_shares_host_memory)
{
    return mode == CR_HOST_REF_ON || (mode == CR_HOST_REF_AUTO && device_shares_host_memory);
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

int cr_parse_interval(const char *text, uint64_t *lo, uint64_t *hi, char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty interval");
    const char *colon = strchr(text, ':');
    char a[32];
    size_t alen = colon ? (size_t)(colon - text) : strlen(text);
    if (alen >= sizeof a)
        return cr_errf(err, errlen, "interval '%s' is too long", text);
    memcpy(a, text, alen);
    a[alen] = '\0';
    char sub[CR_ERRLEN];
    if (cr_parse_count(a, lo, sub, sizeof sub) != 0)
        return cr_errf(err, errlen, "interval '%s': %s", text, sub);
    if (colon == NULL) {
        *hi = *lo;
        return 0;
    }
    if (cr_parse_count(colon + 1, hi, sub, sizeof sub) != 0)
        return cr_errf(err, errlen, "interval '%s': %s", text, sub);
    if (*lo > *hi)
        return cr_errf(err, errlen, "interval '%s': MIN is larger than MAX", text);
    return 0;
}

int cr_parse_seconds(const char *text, double *out, char *err, size_t errlen)
{
    if (text == NULL || text[0] == '\0')
        return cr_errf(err, errlen, "empty time");
    if (text[0] == '-')
        return cr_errf(err, errlen, "time '%s' is negative", text);
    if (!isdigit((unsigned char)text[0]) && text[0] != '.')
        return cr_errf(err, errlen, "time '%s' is not a number of seconds", text);
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (*end != '\0')
        return cr_errf(err, errlen, "time '%s' is not a number of seconds", text);
    if (errno == ERANGE || !isfinite(v))
        return cr_errf(err, errlen, "time '%s' is out of range", text);
    if (v <= 0)
        return cr_errf(err, errlen, "time '%s' must be positive", text);
    if (v > 86400)
        return cr_errf(err, errlen, "time '%s' is more than a day", text);
    *out = v;
    return 0;
}

void cr_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && bytes >= (UINT64_C(1) << (10 * (u + 1))))
        ++u;
    uint64_t whole = bytes >> (10 * u);
    if (u == 0 || (bytes & ((UINT64_C(1) << (10 * u)) - 1)) == 0)
        snprintf(buf, len, "%" PRIu64 " %s", whole, units[u]);
    else
        snprintf(buf, len, "%.1f %s", (double)bytes / (double)(UINT64_C(1) << (10 * u)), units[u]);
}

int cr_parse_on_off(const char *text, bool *out, char *err, size_t errlen)
{
    int v = 0;
    if (parse_auto_on_off(text, &v, err, errlen) != 0 || v == 0)
        return cr_errf(err, errlen, "'%s' is not on or off", text);
    *out = v == 1;
    return 0;
}
