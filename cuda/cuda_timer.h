/* Event timing of device work, bracketed by the host clock, with the stream
 * gated so that the interval holds the device's work and not the host's
 * enqueue. C linkage, so host C code may call it. */
#ifndef CR_CUDA_TIMER_H
#define CR_CUDA_TIMER_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "cr.h"
#include "timer.h"

/* Times device work with events, bracketed by the host clock.
 *
 * Gated (cr_cuda_timer_start): a one-thread "gate" kernel that waits on a
 * flag in mapped pinned host memory goes into the stream first, then the
 * start event. cr_cuda_timer_stop records the stop event, opens the gate and
 * waits. So the start event fires only once everything between start and
 * stop is already enqueued: the interval holds the device executing that
 * work (and one kernel boundary after the gate), not the host's launch and
 * API time, which would otherwise add microseconds to every interval and
 * dominate small ones. This is how nvbandwidth times copies. Use it for
 * intervals of asynchronous commands on stream s: kernel launches, async
 * copies between device and pinned memory, event records. Only s is held;
 * work on other streams starts as soon as it is enqueued.
 *
 * The host must not block between a gated start and its stop: a
 * synchronising call (cudaMemcpy, cudaMemcpyAsync from pageable memory,
 * cudaMalloc/cudaFree, any Synchronize) or more launches than the driver's
 * queue holds (about a thousand) would wait for the held stream. The gate
 * gives up after CR_CUDA_GATE_TIMEOUT_S, so such an interval fails (stop
 * returns CR_ERR saying so) rather than hanging.
 *
 * Ungated (cr_cuda_timer_start_ungated): the start event goes into the
 * stream at once, as the host reaches it; the interval then also holds the
 * host's enqueue time. Use it for intervals that must block the host
 * (synchronous copies from pageable memory), and only those.
 *
 * Either way host_ns is the host clock from start to the end of stop. */
#define CR_CUDA_GATE_TIMEOUT_S 2

typedef struct {
    cudaEvent_t start, stop;
    uint64_t host_start;
    /* The gate's two words in mapped pinned memory, [CR_CUDA_GATE_OPEN] set by
     * the host, [CR_CUDA_GATE_TIMED_OUT] by the kernel when it gave up: the
     * host's view and the device's view of the same memory. */
    volatile unsigned *gate;
    unsigned *gate_dev;
    bool gated; /* the interval being timed started behind the gate */
} cr_cuda_timer;
enum { CR_CUDA_GATE_OPEN = 0, CR_CUDA_GATE_TIMED_OUT = 1, CR_CUDA_GATE_WORDS = 2 };

/* Creates the events and the gate's flag. */
cr_status cr_cuda_timer_create(cr_cuda_timer *t, char *err, size_t errlen);
void cr_cuda_timer_destroy(cr_cuda_timer *t);
/* Closes the gate, enqueues the gate kernel, then the start event. */
cr_status cr_cuda_timer_start(cr_cuda_timer *t, cudaStream_t s, char *err, size_t errlen);
/* The start event only: for intervals in which the host blocks. */
cr_status cr_cuda_timer_start_ungated(cr_cuda_timer *t, cudaStream_t s, char *err, size_t errlen);
/* Records the end, opens the gate, waits for the end and fills out (events
 * relative to start). CR_ERR when the gate gave up before it was opened. */
cr_status cr_cuda_timer_stop(cr_cuda_timer *t, cudaStream_t s, cr_timing *out, char *err, size_t errlen);

/* The runtime calls the timer makes, each the runtime's own unless a test
 * has put in its own to follow the timer's steps without a GPU; NULL puts
 * back the runtime's. */
typedef struct {
    cudaError_t (*event_create)(cudaEvent_t *e);
    cudaError_t (*event_destroy)(cudaEvent_t e);
    cudaError_t (*event_record)(cudaEvent_t e, cudaStream_t s);
    cudaError_t (*event_synchronize)(cudaEvent_t e);
    cudaError_t (*event_elapsed_ms)(float *ms, cudaEvent_t start, cudaEvent_t stop);
    /* Mapped pinned memory: the host's and the device's address of it. */
    cudaError_t (*host_alloc_mapped)(void **host, void **dev, size_t bytes);
    cudaError_t (*free_host)(void *host);
    /* Enqueues the gate kernel on s; the launch's error. */
    cudaError_t (*launch_gate)(unsigned *gate_dev, unsigned long long timeout_ns, cudaStream_t s);
    cudaError_t (*device_synchronize)(void);
} cr_cuda_timer_runtime;
void cr_cuda_timer_set_runtime(const cr_cuda_timer_runtime *r);

#ifdef __cplusplus
}
#endif

#endif
