/* The one way a host tool reads a whole file it did not write: a regular
 * file only (not a FIFO, a device, a directory: a symlink to /dev/zero or a
 * pipe neither grows without bound nor blocks), at most a given size. */
#ifndef CR_SHARED_BOUNDED_FILE_H
#define CR_SHARED_BOUNDED_FILE_H

#include <stddef.h>

/* The whole of path (caller frees; *len its bytes), or NULL with "PATH:
 * why" in err: not a regular file, larger than max bytes, unreadable. */
unsigned char *cr_read_bounded(const char *path, size_t max, size_t *len, char *err, size_t errlen);

#endif
