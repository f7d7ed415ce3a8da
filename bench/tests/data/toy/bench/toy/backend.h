/* What toy's design asks of a backend: a buffer of n 32-bit words, one
 * kernel that sets word i to 3i + 1, and the words read back. */
#ifndef CR_TOY_BACKEND_H
#define CR_TOY_BACKEND_H

#include "bench_main.h"
#include "timer.h"

#include <stdint.h>

typedef struct {
    cr_backend_base base;
    cr_status (*prepare)(uint64_t n, char *err, size_t errlen);
    cr_status (*fill)(cr_timing *t, char *err, size_t errlen);
    cr_status (*download)(uint32_t *words, char *err, size_t errlen);
} toy_backend;

int toy_main(int argc, char **argv, const toy_backend *backend);

#endif
