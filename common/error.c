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

void cr_die(const char *program, int status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One line: a file name or a parser's message may hold a newline. */
    for (char *p = msg; *p; ++p)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    fflush(stdout);
    fprintf(stderr, "%s: error: %s\n", program, msg);
    exit(status);
}
