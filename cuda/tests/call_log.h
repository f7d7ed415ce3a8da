/* The log a test's fake CUDA runtime writes of the calls it receives, one
 * short word each, so that a test compares the order of calls as one
 * string. */
#ifndef CR_CUDA_TESTS_CALL_LOG_H
#define CR_CUDA_TESTS_CALL_LOG_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to the log of size bytes; what does not fit is cut, and shows
 * as a mismatch in the test's comparison. */
__attribute__((format(printf, 3, 4))) static inline void call_log_append(char *log, size_t size, const char *fmt, ...)
{
    size_t used = strlen(log);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(log + used, size - used, fmt, ap);
    va_end(ap);
}

#endif
