/* Opening a file that is read, not trusted: a regular file only. A FIFO
 * where a counter or a table should be would block the reader until a
 * writer came, a device could be endless. */
#ifndef CR_REGULAR_FILE_H
#define CR_REGULAR_FILE_H

#include <sys/stat.h>

/* What cr_open_regular_file returns for a file that is there but is no
 * regular file (st then says what it is). */
#define CR_NOT_REGULAR (-2)

/* A descriptor of path open for reading (blocking, close-on-exec), where it
 * is a regular file, with what fstat says of it in st; -1 (errno says why)
 * where it cannot be opened, CR_NOT_REGULAR where it is something else. The
 * open itself does not block: a FIFO waits for no writer to be refused. */
int cr_open_regular_file(const char *path, struct stat *st);

/* What st is, for a message: "a directory", "a FIFO", "a socket", "a
 * character device", "a block device"; "no regular file" for anything else. */
const char *cr_file_kind(const struct stat *st);

#endif
