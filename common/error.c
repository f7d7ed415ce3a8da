#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line a terminal shows as it is: a file name, a device name or an
 * argument may hold a newline, or an escape sequence that would rewrite the
 * terminal; a line break becomes a space, any other control character '?'. */
static void one_line(char *s)
{
    for (; *s; ++s)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
        else if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

int cr_errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    if (errlen > 0)
        one_line(err);
    return -1;
}

void cr_vsay_error(const char *program, const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    one_line(msg);
    fflush(stdout);
    fprintf(stderr, "%s: error: %s\n", program, msg);
}

void cr_say_error(const char *program, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cr_vsay_error(program, fmt, ap);
    va_end(ap);
}

int cr_check_output(const char *program, int status)
{
    int flushed = fflush(stdout), why = errno;
    int failed = status != 0 ? status : 1;
    if (flushed != 0 || ferror(stdout)) {
        /* An earlier write's error has gone with its errno. */
        cr_say_error(program, "cannot write standard output: %s", flushed != 0 ? strerror(why) : "a write failed");
        status = failed;
    }
    if (fflush(stderr) != 0 || ferror(stderr))
        status = failed;
    return status;
}

void cr_die(const char *program, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cr_vsay_error(program, fmt, ap);
    va_end(ap);
    exit(status);
}
