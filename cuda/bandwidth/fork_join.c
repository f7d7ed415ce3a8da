#include "fork_join.h"

#include <stddef.h>

static const bw_fork_join_runtime runtime_calls = {cudaSetDevice, cudaEventRecord, cudaStreamWaitEvent};
static bw_fork_join_runtime test_calls;
static const bw_fork_join_runtime *rt = &runtime_calls;

void bw_fork_join_set_runtime(const bw_fork_join_runtime *r)
{
    if (r != NULL)
        test_calls = *r;
    rt = r != NULL ? &test_calls : &runtime_calls;
}

/* Each call that may fail, its name kept for the one-line error. */
#define STEP(call, name)                                                                                               \
    do {                                                                                                               \
        e = (call);                                                                                                    \
        if (e != cudaSuccess) {                                                                                        \
            *what = (name);                                                                                            \
            goto out;                                                                                                  \
        }                                                                                                              \
    } while (0)

cudaError_t bw_fork_join(int self, cudaStream_t timed, cudaEvent_t fork, const bw_worker *workers, unsigned n,
                         bw_enqueue_fn enqueue, void *ctx, const char **what)
{
    cudaError_t e = cudaSuccess;
    STEP(rt->set_device(self), "cudaSetDevice");
    STEP(rt->event_record(fork, timed), "cudaEventRecord(fork)");
    for (unsigned i = 0; i < n; ++i) {
        STEP(rt->set_device(workers[i].device), "cudaSetDevice");
        STEP(rt->stream_wait_event(workers[i].stream, fork, 0), "cudaStreamWaitEvent(fork)");
        STEP(enqueue(ctx, i, what), *what);
        STEP(rt->event_record(workers[i].done, workers[i].stream), "cudaEventRecord(done)");
    }
    STEP(rt->set_device(self), "cudaSetDevice");
    for (unsigned i = 0; i < n; ++i)
        STEP(rt->stream_wait_event(timed, workers[i].done, 0), "cudaStreamWaitEvent(join)");
    return cudaSuccess;
out:
    /* The work already enqueued waits for fork, which the timer's stop
     * releases; the caller needs its own device back to stop it. */
    rt->set_device(self);
    return e;
}
