/* Files a stopped program must not leave behind: a result under its
 * temporary name, a drawing's script and log. SIGTERM, SIGINT or SIGHUP
 * removes them, then ends the program with that signal's status. */
#ifndef CR_PENDING_H
#define CR_PENDING_H

#include <signal.h>
#include <sys/types.h>

/* mkstemp(3) of template ("...XXXXXX", rewritten in place), pending from
 * before the file exists; the descriptor, or -1 with errno. */
int cr_pending_mkstemp(char *template);

/* An existing file, pending until cr_pending_done(path). */
void cr_pending_add(const char *path);

/* path is no longer pending (every one: NULL). */
void cr_pending_done(const char *path);

/* Holds those signals off in this thread (the previous mask into old),
 * for steps that must not be parted (renaming files that go together);
 * release restores old, and a signal that came meanwhile then acts. */
void cr_pending_hold_signals(sigset_t *old);
void cr_pending_release_signals(const sigset_t *old);

/* A child that writes the pending files (gnuplot): stopped (SIGKILL) and
 * waited for before they are removed, so that it cannot write one again
 * after. A signal to this program alone would not reach it. 0: none. */
void cr_pending_child(pid_t pid);

#endif
