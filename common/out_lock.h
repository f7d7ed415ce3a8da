/* The lock a run holds on its output directory for its whole life, so that
 * two runs never write into one directory at once: one's rows would be lost
 * and one's metadata could sit beside the other's CSV. An exclusive
 * flock(2) on a file in the directory, taken without waiting; the file
 * keeps the holder's pid, so that a refused run can name it. The file stays
 * after the run (removing it would let a third run lock a new file while a
 * second still holds the old one); its name starts with a dot, so readers
 * of a run's directory pass over it. */
#ifndef CR_OUT_LOCK_H
#define CR_OUT_LOCK_H

#include <stddef.h>

#define CR_OUT_LOCK_NAME ".crossroof.lock"

typedef enum {
    CR_LOCK_TAKEN = 0, /* *fd holds the lock until it is closed */
    CR_LOCK_BUSY = 1,  /* another run holds it; err names the directory and, where known, its pid */
    CR_LOCK_ERROR = 2, /* the lock file cannot be opened or locked; err says why */
} cr_lock_result;

/* Takes the lock on directory dir (which exists), the file opened
 * close-on-exec so that no child keeps it. */
cr_lock_result cr_out_lock(const char *dir, int *fd, char *err, size_t errlen);

/* Releases it (closes fd) if held; *fd becomes -1. */
void cr_out_unlock(int *fd);

#endif
