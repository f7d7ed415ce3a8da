/* Which CUDA driver and runtime there are, and the one-line errors that
 * depend on them: whether there is a device to run on, and whether the
 * driver is too old for this build. C linkage, so host C code may call them. */
#ifndef CR_CUDA_DRIVER_H
#define CR_CUDA_DRIVER_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "cr.h"

#include <stdio.h>

/* The runtime calls through which the device layer finds the driver and
 * the device, reads what the device is, and allocates what could
 * oversubscribe it. Each is the runtime's own unless a test has put in its
 * own to play a driver or a device this machine does not have; a NULL
 * member keeps the runtime's, and a NULL probe puts back all of them. */
typedef struct {
    cudaError_t (*get_device_count)(int *n);
    cudaError_t (*driver_get_version)(int *version);
    cudaError_t (*runtime_get_version)(int *version);
    cudaError_t (*set_device)(int dev);
    cudaError_t (*get_device_properties)(struct cudaDeviceProp *p, int dev);
    cudaError_t (*device_get_attribute)(int *value, enum cudaDeviceAttr a, int dev);
    cudaError_t (*mem_get_info)(size_t *free_bytes, size_t *total_bytes);
    cudaError_t (*malloc_managed)(void **p, size_t bytes, unsigned flags);
    cudaError_t (*func_set_attribute)(const void *kernel, enum cudaFuncAttribute a, int value);
} cr_cuda_probe;
void cr_cuda_set_probe(const cr_cuda_probe *p);
/* The calls in use: the runtime's, or those a test put in. */
const cr_cuda_probe *cr_cuda_calls(void);

/* Counts the devices. CR_NO_DEVICE when there is nothing to run on (no
 * driver, or a driver that sees no device), CR_ERR when a driver is there
 * but cannot serve this build (cr_cuda_driver_too_old) or fails otherwise;
 * err says which in one line. */
cr_status cr_cuda_count_devices(int *n, char *err, size_t errlen);

/* The driver's and the runtime's CUDA versions (1000 * major + 10 * minor). */
cr_status cr_cuda_versions(int *driver, int *runtime, char *err, size_t errlen);

/* Whether e says that the installed driver is older than this build needs
 * (cudaErrorInsufficientDriver, cudaErrorCallRequiresNewerDriver with a
 * driver present, or cudaErrorUnsupportedPtxVersion: a JIT of PTX newer than
 * the driver). If so, err becomes "what: " and one line naming the driver's
 * CUDA version, the one this build needs and what to install. */
bool cr_cuda_driver_too_old(cudaError_t e, const char *what, char *err, size_t errlen);

/* The one line for a failed runtime call: "what: <the runtime's words>", or,
 * where the error means the driver is too old for this build, what
 * cr_cuda_driver_too_old says. Always CR_ERR. */
cr_status cr_cuda_error(cudaError_t e, const char *what, char *err, size_t errlen);

#define CR_CUDA_CHECK(call, what, err, errlen)                                                     \
    do {                                                                                           \
        cudaError_t cr_rc_ = (call);                                                               \
        if (cr_rc_ != cudaSuccess)                                                                 \
            return cr_cuda_error(cr_rc_, (what), (err), (errlen));                                 \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
