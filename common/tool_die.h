/* How the host tools (critical-points, xgraph, report) stop on an error:
 * one line "<program>: error: ..." on stderr, whatever the message holds,
 * after what is already on stdout, and the given exit status. */
#ifndef CR_TOOL_DIE_H
#define CR_TOOL_DIE_H

void cr_die(const char *program, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));

#endif
