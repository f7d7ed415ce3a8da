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
 * CR_NO_DEVICE when there is no device at all, CR_NO_MATCH when spec names
 * none of those there are, CR_ERR when the context or queue fails. */
cr_status cr_cl_open(const char *spec, cr_cl *cl, char *err, size_t errlen);
void cr_cl_close(cr_cl *cl);
/* A backend's whole state (state, size bytes, cl a member of it) zeroed
 * and its device opened into cl; and closed, then zeroed again: a backend
 * opened twice starts from nothing. */
cr_status cr_cl_open_state(const char *spec, void *state, size_t size, cr_cl *cl, char *err, size_t errlen);
void cr_cl_close_state(void *state, size_t size, cr_cl *cl);
/* cr_cl_open_state, then the backend's build (programs, kernels, buffers);
 * a build that fails closes the backend again (close) and gives CR_ERR. */
cr_status cr_cl_open_built(const char *spec, void *state, size_t size, cr_cl *cl,
                           cr_status (*build)(char *err, size_t errlen), void (*close)(void), char *err,
                           size_t errlen);

/* Builds the concatenation of count sources with options; on failure err
 * holds the first error line of the build log. */
cr_status cr_cl_build(cr_cl *cl, const char *const *sources, unsigned count, const char *options, cl_program *out,
                      char *err, size_t errlen);
/* cr_cl_build, then the program's kernel `name` into *kernel; a kernel
 * that cannot be made leaves the program in *program for the caller to
 * release. */
cr_status cr_cl_build_kernel(cr_cl *cl, const char *const *sources, unsigned count, const char *options,
                             cl_program *program, const char *name, cl_kernel *kernel, char *err, size_t errlen);

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

/* The work-group of a launch of exactly work_items (an f(k) sweep's): 1 on
 * a CPU (each work-item its own slice); on a GPU the largest size up to 256
 * that divides work_items and still gives every compute unit a group. */
uint64_t cr_cl_work_group_for(const cr_cl *cl, uint64_t work_items);

/* A launch that fills the device for benchmarks that choose their own work
 * per work-item: on a CPU groups of 16 (one vectorised loop), four per
 * core; on a GPU groups of 256 and 2048 work-items per compute unit,
 * gpu_waves times over. work_items is a multiple of work_group. */
void cr_cl_fill_geometry(const cr_cl *cl, unsigned gpu_waves, uint64_t *work_items, uint64_t *work_group);

/* One kernel argument: its size and a pointer to its value (NULL for local
 * memory of that size). */
typedef struct {
    size_t size;
    const void *value;
} cr_cl_arg;
#define CR_CL_ARG(v) ((cr_cl_arg){sizeof(v), &(v)})
#define CR_CL_LOCAL(bytes) ((cr_cl_arg){(bytes), NULL})

/* Sets arguments 0..count-1 of k; err names the kernel and the argument. */
cr_status cr_cl_set_args(cl_kernel k, const char *name, const cr_cl_arg *args, unsigned count, char *err,
                         size_t errlen);

/* Enqueues k over global work-items in groups of local (1-D), waits for the
 * queue, and fills t: the host clock around enqueue and wait, and the
 * kernel's profiling events. */
cr_status cr_cl_launch_timed(const cr_cl *cl, cl_kernel k, size_t global, size_t local, cr_timing *t, char *err,
                             size_t errlen);

/* The largest work-group k runs with on the device: the device's limit,
 * the kernel's own (CL_KERNEL_WORK_GROUP_SIZE: its registers, its
 * barriers), and, where it has local memory (CL_KERNEL_LOCAL_MEM_SIZE, and
 * local_per_item bytes each work-item of a group adds as an argument), what
 * the device's local memory holds. CR_OK, or CR_ERR with err. */
cr_status cr_cl_kernel_group_limit(const cr_cl *cl, cl_kernel k, uint64_t local_per_item, uint64_t *limit, char *err,
                                   size_t errlen);

/* The device's preferred vector width for what (a
 * CL_DEVICE_PREFERRED_VECTOR_WIDTH_* query) where a kernel has that width
 * (2, 4, 8 or 16), else 1. */
unsigned cr_cl_preferred_width(const cr_cl *cl, cl_device_info what);

/* Releases what the handle holds, if anything, and clears it. */
void cr_cl_release_mem(cl_mem *m);
/* cr_cl_release_mem of each of n handles. */
void cr_cl_release_mems(cl_mem *m, size_t n);
void cr_cl_release_kernel(cl_kernel *k);
void cr_cl_release_program(cl_program *p);

#define CR_CL_CHECK(call, what, err, errlen)                                                       \
    do {                                                                                           \
        cl_int cr_rc_ = (call);                                                                    \
        if (cr_rc_ != CL_SUCCESS) {                                                                \
            snprintf((err), (errlen), "%s: %s", (what), cr_cl_strerror(cr_rc_));                   \
            return CR_ERR;                                                                         \
        }                                                                                          \
    } while (0)

#endif
