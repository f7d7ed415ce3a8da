/* CUDA discovery, selection and the small helpers every CUDA backend shares:
 * one-line errors and event timing. C linkage, so host C code may call them. */
#ifndef CR_CUDA_DEVICE_H
#define CR_CUDA_DEVICE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "cr.h"
#include "device.h"
#include "timer.h"

#include <stdio.h>

/* Prints "index  name  [SMs; memory; PCI id]" for every device. CR_NO_DEVICE
 * (reason on stderr, nothing on f) when there is none. */
cr_status cr_cuda_list(FILE *f);

/* Opens the device named by spec: NULL (device 0), a decimal index or a
 * case-insensitive name substring; makes it current and fills info.
 * CR_NO_DEVICE when there is no device at all, CR_NO_MATCH when spec matches
 * none of those there are. */
cr_status cr_cuda_open(const char *spec, int *dev, cr_device_info *info, char *err, size_t errlen);

/* Brackets device work with events and the host clock. */
typedef struct {
    cudaEvent_t start, stop;
    uint64_t host_start;
} cr_cuda_timer;

cr_status cr_cuda_timer_create(cr_cuda_timer *t, char *err, size_t errlen);
void cr_cuda_timer_destroy(cr_cuda_timer *t);
cr_status cr_cuda_timer_start(cr_cuda_timer *t, cudaStream_t s, char *err, size_t errlen);
/* Records the end, waits for it and fills out (events relative to start). */
cr_status cr_cuda_timer_stop(cr_cuda_timer *t, cudaStream_t s, cr_timing *out, char *err, size_t errlen);

/* What most CUDA backends hold once a device is open: the device, its
 * geometry and a timer. */
typedef struct {
    int dev;
    unsigned sms;            /* streaming multiprocessors */
    uint64_t threads_per_sm; /* resident threads per SM */
    uint64_t max_group;      /* threads per block */
    cr_cuda_timer timer;
    bool timer_made;
} cr_cuda;

/* cr_cuda_open, then the geometry from info and the timer. On failure
 * nothing is left to close. */
cr_status cr_cuda_open_timed(const char *spec, cr_cuda *c, cr_device_info *info, char *err, size_t errlen);
void cr_cuda_close_timed(cr_cuda *c);

/* Checks a 1-D launch: work_items a whole number of groups of 1..max_group
 * threads, and at most INT_MAX groups. */
cr_status cr_cuda_check_geometry(uint64_t work_items, uint64_t work_group, uint64_t max_group, char *err,
                                 size_t errlen);

/* Copies the first n of the have elements (esize bytes each) of a device
 * output back to the host; asking for more than there are is an error
 * naming what they are ("chains", "work-items"). */
cr_status cr_cuda_download(void *dst, const void *src, uint64_t n, uint64_t have, size_t esize, const char *what,
                           char *err, size_t errlen);

/* Frees a device (cudaFree) or pinned host (cudaFreeHost) allocation if
 * there is one and clears the pointer. */
void cr_cuda_free(void **p);
void cr_cuda_free_host(void **p);

#define CR_CUDA_CHECK(call, what, err, errlen)                                                     \
    do {                                                                                           \
        cudaError_t cr_rc_ = (call);                                                               \
        if (cr_rc_ != cudaSuccess) {                                                               \
            snprintf((err), (errlen), "%s: %s", (what), cudaGetErrorString(cr_rc_));               \
            return CR_ERR;                                                                         \
        }                                                                                          \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
