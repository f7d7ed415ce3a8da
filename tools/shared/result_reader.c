#define _POSIX_C_SOURCE 200809L
#include "shared/result_reader.h"

#include "error.h"
#include "shared/bounded_file.h"
#include "shared/utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int out_of_memory(const char *name, char *err, size_t errlen)
{
    return cr_errf(err, errlen, "out of memory reading %s", name);
}

/* Where the fields of the records go: only counted (cells NULL), or ended
 * with a NUL where they stand in the text, their quotes undone, and each
 * pointed at from cells. */
typedef struct {
    char **cells;
    size_t n; /* fields so far */
} field_sink;

static bool field_end(const char *s)
{
    return *s == ',' || *s == '\n' || *s == '\0' || (*s == '\r' && s[1] == '\n');
}

/* The field at *p: its text from *start (past an opening quote), *raw
 * bytes of it (a doubled quote counts two); *p left on the byte after it.
 * -1 where a quote is out of place. */
static int scan_field(char **p, unsigned *line, char **start, size_t *raw, bool *quoted)
{
    char *s = *p;
    *quoted = *s == '"';
    if (*quoted) {
        *start = ++s;
        while (!(*s == '"' && s[1] != '"')) {
            if (*s == '\0')
                return -1; /* the quote never closes */
            *line += *s == '\n';
            s += *s == '"' ? 2 : 1;
        }
        *raw = (size_t)(s++ - *start);
        if (!field_end(s))
            return -1; /* text after the closing quote */
    } else {
        for (*start = s; !field_end(s); ++s)
            if (*s == '"')
                return -1; /* a quote inside an unquoted field */
        *raw = (size_t)(s - *start);
    }
    *p = s;
    return 0;
}

/* Stores the field of raw bytes at start: in place, since undoing doubled
 * quotes only shortens it and every byte it writes has been read. */
static void put_field(field_sink *k, char *start, size_t raw, bool quoted)
{
    if (k->cells == NULL) {
        ++k->n;
        return;
    }
    size_t len = 0;
    for (size_t i = 0; i < raw; i += quoted && start[i] == '"' ? 2 : 1)
        start[len++] = start[i];
    start[len] = '\0';
    k->cells[k->n++] = start;
}

/* Reads one record starting at *p into the sink, advancing *p and *line;
 * *nfields its fields. Returns 1 for a record, 0 at the end, -1 on
 * malformed quoting. */
static int next_record(char **p, unsigned *line, field_sink *sink, size_t *nfields)
{
    char *s = *p;
    if (*s == '\0')
        return 0;
    size_t first = sink->n;
    for (;;) {
        char *start;
        size_t raw;
        bool quoted;
        if (scan_field(&s, line, &start, &raw, &quoted) != 0)
            return -1;
        char end = *s; /* the NUL that ends an unquoted field may go there */
        put_field(sink, start, raw, quoted);
        if (end == ',') {
            ++s;
            continue;
        }
        if (end != '\0') {
            s += end == '\r' ? 2 : 1;
            ++*line;
        }
        break;
    }
    *nfields = sink->n - first;
    *p = s;
    return 1;
}

/* Skips empty lines at *p, and comment lines where the kind has them. */
static void skip_blank_and_comments(char **p, unsigned *line, bool comments)
{
    for (;;) {
        char *s = *p;
        if (*s == '#' && comments) {
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

/* ---- the text, before any field ---- */

/* What the suite writes is UTF-8 text with tabs and line breaks as its
 * only control bytes, in lines of a bounded length, the last one ended (it
 * writes whole files, atomically): anything else is another kind of file,
 * or one cut short. */
static int check_text(const char *name, const unsigned char *s, size_t len, char *err, size_t errlen)
{
    unsigned line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        if (c == '\n') {
            ++line;
            line_start = ++i;
            continue;
        }
        if (i - line_start >= CR_CSV_MAX_LINE)
            return cr_errf(err, errlen, "%s:%u: a line longer than %d bytes", name, line, CR_CSV_MAX_LINE);
        size_t n = cr_utf8_length(s + i, len - i);
        if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f || n == 0)
            return cr_errf(err, errlen, "%s:%u: binary data (byte 0x%02x): not a CSV text file", name, line, c);
        i += n;
    }
    if (len > 0 && s[len - 1] != '\n')
        return cr_errf(err, errlen, "%s:%u: the last line has no end: the file is cut short", name, line);
    return 0;
}

/* ---- the records ---- */

static const char no_comment[] = "a line starting with '#': this kind of file has no comments";

/* The header and the records of t->text, into the sink (t->ncols, t->nrows
 * and their lines counted whether it stores or not), up to the first fault. */
static int records(cr_csv_table *t, const char *name, bool comments, field_sink *sink, char *err, size_t errlen)
{
    unsigned line = 1, at;
    char *p = t->text;
    size_t n;
    int got;
    skip_blank_and_comments(&p, &line, comments);
    at = line;
    if (*p == '#' && !comments)
        return cr_errf(err, errlen, "%s:%u: %s", name, at, no_comment);
    if ((got = next_record(&p, &line, sink, &n)) <= 0)
        return cr_errf(err, errlen, "%s:%u: %s", name, at, got == 0 ? "empty file: no header" : "malformed quoting");
    t->header_line = at;
    t->ncols = n;
    for (;;) {
        skip_blank_and_comments(&p, &line, comments);
        at = line;
        if (*p == '#' && !comments)
            return cr_errf(err, errlen, "%s:%u: %s", name, at, no_comment);
        if ((got = next_record(&p, &line, sink, &n)) == 0)
            return 0;
        if (got < 0)
            return cr_errf(err, errlen, "%s:%u: malformed quoting", name, at);
        if (n != t->ncols)
            return cr_errf(err, errlen, "%s:%u: %zu field%s, the header has %zu", name, at, n, n == 1 ? "" : "s",
                           t->ncols);
        if (sink->cells)
            t->rows[t->nrows] = (cr_csv_row){NULL, at};
        ++t->nrows;
    }
}

/* Splits t->text into the header and the records: counted first, so that
 * the field pointers and the records take one array each, of their size;
 * then read into them, each field in place in the text. */
static int split(cr_csv_table *t, const char *name, bool comments, char *err, size_t errlen)
{
    field_sink sink = {NULL, 0};
    records(t, name, comments, &sink, err, errlen); /* a fault, the second pass finds again */
    size_t nrows = t->nrows;
    t->nrows = 0;
    if ((t->cells = malloc((sink.n ? sink.n : 1) * sizeof *t->cells)) == NULL ||
        (t->rows = malloc((nrows ? nrows : 1) * sizeof *t->rows)) == NULL)
        return out_of_memory(name, err, errlen);
    sink = (field_sink){t->cells, 0};
    int rc = records(t, name, comments, &sink, err, errlen);
    t->names = t->cells;
    for (size_t r = 0; r < t->nrows; ++r)
        t->rows[r].fields = t->cells + t->ncols * (r + 1);
    return rc;
}

/* ---- the schema ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A name twice in names (n of them), or NULL: sorted, so that a header of
 * thousands of names costs no more than sorting them. */
static const char *twice(char **names, size_t n)
{
    char **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (sorted == NULL)
        return NULL;
    memcpy(sorted, names, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_name);
    const char *dup = NULL;
    for (size_t i = 1; i < n && !dup; ++i)
        if (strcmp(sorted[i - 1], sorted[i]) == 0)
            dup = sorted[i];
    free(sorted);
    return dup;
}

static bool name_like(const char *s)
{
    return (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_';
}

static int check_header(const cr_csv_table *t, const cr_csv_schema *s, char *err, size_t errlen)
{
    char x[64];
    unsigned at = t->header_line;
    size_t known = 0;
    for (size_t i = 0; i < t->ncols; ++i)
        known += cr_schema_column(s, t->names[i]) != NULL;
    if (s->ncols > 0 && known == 0)
        return cr_errf(err, errlen, "%s:%u: no header: the first line names no column of %s", t->path, at, s->what);
    for (size_t i = 0; i < s->ncols; ++i)
        if (s->cols[i].presence != CR_ADDED_LATER && cr_csv_column(t, s->cols[i].name) < 0)
            return cr_errf(err, errlen, "%s:%u: no column '%s' in the header", t->path, at, s->cols[i].name);
    for (size_t i = 0; i < t->ncols; ++i) {
        const char *name = t->names[i];
        if (cr_schema_column(s, name))
            continue;
        if (!s->open)
            return cr_errf(err, errlen, "%s:%u: column '%s' is not a column of %s", t->path, at,
                           cr_field_excerpt(name, x, sizeof x), s->what);
        if (!name_like(name))
            return cr_errf(err, errlen, "%s:%u: no header: '%s' is not a column name", t->path, at,
                           cr_field_excerpt(name, x, sizeof x));
    }
    const char *dup = twice(t->names, t->ncols);
    if (dup)
        return cr_errf(err, errlen, "%s:%u: column '%s' appears twice in the header", t->path, at,
                       cr_field_excerpt(dup, x, sizeof x));
    return 0;
}

static int field_fault(const cr_csv_table *t, size_t row, const char *label, const char *name,
                       const cr_column_spec *spec, const char *text, char *err, size_t errlen)
{
    const char *why = cr_field_fault(spec, text);
    if (why == NULL)
        return 0;
    char x[64], y[64];
    return cr_errf(err, errlen, "%s:%u: %s '%s': '%s' %s", t->path, t->rows[row].line, label,
                   cr_field_excerpt(name, y, sizeof y), cr_field_excerpt(text, x, sizeof x), why);
}

static int check_fields(const cr_csv_table *t, const cr_csv_schema *s, char *err, size_t errlen)
{
    const cr_column_spec **spec = malloc((t->ncols ? t->ncols : 1) * sizeof *spec);
    if (spec == NULL)
        return out_of_memory(t->path, err, errlen);
    for (size_t c = 0; c < t->ncols; ++c)
        spec[c] = cr_schema_column(s, t->names[c]);
    int rc = 0;
    for (size_t r = 0; r < t->nrows && rc == 0; ++r) {
        for (size_t c = 0; c < t->ncols && rc == 0; ++c)
            if (spec[c])
                rc = field_fault(t, r, "column", t->names[c], spec[c], t->rows[r].fields[c], err, errlen);
        const char *(*row_fault)(const char *, const char *const *, char *const *, size_t, char *, size_t) =
            s == &cr_schema_results ? cr_results_row_fault : s == &cr_schema_run_log ? cr_run_log_row_fault : NULL;
        char buf[256];
        const char *why = rc == 0 && row_fault ? row_fault(t->path, (const char *const *)t->names, t->rows[r].fields,
                                                           t->ncols, buf, sizeof buf)
                                               : NULL;
        if (why)
            rc = cr_errf(err, errlen, "%s:%u: %s", t->path, t->rows[r].line, why);
    }
    free(spec);
    return rc;
}

/* A key's line, for sorting the keys of a key,value file. */
typedef struct {
    const char *key;
    unsigned line;
} keyed_line;

static int by_key_then_line(const void *a, const void *b)
{
    const keyed_line *p = a, *q = b;
    int c = strcmp(p->key, q->key);
    return c ? c : (p->line > q->line) - (p->line < q->line);
}

/* Each key once (the readers would each pick a different one of two), and
 * each known key's value of its kind. */
static int check_keys(const cr_csv_table *t, const cr_csv_schema *s, char *err, size_t errlen)
{
    int kc = cr_csv_column(t, s->cols[0].name), vc = cr_csv_column(t, s->cols[1].name);
    for (size_t r = 0; r < t->nrows; ++r)
        for (size_t k = 0; k < s->nkeys; ++k)
            if (strcmp(t->rows[r].fields[kc], s->keys[k].name) == 0 &&
                field_fault(t, r, "key", s->keys[k].name, &s->keys[k], t->rows[r].fields[vc], err, errlen) != 0)
                return -1;
    keyed_line *v = malloc((t->nrows ? t->nrows : 1) * sizeof *v);
    if (v == NULL)
        return out_of_memory(t->path, err, errlen);
    for (size_t r = 0; r < t->nrows; ++r)
        v[r] = (keyed_line){t->rows[r].fields[kc], t->rows[r].line};
    qsort(v, t->nrows, sizeof *v, by_key_then_line);
    /* The earliest second occurrence is the line at fault. */
    size_t worst = 0;
    for (size_t i = 1; i < t->nrows; ++i)
        if (strcmp(v[i - 1].key, v[i].key) == 0 && (worst == 0 || v[i].line < v[worst].line))
            worst = i;
    int rc = 0;
    if (worst) {
        char x[64];
        size_t first = worst;
        while (first > 0 && strcmp(v[first - 1].key, v[worst].key) == 0)
            --first;
        rc = cr_errf(err, errlen, "%s:%u: key '%s' appears twice (first on line %u)", t->path, v[worst].line,
                     cr_field_excerpt(v[worst].key, x, sizeof x), v[first].line);
    }
    free(v);
    return rc;
}

/* The files the suite writes (results, their metadata, the run log) have
 * no comments: a '#' line is no line of theirs. The reference
 * tables, written by hand, carry their source in comments. */
static bool has_comments(const cr_csv_schema *s)
{
    return s != &cr_schema_results && s != &cr_schema_metadata && s != &cr_schema_run_log;
}

/* text: len bytes and a NUL, which the table takes (cr_csv_free frees it). */
static int parse_text(cr_csv_table *t, const char *name, char *text, size_t len, const cr_csv_schema *s,
                      char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", name);
    t->text = text;
    int rc = check_text(name, (const unsigned char *)text, len, err, errlen);
    if (rc == 0)
        rc = split(t, name, has_comments(s), err, errlen);
    if (rc == 0)
        rc = check_header(t, s, err, errlen);
    if (rc == 0)
        rc = check_fields(t, s, err, errlen);
    if (rc == 0 && s->nkeys)
        rc = check_keys(t, s, err, errlen);
    if (rc != 0)
        cr_csv_free(t);
    return rc;
}

static int too_large(const char *path, char *err, size_t errlen)
{
    return cr_errf(err, errlen, "%s: more than a results file may hold (%zu MiB, read in at most %zu MiB of memory)",
                   path, CR_CSV_MAX_BYTES >> 20, CR_CSV_MAX_MEMORY >> 20);
}

int cr_csv_parse(cr_csv_table *t, const char *name, const char *text, size_t len, const cr_csv_schema *schema,
                 char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (len > CR_CSV_MAX_BYTES)
        return too_large(name, err, errlen);
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return out_of_memory(name, err, errlen);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return parse_text(t, name, copy, len, schema, err, errlen);
}

int cr_csv_load(cr_csv_table *t, const char *path, const cr_csv_schema *schema, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    /* The size, for the message that says what memory a file under it
     * takes; the read holds to it whatever the file does meanwhile. */
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > CR_CSV_MAX_BYTES)
        return too_large(path, err, errlen);
    size_t len = 0;
    char *text = cr_read_bounded(path, CR_CSV_MAX_BYTES, "a results file", &len, err, errlen);
    if (text == NULL)
        return -1;
    return parse_text(t, path, text, len, schema, err, errlen);
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
    if (t->cells) {
        free(t->cells);
    } else {
        free_fields(t->names, t->ncols);
        for (size_t i = 0; i < t->nrows; ++i)
            free_fields(t->rows[i].fields, t->ncols);
    }
    free(t->rows);
    free(t->text);
    t->text = NULL;
    t->cells = t->names = NULL;
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
            return cr_errf(err, errlen, "%s:%u: no column '%s' in the header", t->path, t->header_line, names[i]);
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
    const char *why = cr_number_fault(s, out);
    if (why == NULL)
        return 0;
    char x[64];
    return cr_errf(err, errlen, "%s:%u: column '%s': '%s' %s", t->path, t->rows[row].line, t->names[col],
                   cr_field_excerpt(s, x, sizeof x), why);
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
