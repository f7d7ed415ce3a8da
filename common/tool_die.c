#include "tool_die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
