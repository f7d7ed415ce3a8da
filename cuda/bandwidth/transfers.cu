#include "transfers.h"

#include "copy_kernel.h"
#include "fork_join.h"
#include "grid.cuh"

#include <cstring>

static struct {
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    unsigned n;
    bool kernel, gated;
    int self;
    uint64_t bytes;
    void *from[BW_CUDA_MAX_DEVICES], *to[BW_CUDA_MAX_DEVICES];   /* the allocations (host address for host memory) */
    void *kfrom[BW_CUDA_MAX_DEVICES], *kto[BW_CUDA_MAX_DEVICES]; /* the runner's view of them */
    unsigned blocks[BW_CUDA_MAX_DEVICES];
    bw_worker workers[BW_CUDA_MAX_DEVICES];
    cudaEvent_t fork;
    bool enabled[BW_CUDA_MAX_DEVICES]; /* peer access from self that prepare turned on */
    bool prepared;                     /* something to release: the runtime is not called otherwise */
} tx;

/* Pinned host memory is portable and mapped, so that every device's
 * copy engine and kernels reach it; device memory is its device's. */
static cr_status allocate_end(const bw_cuda_end *e, void **p, char *err, size_t errlen)
{
    const size_t n = (size_t)tx.bytes;
    if (e->host) {
        CR_CUDA_CHECK(cudaHostAlloc(p, n, cudaHostAllocPortable | cudaHostAllocMapped), "cudaHostAlloc", err, errlen);
        return CR_OK;
    }
    CR_CUDA_CHECK(cudaSetDevice(e->device), "cudaSetDevice", err, errlen);
    CR_CUDA_CHECK(cudaMalloc(p, n), "cudaMalloc", err, errlen);
    return CR_OK;
}

/* Fills an end with src, or zeroes it where src is NULL: a destination
 * that a transfer left untouched cannot pass verification. The workers'
 * streams do not wait for the legacy stream, where cudaMemset and the DMA
 * of a copy from pageable memory may still run after the call returns:
 * the device is idle again before any of them starts. */
static cr_status fill_end(const bw_cuda_end *e, void *p, const void *src, char *err, size_t errlen)
{
    const size_t n = (size_t)tx.bytes;
    if (e->host) {
        if (src)
            memcpy(p, src, n);
        else
            memset(p, 0, n);
        return CR_OK;
    }
    CR_CUDA_CHECK(cudaSetDevice(e->device), "cudaSetDevice", err, errlen);
    if (src)
        CR_CUDA_CHECK(cudaMemcpy(p, src, n, cudaMemcpyHostToDevice), "cudaMemcpy", err, errlen);
    else
        CR_CUDA_CHECK(cudaMemset(p, 0, n), "cudaMemset", err, errlen);
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
    return CR_OK;
}

/* The address the runner's kernel uses: mapped host memory has its own
 * device address; device memory, a peer's included, is addressed as is
 * (unified addressing, and peer access enabled). */
static cr_status kernel_view(const bw_cuda_end *e, int runner, void *p, void **view, char *err, size_t errlen)
{
    *view = p;
    if (!e->host)
        return CR_OK;
    CR_CUDA_CHECK(cudaSetDevice(runner), "cudaSetDevice", err, errlen);
    CR_CUDA_CHECK(cudaHostGetDevicePointer(view, p, 0), "cudaHostGetDevicePointer", err, errlen);
    return CR_OK;
}

/* Peer access from self to every device the plan touches and self may
 * address: kernels need it to dereference the peer's memory, copy engines
 * use it to copy directly rather than through host memory. A pair already
 * enabled (by someone else) is left as it is. */
static cr_status enable_peer_access(const bw_cuda_topology *t, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaSetDevice(tx.self), "cudaSetDevice", err, errlen);
    for (unsigned i = 0; i < tx.n; ++i) {
        const bw_cuda_end *ends[] = {&tx.plan[i].from, &tx.plan[i].to};
        for (const bw_cuda_end *e : ends) {
            if (e->host || e->device == tx.self || !t->peer_access[e->device] || tx.enabled[e->device])
                continue;
            const cudaError_t rc = cudaDeviceEnablePeerAccess(e->device, 0);
            if (rc == cudaErrorPeerAccessAlreadyEnabled) {
                cudaGetLastError();
                continue;
            }
            CR_CUDA_CHECK(rc, "cudaDeviceEnablePeerAccess", err, errlen);
            tx.enabled[e->device] = true;
        }
    }
    return CR_OK;
}

/* A device's resident threads in one wave. */
static cr_status full_threads(int device, uint64_t *threads, char *err, size_t errlen)
{
    int sms = 0, per_sm = 0;
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute",
                  err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device),
                  "cudaDeviceGetAttribute", err, errlen);
    *threads = (uint64_t)sms * (uint64_t)per_sm;
    return CR_OK;
}

/* Transfer i's buffers, stream, event and kernel geometry. */
static cr_status prepare_one(unsigned i, const void *src, char *err, size_t errlen)
{
    const bw_cuda_transfer *x = &tx.plan[i];
    bw_worker *w = &tx.workers[i];
    if (allocate_end(&x->from, &tx.from[i], err, errlen) != CR_OK ||
        allocate_end(&x->to, &tx.to[i], err, errlen) != CR_OK ||
        fill_end(&x->from, tx.from[i], src, err, errlen) != CR_OK ||
        fill_end(&x->to, tx.to[i], NULL, err, errlen) != CR_OK ||
        kernel_view(&x->from, x->runner, tx.from[i], &tx.kfrom[i], err, errlen) != CR_OK ||
        kernel_view(&x->to, x->runner, tx.to[i], &tx.kto[i], err, errlen) != CR_OK)
        return CR_ERR;
    w->device = x->runner;
    CR_CUDA_CHECK(cudaSetDevice(x->runner), "cudaSetDevice", err, errlen);
    CR_CUDA_CHECK(cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking), "cudaStreamCreate", err, errlen);
    CR_CUDA_CHECK(cudaEventCreateWithFlags(&w->done, cudaEventDisableTiming), "cudaEventCreate", err, errlen);
    uint64_t threads = 0;
    if (full_threads(x->runner, &threads, err, errlen) != CR_OK)
        return CR_ERR;
    /* Kernels that run at once on one device share its wave, so that all
     * of them are resident together rather than one after another. */
    tx.blocks[i] = bw_cuda_blocks(tx.bytes, threads, bw_cuda_kernels_on(tx.plan, tx.n, x->runner), BLOCK);
    return CR_OK;
}

cr_status bw_transfers_prepare(const bw_cuda_transfer *plan, unsigned n, bool kernel, const bw_cuda_topology *t,
                               uint64_t bytes, const void *src, char *err, size_t errlen)
{
    bw_transfers_release();
    tx.prepared = true;
    memcpy(tx.plan, plan, n * sizeof *plan);
    tx.n = n;
    tx.kernel = kernel;
    tx.self = t->self;
    tx.bytes = bytes;
    tx.gated = bw_cuda_plan_async(plan, n, kernel, t);
    if (enable_peer_access(t, err, errlen) != CR_OK)
        return CR_ERR;
    for (unsigned i = 0; i < n; ++i)
        if (prepare_one(i, src, err, errlen) != CR_OK)
            return CR_ERR;
    CR_CUDA_CHECK(cudaSetDevice(tx.self), "cudaSetDevice", err, errlen);
    CR_CUDA_CHECK(cudaEventCreateWithFlags(&tx.fork, cudaEventDisableTiming), "cudaEventCreate", err, errlen);
    return CR_OK;
}

/* Transfer i on its stream, its runner current: a copy kernel, a copy
 * between two devices, or a copy between a device and host memory. */
static cudaError_t enqueue(void *ctx, unsigned i, const char **what)
{
    (void)ctx;
    const bw_cuda_transfer *x = &tx.plan[i];
    const cudaStream_t s = tx.workers[i].stream;
    const size_t n = (size_t)tx.bytes;
    if (tx.kernel) {
        *what = "cudaLaunchKernel(bw_copy)";
        return bw_launch_copy(tx.kfrom[i], tx.kto[i], tx.bytes, tx.blocks[i], s);
    }
    if (!x->from.host && !x->to.host) {
        *what = "cudaMemcpyPeerAsync";
        return cudaMemcpyPeerAsync(tx.to[i], x->to.device, tx.from[i], x->from.device, n, s);
    }
    *what = "cudaMemcpyAsync";
    return cudaMemcpyAsync(tx.to[i], tx.from[i], n, x->from.host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s);
}

/* The stop follows the start whatever happens between them: a gated start
 * holds the timed stream until its stop opens the gate, and every stream
 * already forked waits for it. The first error is the one reported. */
cr_status bw_transfers_run(cr_cuda_timer *timer, cudaStream_t timed, cr_timing *t, char *err, size_t errlen)
{
    const cr_status started = tx.gated ? cr_cuda_timer_start(timer, timed, err, errlen)
                                       : cr_cuda_timer_start_ungated(timer, timed, err, errlen);
    if (started != CR_OK)
        return CR_ERR;
    const char *what = "bw_fork_join";
    const cudaError_t rc = bw_fork_join(tx.self, timed, tx.fork, tx.workers, tx.n, enqueue, NULL, &what);
    char stop_err[CR_ERRLEN];
    const cr_status stopped = cr_cuda_timer_stop(timer, timed, t, stop_err, sizeof stop_err);
    if (rc != cudaSuccess)
        return cr_cuda_error(rc, what, err, errlen);
    if (stopped != CR_OK)
        snprintf(err, errlen, "%s", stop_err);
    return stopped;
}

cr_status bw_transfers_result(void *dst, char *err, size_t errlen)
{
    const size_t n = (size_t)tx.bytes;
    cr_status s = CR_OK;
    for (unsigned i = 0; i < tx.n && s == CR_OK; ++i) {
        char *out = (char *)dst + (size_t)i * n;
        cudaError_t rc = cudaSetDevice(tx.workers[i].device);
        if (rc == cudaSuccess)
            rc = cudaStreamSynchronize(tx.workers[i].stream);
        if (rc == cudaSuccess && tx.plan[i].to.host)
            memcpy(out, tx.to[i], n);
        else if (rc == cudaSuccess)
            rc = cudaMemcpy(out, tx.to[i], n, cudaMemcpyDefault);
        if (rc != cudaSuccess)
            s = cr_cuda_error(rc, "bandwidth result (cudaStreamSynchronize, cudaMemcpy)", err, errlen);
    }
    cudaSetDevice(tx.self);
    return s;
}

static void free_end(const bw_cuda_end *e, void **p)
{
    if (*p == NULL)
        return;
    if (e->host) {
        cudaFreeHost(*p);
    } else {
        cudaSetDevice(e->device);
        cudaFree(*p);
    }
    *p = NULL;
}

/* Errors here have no one to go to: a repetition that failed has said
 * its own. */
void bw_transfers_release(void)
{
    if (!tx.prepared)
        return;
    for (unsigned i = 0; i < tx.n; ++i) {
        bw_worker *w = &tx.workers[i];
        if (w->stream) { /* an interrupted repetition may still use the buffers */
            cudaSetDevice(w->device);
            cudaStreamSynchronize(w->stream);
            cudaStreamDestroy(w->stream);
        }
        if (w->done)
            cudaEventDestroy(w->done);
        free_end(&tx.plan[i].from, &tx.from[i]);
        free_end(&tx.plan[i].to, &tx.to[i]);
    }
    cudaSetDevice(tx.self);
    if (tx.fork)
        cudaEventDestroy(tx.fork);
    for (int k = 0; k < BW_CUDA_MAX_DEVICES; ++k)
        if (tx.enabled[k])
            cudaDeviceDisablePeerAccess(k);
    cudaGetLastError();
    memset(&tx, 0, sizeof tx);
}
