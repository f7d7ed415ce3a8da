/* Types and status codes shared by every crossroof executable. */
#ifndef CR_H
#define CR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CR_VERSION "0.1.0"

/* Process exit codes. 77 is the Automake convention for "skipped", which
 * run_all.sh and the test scripts recognise. */
enum {
    CR_EXIT_OK = 0,
    CR_EXIT_FAILED = 1,    /* a run failed: verification, runtime API error */
    CR_EXIT_USAGE = 2,     /* bad command line */
    CR_EXIT_SKIPPED = 77,  /* no usable device */
};

/* Status of a backend call: distinguishes "there is nothing to run on" from
 * a genuine error so that the caller can exit 77 rather than 1. */
typedef enum {
    CR_OK = 0,
    CR_ERR = 1,
    CR_NO_DEVICE = 2,
    CR_UNSUPPORTED = 3,
    CR_NO_MATCH = 4, /* devices exist, but --device names none of them: bad usage */
} cr_status;

typedef enum { CR_FLOAT = 0, CR_DOUBLE = 1, CR_NDTYPES } cr_dtype;

static inline size_t cr_dtype_size(cr_dtype t) { return t == CR_FLOAT ? 4u : 8u; }
static inline const char *cr_dtype_name(cr_dtype t) { return t == CR_FLOAT ? "float" : "double"; }

/* Error text buffer size used throughout: one line, never truncated silently
 * in practice because messages are short. */
#define CR_ERRLEN 256

#endif
