#define _GNU_SOURCE
#include "shared/bounded_file.h"

#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned char *refuse(int fd, unsigned char *buf, char *err, size_t errlen, const char *path, const char *why)
{
    cr_errf(err, errlen, "%s: %s", path, why);
    free(buf);
    if (fd >= 0)
        close(fd);
    return NULL;
}

unsigned char *cr_read_bounded(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    /* Non-blocking: opening a FIFO for reading must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return refuse(-1, NULL, err, errlen, path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0)
        return refuse(fd, NULL, err, errlen, path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return refuse(fd, NULL, err, errlen, path, "not a regular file");
    if ((uintmax_t)st.st_size > (uintmax_t)max) {
        char why[96];
        snprintf(why, sizeof why, "larger than %zu bytes, the most read of such a file", max);
        return refuse(fd, NULL, err, errlen, path, why);
    }
    size_t size = (size_t)st.st_size;
    unsigned char *buf = malloc(size + 1);
    if (buf == NULL)
        return refuse(fd, NULL, err, errlen, path, "out of memory");
    size_t n = 0;
    while (n < size) {
        ssize_t got = read(fd, buf + n, size - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return refuse(fd, buf, err, errlen, path, strerror(errno));
        if (got == 0)
            return refuse(fd, buf, err, errlen, path, "shorter than its size: it changed while read");
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
}
