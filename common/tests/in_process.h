/* Running a benchmark's design inside a test program, on a fake backend:
 * its readable table goes to /dev/null between in_process_begin() and
 * in_process_end(), its stderr to a file where one is named, and the
 * executable's re-exec for OpenMP's wait policy (omp_env.h), which would
 * start the test program over, is turned off. */
#ifndef CR_TESTS_IN_PROCESS_H
#define CR_TESTS_IN_PROCESS_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    int saved[2]; /* what stdout and stderr were; -1 where left alone */
} in_process;

/* Points fd at path (truncated) until in_process_end; the descriptor it
 * was, or -1 when it could not. */
static inline int in_process_redirect(int fd, const char *path)
{
    int saved = dup(fd), to = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved < 0 || to < 0 || dup2(to, fd) < 0) {
        if (saved >= 0)
            close(saved);
        saved = -1;
    }
    if (to >= 0)
        close(to);
    return saved;
}

/* stderr_path: where the design's stderr goes, NULL to leave it. */
static inline in_process in_process_begin(const char *stderr_path)
{
    setenv("CROSSROOF_OMP_SET", "1", 1);
    fflush(stdout);
    fflush(stderr);
    in_process p = {{in_process_redirect(STDOUT_FILENO, "/dev/null"),
                     stderr_path ? in_process_redirect(STDERR_FILENO, stderr_path) : -1}};
    return p;
}

static inline void in_process_end(in_process p)
{
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < 2; ++i)
        if (p.saved[i] >= 0) {
            dup2(p.saved[i], i == 0 ? STDOUT_FILENO : STDERR_FILENO);
            close(p.saved[i]);
        }
}

#endif
