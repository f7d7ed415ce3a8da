/* What the CUDA and the OpenCL cache backend do alike around the API
 * calls: opening on the walker's device, and checking a store pass or a
 * read against the prepared chain before the device is asked. Part of the
 * backend contract (backend.h). */
#ifndef CR_CACHE_BACKEND_COMMON_H
#define CR_CACHE_BACKEND_COMMON_H

#include "cr.h"
#include "device.h"
#include "latency/backend.h"

#include <stddef.h>
#include <stdint.h>

/* One store pass (backend.h says what it does). */
typedef struct {
    uint64_t first, count, stride_words, passes, value;
} cc_store_pass;

/* Zeroes the backend's state (size bytes at state), opens the walker's
 * device (chase), then adds what the backend needs on it (add); where add
 * fails, close (the backend's own, which closes the walker too) undoes
 * both and the result is CR_ERR. A backend opened twice starts from
 * nothing. */
cr_status cc_open_on_chase(const lt_backend *chase, void *state, size_t size,
                           cr_status (*add)(char *err, size_t errlen), void (*close)(void), const char *spec,
                           cr_device_info *info, char *err, size_t errlen);

/* CR_OK where every store of pass lands inside a chain of `words` words,
 * else CR_ERR saying so: the device is never asked to write past it. */
cr_status cc_check_store_pass(const cc_store_pass *pass, uint64_t words, char *err, size_t errlen);

/* CR_OK where words first .. first + count - 1 lie inside a chain of
 * `words` words, else CR_ERR saying so. */
cr_status cc_check_read(uint64_t first, uint64_t count, uint64_t words, char *err, size_t errlen);

#endif
