#define _GNU_SOURCE
#include "shared/bounded_file.h"

#include "error.h"
#include "regular_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cr_too_large(const char *path, size_t max, const char *what, char *err, size_t errlen)
{
    return cr_errf(err, errlen, "%s: more than %s may hold (%zu MiB)", path, what, max >> 20);
}

/* The bytes of fd, NUL-terminated, at most max of them. */
static char *read_all(int fd, size_t cap, size_t max, const char *what, const char *path, size_t *len, char *err,
                      size_t errlen)
{
    char *text = malloc(cap);
    size_t n = 0;
    for (;;) {
        if (text == NULL) {
            cr_errf(err, errlen, "out of memory reading %s", path);
            return NULL;
        }
        if (n == cap - 1) {
            char *b = realloc(text, cap *= 2);
            if (b == NULL)
                free(text);
            text = b;
            continue;
        }
        ssize_t got = read(fd, text + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || (n += (size_t)got) > max) {
            if (got < 0)
                cr_errf(err, errlen, "%s: %s", path, strerror(errno));
            else if (got > 0)
                cr_too_large(path, max, what, err, errlen);
            else
                break;
            free(text);
            return NULL;
        }
    }
    text[n] = '\0';
    *len = n;
    return text;
}

/* cr_open_regular, with what fstat said of the file in *st. */
static int open_regular(const char *path, struct stat *st, char *err, size_t errlen)
{
    int fd = cr_open_regular_file(path, st);
    if (fd == -1)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno));
    if (fd < 0)
        return cr_errf(err, errlen, "%s: not a regular file", path);
    return fd;
}

int cr_open_regular(const char *path, char *err, size_t errlen)
{
    struct stat st;
    return open_regular(path, &st, err, errlen);
}

char *cr_read_bounded(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    int fd = open_regular(path, &st, err, errlen);
    if (fd < 0)
        return NULL;
    char *text = NULL;
    if ((uintmax_t)st.st_size > (uintmax_t)max)
        cr_too_large(path, max, what, err, errlen);
    else
        text = read_all(fd, (size_t)st.st_size + 4096, max, what, path, len, err, errlen);
    close(fd);
    return text;
}
