/* A trial in a child process: this program run again with --check-options
 * and an environment variable that asks for one launch of what it would
 * run. Where a launch can take the whole process down (a CPU runtime whose
 * worker threads run out of stack: no error code, a SIGSEGV), the parent
 * learns it from the child's end and refuses in one line instead. */
#ifndef CR_TRIAL_H
#define CR_TRIAL_H

#include <stdbool.h>
#include <stddef.h>

/* Whether this process is such a child (env_name is set to "1"). */
bool cr_trial_is_child(const char *env_name);

/* Runs argv[0]'s executable (/proc/self/exe) with argv[1..argc-1], after
 * --check-options where add_check (not when argv has it already), and
 * env_name=1; its output is kept from this one's. 0 when
 * it ends with status 0; else -1 and why ("died of SIGSEGV", "ended with status 1: <its last error line>"). */
int cr_trial_in_child(int argc, char **argv, bool add_check, const char *env_name, char *why, size_t len);

#endif
