/* The one way a host tool reads a whole file it did not write: a regular
 * file only (not a FIFO, a device, a directory: a symlink to /dev/zero or a
 * pipe neither grows without bound nor blocks), at most a given size. */
#ifndef CR_SHARED_BOUNDED_FILE_H
#define CR_SHARED_BOUNDED_FILE_H

#include <stddef.h>

/* The whole of path, NUL-terminated (caller frees; *len its bytes), read
 * to its end whatever its size said (it may be growing); or NULL with
 * "PATH: why" in err: not a regular file, more than max bytes ("more than
 * <what> may hold (N MiB)"), unreadable. */
char *cr_read_bounded(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen);

/* A descriptor of path open for reading (blocking, close-on-exec), where it
 * is a regular file; or -1 with "PATH: why" in err ("not a regular file":
 * a FIFO is refused without waiting for a writer). */
int cr_open_regular(const char *path, char *err, size_t errlen);

/* The message for more than max bytes of what, into err; returns -1. */
int cr_too_large(const char *path, size_t max, const char *what, char *err, size_t errlen);

#endif
