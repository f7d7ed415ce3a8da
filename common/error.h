/* The two ways an error leaves a function or a program: as one line of text
 * in the caller's buffer, or, for the host tools (critical-points, xgraph,
 * report), as one line "<program>: error: ..." on stderr and an exit. */
#ifndef CR_ERROR_H
#define CR_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* Writes the message into err as one line (newlines in it, from a value it
 * quotes, become spaces, other control characters '?') and returns -1, so that a parser can say
 * `return cr_errf(err, errlen, "...", ...);`. */
int cr_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prints "<program>: error: <message>" on stderr as one line (newlines in
 * the message become spaces, other control characters '?') after what is
 * already on stdout. */
void cr_say_error(const char *program, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cr_vsay_error(const char *program, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The exit status of a program about to return status, once what it wrote
 * is out: a write to stdout that failed (a full disk, a closed descriptor)
 * is said in one line and makes a status of 0 a failure (1); one to stderr
 * can say nothing, and does the same silently. */
int cr_check_output(const char *program, int status);

/* cr_say_error, then exits with status. */
void cr_die(const char *program, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));

#endif
