#define _POSIX_C_SOURCE 200809L
#include "csv.h"

#include <errno.h>
#include <math.h>
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

void cr_csv_double(FILE *f, double v)
{
    if (isnan(v))
        return;
    fprintf(f, "%.9g", v);
}

int cr_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (tmp == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(tmp, len + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a file beside %s: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (f == NULL) {
        snprintf(err, errlen, "cannot open %s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
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
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(saved));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

int cr_mkdirs(const char *path, char *err, size_t errlen)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf) {
        snprintf(err, errlen, "path too long: %s", path);
        return -1;
    }
    strcpy(buf, path);
    for (char *p = buf + 1;; ++p) {
        bool end = *p == '\0';
        if (*p == '/' || end) {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "cannot create directory %s: %s", buf, strerror(errno));
                return -1;
            }
            struct stat st;
            if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
                snprintf(err, errlen, "%s exists and is not a directory", buf);
                return -1;
            }
            if (end)
                break;
            *p = '/';
        }
    }
    return 0;
}
