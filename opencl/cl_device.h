/* OpenCL discovery, selection and the small helpers every OpenCL backend
 * shares: one-line errors, program builds with their log, event timing. */
#ifndef CR_CL_DEVICE_H
#define CR_CL_DEVICE_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "cr.h"
#include "device.h"
#include "timer.h"

#include <stdio.h>

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in-order, profiling enabled */
    cr_device_info info;
} cr_cl;

const char *cr_cl_strerror(cl_int code);

/* Prints "P:D  name  (platform, type, CUs, memory)" for every device.
 * CR_NO_DEVICE when there is no platform or device. */
cr_status cr_cl_list(FILE *f);

/* Opens the device named by spec: NULL (first device of the first platform
 * that has one), "D" (index over all devices in listing order), "P:D", or a
 * case-insensitive name substring. Creates context and profiling queue.
 * CR_NO_DEVICE when there is no device at all, CR_ERR when spec names none. */
cr_status cr_cl_open(const char *spec, cr_cl *cl, char *err, size_t errlen);
void cr_cl_close(cr_cl *cl);

/* Builds the concatenation of count sources with options; on failure err
 * holds the first error line of the build log. */
cr_status cr_cl_build(cr_cl *cl, const char *const *sources, unsigned count, const char *options, cl_program *out,
                      char *err, size_t errlen);

/* Waits for ev and fills the event part of t (start/end on the device clock).
 * Missing profiling info leaves has_event false rather than failing. */
void cr_cl_event_times(cl_event ev, cr_timing *t);

/* Kernels lay elements out per layout.cl: contiguous slices per work-item on
 * CPU devices, interleaved on GPUs. */
static inline int cr_cl_contiguous(const cr_cl *cl) { return cl->info.is_cpu; }

/* The launch that covers n elements with every compute unit busy: on a CPU
 * a few slices per core (local size 1), on a GPU up to 2048 work-items per
 * compute unit in groups of 256. */
void cr_cl_default_geometry(const cr_cl *cl, uint64_t n, uint64_t *work_items, uint64_t *work_group);

/* A launch that fills the device for benchmarks that choose their own work
 * per work-item: on a CPU groups of 16 (one vectorised loop), four per
 * core; on a GPU groups of 256 and 2048 work-items per compute unit,
 * gpu_waves times over. work_items is a multiple of work_group. */
void cr_cl_fill_geometry(const cr_cl *cl, unsigned gpu_waves, uint64_t *work_items, uint64_t *work_group);

#define CR_CL_CHECK(call, what, err, errlen)                                                       \
    do {                                                                                           \
        cl_int cr_rc_ = (call);                                                                    \
        if (cr_rc_ != CL_SUCCESS) {                                                                \
            snprintf((err), (errlen), "%s: %s", (what), cr_cl_strerror(cr_rc_));                   \
            return CR_ERR;                                                                         \
        }                                                                                          \
    } while (0)

#endif
