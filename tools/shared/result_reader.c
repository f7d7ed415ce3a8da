#define _POSIX_C_SOURCE 200809L
#include "shared/result_reader.h"

#include "error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing list of strings: the fields of the record being read. */
typedef struct {
    char **v;
    size_t n, cap;
} strings;

static int strings_push(strings *s, const char *text, size_t len)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        char **v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, text, len);
    copy[len] = '\0';
    s->v[s->n++] = copy;
    return 0;
}

static void strings_clear(strings *s)
{
    for (size_t i = 0; i < s->n; ++i)
        free(s->v[i]);
    s->n = 0;
}

/* Reads one record starting at *p into rec, advancing *p and *line.
 * Returns 1 for a record, 0 at the end, -1 on malformed quoting. The
 * scratch buffer holds one field at a time. */
static int next_record(const char **p, unsigned *line, strings *rec, char **scratch, size_t *scap)
{
    const char *s = *p;
    if (*s == '\0')
        return 0;
    for (;;) {
        size_t len = 0;
        if (*s == '"') {
            ++s;
            for (;;) {
                if (*s == '\0')
                    return -1; /* the quote never closes */
                if (*s == '"' && s[1] != '"') {
                    ++s;
                    break;
                }
                char c = *s;
                s += (*s == '"') ? 2 : 1;
                if (c == '\n')
                    ++*line;
                if (len + 1 >= *scap) {
                    size_t cap = *scap ? 2 * *scap : 256;
                    char *b = realloc(*scratch, cap);
                    if (b == NULL)
                        return -1;
                    *scratch = b;
                    *scap = cap;
                }
                (*scratch)[len++] = c;
            }
            if (*s != ',' && *s != '\n' && *s != '\0' && !(*s == '\r' && s[1] == '\n'))
                return -1; /* text after the closing quote */
            if (strings_push(rec, *scratch, len) != 0)
                return -1;
        } else {
            const char *start = s;
            while (*s && *s != ',' && *s != '\n' && !(*s == '\r' && s[1] == '\n')) {
                if (*s == '"')
                    return -1; /* a quote inside an unquoted field */
                ++s;
            }
            if (strings_push(rec, start, (size_t)(s - start)) != 0)
                return -1;
        }
        if (*s == ',') {
            ++s;
            continue;
        }
        if (*s == '\r')
            ++s;
        if (*s == '\n') {
            ++s;
            ++*line;
        }
        break;
    }
    *p = s;
    return 1;
}

/* Skips comment lines and empty lines at *p. */
static void skip_blank_and_comments(const char **p, unsigned *line)
{
    for (;;) {
        const char *s = *p;
        if (*s == '#') {
            while (*s && *s != '\n')
                ++s;
        } else if (*s == '\r' && s[1] == '\n') {
            ++s;
        } else if (*s != '\n') {
            return;
        }
        if (*s == '\n') {
            ++s;
            ++*line;
        }
        *p = s;
        if (*s == '\0')
            return;
    }
}

static char **take(strings *s)
{
    char **v = s->v;
    s->v = NULL;
    s->n = s->cap = 0;
    return v;
}

int cr_csv_parse(cr_csv_table *t, const char *name, const char *text, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", name);
    strings rec = {0};
    char *scratch = NULL;
    size_t scap = 0, rows_cap = 0;
    unsigned line = 1;
    const char *p = text;
    int rc = -1;

    skip_blank_and_comments(&p, &line);
    unsigned at = line;
    int got = next_record(&p, &line, &rec, &scratch, &scap);
    if (got <= 0) {
        cr_errf(err, errlen, "%s:%u: %s", name, at, got == 0 ? "empty file: no header" : "malformed quoting");
        goto out;
    }
    t->ncols = rec.n;
    t->names = take(&rec);
    for (;;) {
        skip_blank_and_comments(&p, &line);
        at = line;
        got = next_record(&p, &line, &rec, &scratch, &scap);
        if (got == 0)
            break;
        if (got < 0) {
            cr_errf(err, errlen, "%s:%u: malformed quoting", name, at);
            goto out;
        }
        if (rec.n != t->ncols) {
            cr_errf(err, errlen, "%s:%u: %zu fields, the header has %zu", name, at, rec.n, t->ncols);
            goto out;
        }
        if (t->nrows == rows_cap) {
            rows_cap = rows_cap ? 2 * rows_cap : 64;
            cr_csv_row *rows = realloc(t->rows, rows_cap * sizeof *rows);
            if (rows == NULL) {
                cr_errf(err, errlen, "%s: out of memory", name);
                goto out;
            }
            t->rows = rows;
        }
        t->rows[t->nrows].line = at;
        t->rows[t->nrows].fields = take(&rec);
        ++t->nrows;
    }
    rc = 0;
out:
    strings_clear(&rec);
    free(rec.v);
    free(scratch);
    if (rc != 0)
        cr_csv_free(t);
    return rc;
}

int cr_csv_load(cr_csv_table *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (text == NULL) {
            fclose(f);
            return cr_errf(err, errlen, "%s: out of memory", path);
        }
        len += fread(text + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        cap *= 2;
        char *bigger = realloc(text, cap);
        if (bigger == NULL)
            free(text);
        text = bigger;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(text);
        return cr_errf(err, errlen, "%s: read error", path);
    }
    text[len] = '\0';
    if (strlen(text) != len) {
        free(text);
        return cr_errf(err, errlen, "%s: a NUL byte: not a CSV text file", path);
    }
    int rc = cr_csv_parse(t, path, text, err, errlen);
    free(text);
    return rc;
}

static void free_fields(char **v, size_t n)
{
    if (v == NULL)
        return;
    for (size_t i = 0; i < n; ++i)
        free(v[i]);
    free(v);
}

void cr_csv_free(cr_csv_table *t)
{
    free_fields(t->names, t->ncols);
    for (size_t i = 0; i < t->nrows; ++i)
        free_fields(t->rows[i].fields, t->ncols);
    free(t->rows);
    t->names = NULL;
    t->rows = NULL;
    t->nrows = t->ncols = 0;
}

int cr_csv_column(const cr_csv_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; ++i)
        if (strcmp(t->names[i], name) == 0)
            return (int)i;
    return -1;
}

int cr_csv_require(const cr_csv_table *t, const char *const *names, size_t n, int *idx, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; ++i) {
        idx[i] = cr_csv_column(t, names[i]);
        if (idx[i] < 0)
            return cr_errf(err, errlen, "%s:1: no column '%s' in the header", t->path, names[i]);
    }
    return 0;
}

int cr_csv_number(const cr_csv_table *t, size_t row, int col, bool allow_empty, double *out, char *err,
                  size_t errlen)
{
    const char *s = t->rows[row].fields[col];
    if (*s == '\0' && allow_empty) {
        *out = NAN;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    double v = *s ? strtod(s, &end) : NAN;
    /* strtod also takes "inf", "nan" and hex floats; the suite writes none. */
    bool plain = *s && strspn(s, "0123456789+-.eE") == strlen(s);
    if (*s == '\0' || end == NULL || *end != '\0' || !plain || !isfinite(v) || errno == ERANGE)
        return cr_errf(err, errlen, "%s:%u: column '%s': '%.40s' is not a number", t->path, t->rows[row].line,
                       t->names[col], s);
    *out = v;
    return 0;
}

bool cr_params_get(const char *params, const char *key, char *buf, size_t len)
{
    size_t klen = strlen(key);
    for (const char *p = params; p && *p;) {
        const char *end = strchr(p, ';');
        size_t item = end ? (size_t)(end - p) : strlen(p);
        if (item > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t vlen = item - klen - 1;
            if (vlen >= len)
                vlen = len ? len - 1 : 0;
            if (len) {
                memcpy(buf, p + klen + 1, vlen);
                buf[vlen] = '\0';
            }
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}
