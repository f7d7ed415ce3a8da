#define _POSIX_C_SOURCE 200809L
#include "trace.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A field: the next run of non-blank characters, copied into buf. */
static const char *next_field(const char *p, char *buf, size_t buflen, bool *too_long)
{
    while (*p == ' ' || *p == '\t')
        ++p;
    size_t n = strcspn(p, " \t");
    *too_long = n >= buflen;
    size_t kept = *too_long ? buflen - 1 : n;
    memcpy(buf, p, kept);
    buf[kept] = '\0';
    return p + n;
}

/* An unsigned 64-bit number: 0x-prefixed hex when allow_hex, else decimal;
 * no sign, no trailing characters. */
static bool parse_u64(const char *s, bool allow_hex, uint64_t *out)
{
    int base = 10;
    const char *digits = s;
    if (allow_hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        digits = s + 2;
    }
    if (!isxdigit((unsigned char)digits[0]) || (base == 10 && !isdigit((unsigned char)digits[0])))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(digits, &end, base);
    if (errno == ERANGE || *end != '\0')
        return false;
    *out = v;
    return true;
}

int cs_trace_parse_line(const char *text, cs_trace_access *access, char *why, size_t whylen)
{
    char line[512];
    size_t len = strcspn(text, "#\r");
    if (len >= sizeof line)
        return cr_errf(why, whylen, "line longer than %zu characters", sizeof line - 1);
    memcpy(line, text, len);
    line[len] = '\0';

    char fields[5][64];
    const char *p = line;
    int n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p == '\0')
            break;
        if (n == 5)
            return cr_errf(why, whylen, "more than 5 fields (ADDRESS R|W [WORKGROUP WARP INSTRUCTION])");
        bool too_long;
        p = next_field(p, fields[n], sizeof fields[n], &too_long);
        if (too_long)
            return cr_errf(why, whylen, "field %d is longer than %zu characters", n + 1, sizeof fields[n] - 1);
        ++n;
    }
    if (n == 0)
        return 0;
    if (n != 2 && n != 5)
        return cr_errf(why, whylen, "%d fields, want 2 (ADDRESS R|W) or 5 (ADDRESS R|W WORKGROUP WARP INSTRUCTION)", n);
    *access = (cs_trace_access){.has_origin = n == 5};
    if (!parse_u64(fields[0], true, &access->address))
        return cr_errf(why, whylen, "address '%s' is not a 64-bit hex (0x...) or decimal number", fields[0]);
    if (strcmp(fields[1], "R") == 0 || strcmp(fields[1], "W") == 0)
        access->write = fields[1][0] == 'W';
    else
        return cr_errf(why, whylen, "access kind '%s' is neither R nor W", fields[1]);
    static const char *const names[] = {"work-group", "warp", "instruction"};
    uint64_t *origin[] = {&access->workgroup, &access->warp, &access->instruction};
    for (int i = 2; i < n; ++i)
        if (!parse_u64(fields[i], false, origin[i - 2]))
            return cr_errf(why, whylen, "%s '%s' is not a non-negative decimal number", names[i - 2], fields[i]);
    return 1;
}

static int append(cs_trace *t, const cs_trace_access *a)
{
    if (t->count == t->capacity) {
        size_t cap = t->capacity ? 2 * t->capacity : 1024;
        cs_trace_access *grown = realloc(t->items, cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        t->items = grown;
        t->capacity = cap;
    }
    t->items[t->count++] = *a;
    return 0;
}

/* The next line of in into buf (its newline dropped): its length, -1 at
 * the end of the input, -2 where it does not fit (an access's line is
 * short: a line of megabytes, or a stream of NUL bytes without a newline,
 * is no trace). */
static long next_line(FILE *in, char *buf, size_t cap)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 == cap)
            return -2;
        buf[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return -1;
    buf[n] = '\0';
    return (long)n;
}

int cs_trace_read(FILE *in, const char *name, cs_trace *t, char *err, size_t errlen)
{
    char buf[CS_TRACE_MAX_LINE + 1];
    long got;
    unsigned long line_no = 0;
    int status = 0;
    while (status == 0 && (got = next_line(in, buf, sizeof buf)) != -1) {
        ++line_no;
        if (got == -2) {
            status = cr_errf(err, errlen, "%s:%lu: a line of more than %d bytes", name, line_no, CS_TRACE_MAX_LINE);
            break;
        }
        if (strlen(buf) != (size_t)got) {
            status = cr_errf(err, errlen, "%s:%lu: a NUL byte in the line", name, line_no);
            break;
        }
        cs_trace_access a;
        char why[256];
        int kind = cs_trace_parse_line(buf, &a, why, sizeof why);
        if (kind < 0)
            status = cr_errf(err, errlen, "%s:%lu: %s", name, line_no, why);
        else if (kind == 1 && t->count > 0 && a.has_origin != t->items[0].has_origin)
            status = cr_errf(err, errlen, "%s:%lu: %d fields, but the first access has %d: a trace is all one form",
                             name, line_no, a.has_origin ? 5 : 2, t->items[0].has_origin ? 5 : 2);
        else if (kind == 1 && t->count == CS_TRACE_MAX_ACCESSES)
            status = cr_errf(err, errlen, "%s:%lu: more than %u accesses (16 Mi), the most a trace may hold", name,
                             line_no, CS_TRACE_MAX_ACCESSES);
        else if (kind == 1 && append(t, &a) != 0) {
            cr_errf(err, errlen, "%s:%lu: out of memory reading the trace, %zu accesses read", name, line_no,
                    t->count);
            status = -2;
        }
    }
    if (status == 0 && ferror(in))
        status = cr_errf(err, errlen, "%s: read error after line %lu", name, line_no);
    return status;
}

void cs_trace_free(cs_trace *t)
{
    free(t->items);
    *t = (cs_trace){0};
}
