/* CUDA discovery, selection and the small helpers every CUDA backend shares.
 * It brings the one-line errors (cuda_driver.h) and the event timer
 * (cuda_timer.h) with it. C linkage, so host C code may call them. */
#ifndef CR_CUDA_DEVICE_H
#define CR_CUDA_DEVICE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "cr.h"
#include "cuda_driver.h"
#include "cuda_timer.h"
#include "device.h"

#include <stdio.h>

/* Prints "index  name  [SMs; memory; PCI id]" for every device. CR_NO_DEVICE
 * when there is none, CR_ERR when the driver cannot serve this build;
 * either way nothing on f and the reason as the executable's one error line
 * (cr_list_failed). */
cr_status cr_cuda_list(FILE *f);

/* Opens the device named by spec: NULL (device 0), a decimal index or a
 * case-insensitive name substring; makes it current and fills info.
 * CR_NO_DEVICE when there is nothing to run on (no driver, or a driver that
 * sees no device), CR_ERR when a driver is there but cannot serve this build
 * (too old: see cr_cuda_driver_too_old), CR_NO_MATCH when spec matches none
 * of the devices there are. */
cr_status cr_cuda_open(const char *spec, int *dev, cr_device_info *info, char *err, size_t errlen);

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

/* The block of a launch of exactly work_items (an f(k) sweep's): the
 * largest that divides work_items and still leaves at least one block per
 * SM, so that at multiples of the SM count every SM gets the same share. */
uint64_t cr_cuda_work_group_for(const cr_cuda *c, uint64_t work_items);

/* Copies the first n of the have elements (esize bytes each) of a device
 * output back to the host; asking for more than there are is an error
 * naming what they are ("chains", "work-items"). */
cr_status cr_cuda_download(void *dst, const void *src, uint64_t n, uint64_t have, size_t esize, const char *what,
                           char *err, size_t errlen);

/* Whether `bytes` of memory whose pages the device may bring into its own
 * (managed memory; malloc'd memory it reaches through HMM or ATS) fit in
 * the device memory free at that moment (cudaMemGetInfo), beside the `held`
 * bytes of such memory the caller already has (pages are placed on first
 * touch, so those do not show as used yet): more than is free can hang the
 * GPU when the pages come over, not only the program. CR_ERR with one line
 * in err, "<what> of N refused: ...", unless oversubscribe asks for it
 * (--oversubscribe). */
cr_status cr_cuda_check_free(uint64_t bytes, uint64_t held, bool oversubscribe, const char *what, char *err,
                             size_t errlen);

/* Managed memory (cudaMallocManaged, attached globally), where
 * cr_cuda_check_free lets it be. */
cr_status cr_cuda_malloc_managed(void **p, uint64_t bytes, uint64_t held, bool oversubscribe, char *err,
                                 size_t errlen);

/* Gives the unified L1/shared array of the SMs that run kernel the largest
 * L1 share there is (cudaFuncAttributePreferredSharedMemoryCarveout =
 * cudaSharedmemCarveoutMaxL1): for the kernels that measure the caches and
 * use no shared memory, every one of them alike, so that each sees the
 * largest L1 the part has and none has the SM change its split (and lose
 * what L1 held) between another's launches. name names the kernel in the
 * one-line error. */
cr_status cr_cuda_prefer_l1(const void *kernel, const char *name, char *err, size_t errlen);

/* Frees a device (cudaFree) or pinned host (cudaFreeHost) allocation if
 * there is one and clears the pointer. */
void cr_cuda_free(void **p);
void cr_cuda_free_host(void **p);

#ifdef __cplusplus
}

/* cr_cuda_prefer_l1 on a kernel as the source names it (a template's
 * instance too), which is the name its error gives. */
#define CR_CUDA_PREFER_L1(kernel, err, errlen) \
    cr_cuda_prefer_l1(reinterpret_cast<const void *>(kernel), #kernel, err, errlen)

/* Defines a backend's table for the benchmark's C code to find:
 *     CR_CUDA_BACKEND(cc_backend, cache_cuda_backend) = {...};
 * A const at namespace scope has internal linkage in C++; declared in a
 * linkage specification it is extern, and keeps its C name. */
#define CR_CUDA_BACKEND(type, name) extern "C" const type name
#endif

#endif
