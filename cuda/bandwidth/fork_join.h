/* Work on several streams, of one device or of several, timed as one
 * interval of the timer's stream: the others wait for an event recorded
 * on it, and it waits for an event each of them records when its work is
 * done. So the timer's start (and its gate) holds every stream, and its
 * stop comes after the last of them has finished: the interval spans the
 * transfers that run at once, not one of them. C, with the runtime's calls
 * behind a seam so that a test follows the order without a GPU. */
#ifndef CR_CUDA_BW_FORK_JOIN_H
#define CR_CUDA_BW_FORK_JOIN_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int device;          /* the stream's device, current while its work is enqueued */
    cudaStream_t stream;
    cudaEvent_t done;    /* made on that device, without timing */
} bw_worker;

/* Enqueues worker i's work on its stream; the runtime's error, and in
 * *what the name of the call that failed. */
typedef cudaError_t (*bw_enqueue_fn)(void *ctx, unsigned i, const char **what);

/* On the timer's stream `timed` of device self, after whatever is already
 * there: fork is recorded, every worker's stream waits for it, gets its
 * work and records its done event, and `timed` waits for every done event.
 * Stops at the first failure, with the name of the call in *what; self is
 * current again on return either way. */
cudaError_t bw_fork_join(int self, cudaStream_t timed, cudaEvent_t fork, const bw_worker *workers, unsigned n,
                         bw_enqueue_fn enqueue, void *ctx, const char **what);

/* The runtime calls bw_fork_join makes, each the runtime's own unless a
 * test has put in its own; NULL puts back the runtime's. */
typedef struct {
    cudaError_t (*set_device)(int device);
    cudaError_t (*event_record)(cudaEvent_t e, cudaStream_t s);
    cudaError_t (*stream_wait_event)(cudaStream_t s, cudaEvent_t e, unsigned flags);
} bw_fork_join_runtime;
void bw_fork_join_set_runtime(const bw_fork_join_runtime *r);

#ifdef __cplusplus
}
#endif

#endif
