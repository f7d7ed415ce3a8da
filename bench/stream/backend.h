/* The stream benchmark's backend contract. The experiment design
 * (design.c) owns what is swept, verified and written; a backend only
 * allocates the three arrays, launches a kernel with a given geometry and
 * reports its timing. Kernels are blocking: run() returns after completion.
 *
 * Kernel semantics (arrays a, b, c of n elements, scalar s; the element
 * operations are elements.h, shared by every backend and the host truth),
 * over the elements i of the geometry's window [first, first + count):
 *   copy  c = a        mul  b = s*c        add  c = a + b
 *   triad a = b + s*c  dot  sum(a*b)
 * Elements outside the window are neither read nor written.
 * Every backend's dot accumulates at most STREAM_DOT_BLOCK products into a
 * block sum before adding that into the running sum, and combines the
 * work-items' sums by a tree or in double precision on the host; the design
 * derives its verification tolerance from that contract. Within it the
 * backends differ on purpose: OpenCL keeps four accumulators per work-item
 * (a CPU device hides the add latency with them) and one partial of type T
 * per work-group, summed in double on the host; CUDA keeps one (more would
 * spill at full occupancy in double), loads its products 16 bytes per array
 * ahead like its other kernels, and writes the partials in double. */
#ifndef CR_STREAM_BACKEND_H
#define CR_STREAM_BACKEND_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "stream/elements.h" /* the kernels' element operations */
#include "timer.h"

#include <stdio.h>

typedef enum { STREAM_COPY, STREAM_MUL, STREAM_ADD, STREAM_TRIAD, STREAM_DOT, STREAM_NKERNELS } stream_kernel;
typedef enum { STREAM_A, STREAM_B, STREAM_C } stream_array;

#define STREAM_DOT_BLOCK 1024u

typedef struct {
    const char *name;
    unsigned arrays_moved; /* arrays read + arrays written: bytes = arrays_moved * n * sizeof(T) */
    stream_array output;   /* array written (dot: none, reported as a value) */
} stream_kernel_desc;

extern const stream_kernel_desc stream_kernels[STREAM_NKERNELS];

typedef struct {
    uint64_t work_items; /* launched work-items (threads); all stay resident for the whole kernel */
    uint64_t work_group; /* work-group (block) size dividing work_items */
    uint64_t first;      /* the window of elements processed: [first, first + count) */
    uint64_t count;
} stream_geometry;

typedef struct {
    cr_backend_base base;
    /* Allocates a, b, c with n elements of type t (replacing earlier ones). */
    cr_status (*prepare)(cr_dtype t, uint64_t n, char *err, size_t errlen);
    cr_status (*upload)(stream_array which, const void *src, char *err, size_t errlen);
    cr_status (*download)(stream_array which, void *dst, char *err, size_t errlen);
    /* Runs one kernel; dot's value goes to *dot. */
    cr_status (*run)(stream_kernel k, const stream_geometry *g, double scalar, cr_timing *t, double *dot,
                     char *err, size_t errlen);
    /* The geometry the backend would pick for whole-array kernels (its
     * window: the whole n elements). */
    stream_geometry (*default_geometry)(uint64_t n);
    /* The work-group size for a concurrency-sweep launch of work_items. */
    uint64_t (*work_group_for)(uint64_t work_items);
    /* How the work-items share the elements, in words for the metadata. */
    const char *(*layout)(void);
} stream_backend;

/* Refuses, with a one-line reason, a geometry whose window is empty or not
 * inside arrays of n elements. */
cr_status stream_check_window(const stream_geometry *g, uint64_t n, char *err, size_t errlen);

/* Entry point shared by every stream executable. */
int stream_main(int argc, char **argv, const stream_backend *device_backend);

/* The host reference backend (plain C + OpenMP), run beside CPU/APU devices. */
extern const stream_backend stream_host_backend;

/* The host's own limit for the work of a kernel, on a private set of random
 * arrays, so that it can run interleaved with any kernel under test without
 * disturbing that kernel's arrays: the triad for the kernels that store
 * (with ordinary stores, whose lines are read before they are written, as a
 * device's are), the dot for the dot, which only reads. Every device result
 * is reported as a ratio to it. */
cr_status stream_host_limit_prepare(cr_dtype t, uint64_t n, uint64_t seed, char *err, size_t errlen);
cr_status stream_host_limit_run(stream_kernel k, cr_timing *t);
/* Elements of the triad's output that fail verification, or 1 for a dot
 * outside its bound (0 = correct). */
uint64_t stream_host_limit_check(stream_kernel k);
void stream_host_limit_release(void);

#endif
