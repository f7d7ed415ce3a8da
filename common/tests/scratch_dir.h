/* A fresh directory under /tmp for a test program's files, and its removal
 * with everything in it. The name is the test's own (mkdtemp's), so the
 * one command that removes it is safe to build. Include after the headers
 * that declare mkdtemp (a POSIX feature macro, as every test defines). */
#ifndef CR_SCRATCH_DIR_H
#define CR_SCRATCH_DIR_H

#include <stdio.h>
#include <stdlib.h>

/* dir = /tmp/crossroof-WHAT-XXXXXX, made; 0, or -1 when it cannot be. */
static inline int cr_scratch_make(char *dir, size_t len, const char *what)
{
    snprintf(dir, len, "/tmp/crossroof-%s-XXXXXX", what);
    return mkdtemp(dir) ? 0 : -1;
}

static inline int cr_scratch_remove(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The group fixtures, scratch_setup and scratch_teardown, of a test
 * program whose files go in dir (a char array): made before its tests,
 * removed after. */
#define CR_SCRATCH_FIXTURES(dir, what)                                                                                 \
    static int scratch_setup(void **state)                                                                             \
    {                                                                                                                  \
        (void)state;                                                                                                   \
        return cr_scratch_make(dir, sizeof dir, what);                                                                 \
    }                                                                                                                  \
    static int scratch_teardown(void **state)                                                                          \
    {                                                                                                                  \
        (void)state;                                                                                                   \
        return cr_scratch_remove(dir);                                                                                 \
    }

#endif
