/* Checks a written report against the files it cites, independently of how
 * it was written: it reads report.html and report.md back as text. */
#define _GNU_SOURCE
#include "report/check.h"

#include "report/base64.h"
#include "report/check_markup.h"
#include "report/extract.h"
#include "report/png.h"
#include "report/model.h"
#include "shared/bounded_file.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The whole of a file the report wrote or embeds, read as every file a
 * tool reads (regular files only, bounded); NULL where it is not one. */
#define CHECK_MAX_BYTES ((size_t)1 << 30)
static char *read_text(const char *path, size_t *len)
{
    char err[256];
    return cr_read_bounded(path, CHECK_MAX_BYTES, "a report or its figure", len, err, sizeof err);
}

/* An attribute value as the HTML means it: the entities the report
 * writes, decoded. */
static void unescape(const char *s, size_t n, char *out, size_t outlen)
{
    static const struct {
        const char *ent;
        char c;
    } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < outlen;) {
        bool done = false;
        for (size_t e = 0; e < sizeof ents / sizeof *ents && !done; ++e) {
            size_t el = strlen(ents[e].ent);
            if (i + el <= n && strncmp(s + i, ents[e].ent, el) == 0) {
                out[o++] = ents[e].c;
                i += el;
                done = true;
            }
        }
        if (!done)
            out[o++] = s[i++];
    }
    out[o] = '\0';
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A link's target as the file name it stands for: %XX decoded in place.
 * False for a '%' not followed by two hex digits, or one that decodes to
 * NUL. */
static bool percent_decode(char *s)
{
    char *o = s;
    for (const char *p = s; *p; ++p) {
        if (*p != '%') {
            *o++ = *p;
            continue;
        }
        int hi = hex_digit(p[1]), lo = hi < 0 ? -1 : hex_digit(p[2]);
        if (lo < 0 || (hi == 0 && lo == 0))
            return false;
        *o++ = (char)(hi * 16 + lo);
        p += 2;
    }
    *o = '\0';
    return true;
}

static bool external(const char *target)
{
    return strncmp(target, "http:", 5) == 0 || strncmp(target, "https:", 6) == 0 || strncmp(target, "//", 2) == 0 ||
           strncmp(target, "file:", 5) == 0;
}

typedef struct {
    const char *dir;
    FILE *out;
    int problems;
    size_t images, links;
    rp_strings embedded; /* data-file names of the embedded figures */
    char **ids;          /* the page's id="..." values as written, sorted */
    size_t nids;
} checker;

/* strstr() for a walk over the page: linear in all, where a sanitizer's
 * strstr() measures the rest of the page at each call. */
static const char *next_of(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (s = strchr(s, needle[0]); s; s = strchr(s + 1, needle[0]))
        if (strncmp(s, needle, n) == 0)
            return s;
    return NULL;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every id of the page, once: a page of many anchors costs no more than
 * sorting its ids. */
static void collect_ids(checker *c, const char *html)
{
    size_t cap = 0;
    for (const char *p = next_of(html, " id=\""); p; p = next_of(p + 5, " id=\"")) {
        const char *v = p + 5, *q = strchr(v, '"');
        if (q == NULL)
            break;
        if (c->nids == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(c->ids, cap * sizeof *grown);
            if (grown == NULL)
                break;
            c->ids = grown;
        }
        c->ids[c->nids] = strndup(v, (size_t)(q - v));
        if (c->ids[c->nids] == NULL)
            break;
        ++c->nids;
    }
    qsort(c->ids, c->nids, sizeof *c->ids, by_text);
}

static bool has_id(const checker *c, const char *id)
{
    return c->nids && bsearch(&id, c->ids, c->nids, sizeof *c->ids, by_text) != NULL;
}

static void free_ids(checker *c)
{
    for (size_t i = 0; i < c->nids; ++i)
        free(c->ids[i]);
    free(c->ids);
}

static void problem(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->out, fmt, ap);
    va_end(ap);
    fputc('\n', c->out);
    ++c->problems;
}

static void markup_problem(void *c, const char *what)
{
    problem(c, "report.html: %s", what);
}

/* A relative link (percent-encoded, as the report writes every target):
 * the file exists, and a CSV reads as the report reads it. */
static void check_file(checker *c, const char *from, const char *link)
{
    char target[2048];
    snprintf(target, sizeof target, "%s", link);
    if (!percent_decode(target)) {
        problem(c, "%s: link '%s' is not a valid percent-encoded path", from, link);
        return;
    }
    if (strstr(target, "..") != NULL || target[0] == '/') {
        problem(c, "%s: link '%s' leaves the run directory", from, target);
        return;
    }
    char path[RP_PATH_LEN + 2048];
    snprintf(path, sizeof path, "%s/%s", c->dir, target);
    struct stat st;
    ++c->links;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        problem(c, "%s: linked file '%s' does not exist", from, target);
        return;
    }
    size_t n = strlen(target);
    if (n > 4 && strcmp(target + n - 4, ".csv") == 0) {
        cr_csv_table t;
        char err[1024];
        if (cr_csv_load(&t, path, cr_schema_for(target), err, sizeof err) != 0)
            problem(c, "%s: linked CSV does not read: %s", from, err);
        else
            cr_csv_free(&t);
    }
}


static bool is_png_name(const char *n)
{
    size_t k = strlen(n);
    return k > 4 && strcmp(n + k - 4, ".png") == 0;
}

/* A data: URI in the tag starting at tag: a PNG whose first chunk is IHDR,
 * byte for byte the file its data-file attribute names, a PNG in the run. */
static void check_image(checker *c, const char *tag, const char *tag_end, const char *value, size_t vlen)
{
    ++c->images;
    static const char prefix[] = "data:image/png;base64,";
    const size_t plen = sizeof prefix - 1;
    char name[1024] = "";
    const char *df = memmem(tag, (size_t)(tag_end - tag), "data-file=\"", 11);
    if (df) {
        const char *q = memchr(df + 11, '"', (size_t)(tag_end - df - 11));
        if (q)
            unescape(df + 11, (size_t)(q - df - 11), name, sizeof name);
    }
    if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") || !is_png_name(name)) {
        problem(c, "report.html: an embedded image names no figure of the run ('%s')", name);
        return;
    }
    const char *what = name;
    if (vlen < plen || strncmp(value, prefix, plen) != 0) {
        problem(c, "report.html: %s: not a base64 PNG data: URI", what);
        return;
    }
    unsigned char *png = malloc((vlen - plen) / 4 * 3 + 1);
    ssize_t n = png ? cr_base64_decode(value + plen, vlen - plen, png) : -1;
    if (n < 0) {
        problem(c, "report.html: %s: the data: URI is not valid base64", what);
    } else if (rp_png_fault(png, (size_t)n) != NULL) {
        problem(c, "report.html: %s: the embedded data is not a PNG image (%s)", what, rp_png_fault(png, (size_t)n));
    } else {
        rp_strings_push(&c->embedded, "%s", name);
        char path[RP_PATH_LEN + 1024];
        snprintf(path, sizeof path, "%s/%s", c->dir, name);
        size_t flen = 0;
        char *file = read_text(path, &flen);
        if (file == NULL)
            problem(c, "report.html: embedded figure '%s' has no file", name);
        else if (flen != (size_t)n || memcmp(file, png, flen) != 0)
            problem(c, "report.html: the embedded '%s' differs from the file", name);
        free(file);
    }
    free(png);
}

static void check_html(checker *c, const char *html)
{
    static const char *const attrs[] = {" src=\"", " href=\""};
    for (int a = 0; a < 2; ++a) {
        size_t alen = strlen(attrs[a]);
        for (const char *p = next_of(html, attrs[a]); p; p = next_of(p + 1, attrs[a])) {
            const char *v = p + alen, *q = strchr(v, '"');
            if (q == NULL) {
                problem(c, "report.html: an unterminated attribute");
                return;
            }
            const char *tag = p;
            while (tag > html && *tag != '<')
                --tag;
            const char *tag_end = strchr(q, '>');
            if (tag_end == NULL)
                tag_end = q;
            char target[2048];
            if (a == 0 && strncmp(v, "data:", 5) == 0) {
                check_image(c, tag, tag_end, v, (size_t)(q - v));
                continue;
            }
            unescape(v, (size_t)(q - v), target, sizeof target);
            /* A target of another scheme or host: rp_check_markup says so. */
            if (target[0] == '#') {
                if (!has_id(c, target + 1))
                    problem(c, "report.html: link to '%s', which is not in the page", target);
            } else if (!external(target)) {
                check_file(c, "report.html", target);
            }
        }
    }
}

static void check_markdown(checker *c, const char *md)
{
    for (const char *p = strstr(md, "]("); p; p = strstr(p + 2, "](")) {
        const char *v = p + 2, *q = strchr(v, ')');
        if (q == NULL)
            break;
        char target[2048];
        snprintf(target, sizeof target, "%.*s", (int)(q - v), v);
        if (target[0] != '#' && !external(target))
            check_file(c, "report.md", target);
    }
}

/* Every figure of a device directory (the run's own files where the run
 * is one device's directory) must be in the HTML report: the figures the
 * report embeds, those elsewhere in the run are not its own. */
static void check_device_figures(checker *c, const char *rel)
{
    char path[RP_PATH_LEN + 512];
    snprintf(path, sizeof path, "%s%s%s", c->dir, rel[0] ? "/" : "", rel);
    DIR *dir = opendir(path);
    if (dir == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char name[1024];
        snprintf(name, sizeof name, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        char full[RP_PATH_LEN + 1024];
        snprintf(full, sizeof full, "%s/%s", c->dir, name);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && is_png_name(e->d_name) &&
            !rp_strings_has(&c->embedded, name))
            problem(c, "report.html: figure '%s' is missing from the report", name);
    }
    closedir(dir);
}

static void check_every_figure(checker *c)
{
    rp_strings dirs = {0};
    rp_device_dirs(c->dir, &dirs);
    for (size_t i = 0; i < dirs.n; ++i)
        check_device_figures(c, dirs.v[i]);
    rp_strings_free(&dirs);
}

int rp_check_report(const char *run_dir, FILE *problems, size_t *images, size_t *links)
{
    checker c = {.dir = run_dir, .out = problems};
    char path[RP_PATH_LEN + 32];
    size_t len;
    snprintf(path, sizeof path, "%s/report.html", run_dir);
    char *html = read_text(path, &len);
    if (html == NULL)
        return -1;
    if (strlen(html) != len || strncmp(html, "<!DOCTYPE html>", 15) != 0 || strstr(html, "</html>") == NULL)
        problem(&c, "report.html: not a complete HTML document");
    rp_check_markup(html, markup_problem, &c);
    collect_ids(&c, html);
    check_html(&c, html);
    free_ids(&c);
    free(html);
    snprintf(path, sizeof path, "%s/report.md", run_dir);
    char *md = read_text(path, &len);
    if (md == NULL) {
        problem(&c, "report.md: cannot be read");
    } else {
        check_markdown(&c, md);
        free(md);
    }
    check_every_figure(&c);
    rp_strings_free(&c.embedded);
    *images = c.images;
    *links = c.links;
    return c.problems;
}
