#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int cr_errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

void cr_vsay_error(const char *program, const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* One line: a file name, a device name or an argument may hold a newline. */
    for (char *p = msg; *p; ++p)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
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

void cr_die(const char *program, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cr_vsay_error(program, fmt, ap);
    va_end(ap);
    exit(status);
}
