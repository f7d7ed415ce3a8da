/* Running a piece of a test in a child process: what may block (a reader
 * before a FIFO) is ended by an alarm instead of hanging the test, and
 * what changes the process (a user, a memory limit) stays in the child. */
#ifndef CR_TESTS_IN_CHILD_H
#define CR_TESTS_IN_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs body(ctx, out, len) in a child that an alarm ends after alarm_s
 * seconds; the len bytes it leaves in out come back in out. Returns its
 * exit status (body's return), 128 + the signal that ended it, or -1 where
 * no child ran or out did not come back whole. */
static inline int run_in_child(int (*body)(void *ctx, void *out, size_t len), void *ctx, unsigned alarm_s,
                               void *out, size_t len)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(alarm_s);
        memset(out, 0, len);
        int rc = body(ctx, out, len);
        _exit(write(fds[1], out, len) == (ssize_t)len ? rc : 125);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t n;
    while (pid > 0 && got < len && (n = read(fds[0], (char *)out + got, len - got)) > 0)
        got += (size_t)n;
    close(fds[0]);
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return got == len ? WEXITSTATUS(status) : -1;
}

#endif
