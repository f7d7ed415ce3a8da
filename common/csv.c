#define _POSIX_C_SOURCE 200809L
#include "csv.h"
#include "pending.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cr_csv_field(FILE *f, const char *text)
{
    if (text == NULL)
        text = "";
    size_t len = strlen(text);
    bool quote = strpbrk(text, ",\"\r\n") != NULL ||
                 (len > 0 && (text[0] == ' ' || text[len - 1] == ' '));
    if (!quote) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *p = text; *p; ++p) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

void cr_csv_record(FILE *f, const char *const *fields, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        if (k)
            fputc(',', f);
        cr_csv_field(f, fields[k]);
    }
    fputc('\n', f);
}

void cr_csv_double(FILE *f, double v)
{
    if (isnan(v))
        return;
    fprintf(f, "%.9g", v);
}

int cr_write_staged(cr_staged *s, const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err,
                    size_t errlen)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    *s = (cr_staged){.path = path};
    if (tmp == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(tmp, len + 16, "%s.tmp.XXXXXX", path);
    int fd = cr_pending_mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a file beside %s: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    s->tmp = tmp;
    FILE *f = fdopen(fd, "w");
    if (f == NULL) {
        snprintf(err, errlen, "cannot open %s: %s", tmp, strerror(errno));
        close(fd);
        cr_staged_discard(s);
        return -1;
    }
    int rc = writer(f, ctx);
    if (rc == 0 && fflush(f) != 0)
        rc = -1;
    if (rc == 0 && fsync(fileno(f)) != 0)
        rc = -1;
    int saved = errno;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    /* mkstemp creates 0600; results are meant to be shared like any file. */
    if (rc == 0) {
        mode_t mask = umask(0);
        umask(mask);
        chmod(tmp, 0666 & ~mask);
        return 0;
    }
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    cr_staged_discard(s);
    return -1;
}

void cr_staged_discard(cr_staged *s)
{
    if (s->tmp == NULL)
        return;
    unlink(s->tmp);
    cr_pending_done(s->tmp);
    free(s->tmp);
    s->tmp = NULL;
}

int cr_staged_commit(cr_staged *s, size_t n, char *err, size_t errlen)
{
    sigset_t old;
    cr_pending_hold_signals(&old);
    int rc = 0;
    for (size_t i = 0; i < n; ++i) {
        if (rc == 0 && rename(s[i].tmp, s[i].path) != 0) {
            snprintf(err, errlen, "cannot write %s: %s", s[i].path, strerror(errno));
            rc = -1;
        }
        if (rc == 0) {
            cr_pending_done(s[i].tmp);
            free(s[i].tmp);
            s[i].tmp = NULL;
        } else {
            cr_staged_discard(&s[i]);
        }
    }
    cr_pending_release_signals(&old);
    return rc;
}

int cr_write_together(const cr_file_out *files, size_t n, char *err, size_t errlen)
{
    cr_staged s[8];
    if (n > sizeof s / sizeof s[0]) {
        snprintf(err, errlen, "%zu files to write together: 8 at most", n);
        return -1;
    }
    for (size_t i = 0; i < n; ++i)
        if (cr_write_staged(&s[i], files[i].path, files[i].writer, files[i].ctx, err, errlen) != 0) {
            while (i-- > 0)
                cr_staged_discard(&s[i]);
            return -1;
        }
    return cr_staged_commit(s, n, err, errlen);
}

int cr_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen)
{
    return cr_write_together(&(cr_file_out){path, writer, ctx}, 1, err, errlen);
}

/* What a walk over a path's prefixes reports and finds. */
typedef struct {
    char *err;
    size_t errlen;
    size_t first_missing; /* cr_mkdirs_check: the length of the first prefix not there */
} prefix_walk;

/* Calls visit on each prefix of path that ends a component ("a", "a/b",
 * "a/b/c" of "a/b/c"), in order, until it returns false; false then, true
 * after the last one. */
static bool each_prefix(const char *path, bool (*visit)(const char *prefix, size_t len, prefix_walk *w),
                        prefix_walk *w)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf) {
        snprintf(w->err, w->errlen, "path too long: %s", path);
        return false;
    }
    strcpy(buf, path);
    for (char *p = buf + 1;; ++p) {
        bool end = *p == '\0';
        if (*p == '/' || end) {
            *p = '\0';
            if (!visit(buf, (size_t)(p - buf), w))
                return false;
            if (end)
                return true;
            *p = '/';
        }
    }
}

static bool make_prefix(const char *prefix, size_t len, prefix_walk *w)
{
    (void)len;
    if (mkdir(prefix, 0777) != 0 && errno != EEXIST) {
        snprintf(w->err, w->errlen, "cannot create directory %s: %s", prefix, strerror(errno));
        return false;
    }
    struct stat st;
    if (stat(prefix, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(w->err, w->errlen, "%s exists and is not a directory", prefix);
        return false;
    }
    return true;
}

int cr_mkdirs(const char *path, char *err, size_t errlen)
{
    prefix_walk w = {err, errlen, 0};
    return each_prefix(path, make_prefix, &w) ? 0 : -1;
}

static bool find_missing(const char *prefix, size_t len, prefix_walk *w)
{
    struct stat st;
    if (stat(prefix, &st) == 0)
        return true;
    w->first_missing = len;
    return false;
}

int cr_mkdirs_check(const char *path, char *err, size_t errlen)
{
    prefix_walk w = {err, errlen, SIZE_MAX};
    if (each_prefix(path, find_missing, &w) || w.first_missing == SIZE_MAX) /* all there, or too long */
        return cr_mkdirs(path, err, errlen);
    int rc = cr_mkdirs(path, err, errlen);
    /* What it made, the deepest first: every prefix from the first missing. */
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    while (strlen(buf) >= w.first_missing) {
        rmdir(buf);
        char *slash = strrchr(buf, '/');
        if (slash == NULL)
            break;
        *slash = '\0';
    }
    return rc;
}
