#define _GNU_SOURCE
#include "out_lock.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* The pid the holder wrote, 0 when there is none yet (it may be between
 * taking the lock and writing it, or be flock(1) itself). */
static long holder_pid(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    char *end;
    long pid = strtol(buf, &end, 10);
    return pid > 0 && (*end == '\n' || *end == '\0') ? pid : 0;
}

static void write_pid(int fd)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    /* The pid only names the holder in another run's refusal: a file that
     * cannot take it leaves the lock as good. */
    if (ftruncate(fd, 0) != 0)
        return;
    ssize_t written = pwrite(fd, buf, (size_t)n, 0);
    (void)written;
}

cr_lock_result cr_out_lock(const char *dir, int *fd, char *err, size_t errlen)
{
    *fd = -1;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, CR_OUT_LOCK_NAME);
    /* Never through a link: the pid written into it would land wherever
     * the link points. */
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0666);
    bool writable = f >= 0;
    /* Another user's lock file: a read-only descriptor locks as well. */
    if (f < 0 && errno == EACCES)
        f = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
    if (f < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path,
                 errno == ELOOP ? "a symbolic link, where the lock must be a file of its own" : strerror(errno));
        return CR_LOCK_ERROR;
    }
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        long pid = e == EWOULDBLOCK ? holder_pid(f) : 0;
        close(f);
        if (e != EWOULDBLOCK) {
            snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
            return CR_LOCK_ERROR;
        }
        if (pid > 0)
            snprintf(err, errlen, "%s is being written by another run (pid %ld)", dir, pid);
        else
            snprintf(err, errlen, "%s is being written by another run", dir);
        return CR_LOCK_BUSY;
    }
    if (writable)
        write_pid(f);
    *fd = f;
    return CR_LOCK_TAKEN;
}

void cr_out_unlock(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}
