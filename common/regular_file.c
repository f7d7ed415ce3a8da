#define _GNU_SOURCE
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int cr_open_regular_file(const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int flags = 0;
    if (fstat(fd, st) != 0 || (S_ISREG(st->st_mode) && ((flags = fcntl(fd, F_GETFL)) < 0 ||
                                                       fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0))) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        return CR_NOT_REGULAR;
    }
    return fd;
}

const char *cr_file_kind(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "a directory";
    if (S_ISFIFO(st->st_mode))
        return "a FIFO";
    if (S_ISSOCK(st->st_mode))
        return "a socket";
    if (S_ISCHR(st->st_mode))
        return "a character device";
    if (S_ISBLK(st->st_mode))
        return "a block device";
    return "no regular file";
}
