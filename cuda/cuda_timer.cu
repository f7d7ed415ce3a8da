#include "cuda_timer.h"

#include "cuda_driver.h"

#include <cmath>
#include <cstdio>
#include <cstring>

/* ---- the gate kernel ---- */

static __device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Holds its stream until the host opens the gate, or gives up after
 * timeout_ns and says so in the gate's second word. The flag is read through
 * a volatile pointer, so every iteration loads it from host memory again
 * rather than once into a register. */
extern "C" __global__ void cr_cuda_gate(volatile unsigned *gate, unsigned long long timeout_ns)
{
    unsigned long long t0 = global_ns();
    while (gate[CR_CUDA_GATE_OPEN] == 0u) {
        if (global_ns() - t0 > timeout_ns) {
            gate[CR_CUDA_GATE_TIMED_OUT] = 1u;
            return;
        }
    }
}

/* ---- the runtime's calls ---- */

static cudaError_t event_create(cudaEvent_t *e) { return cudaEventCreate(e); }

static cudaError_t host_alloc_mapped(void **host, void **dev, size_t bytes)
{
    cudaError_t e = cudaHostAlloc(host, bytes, cudaHostAllocMapped);
    if (e == cudaSuccess && (e = cudaHostGetDevicePointer(dev, *host, 0)) != cudaSuccess) {
        cudaFreeHost(*host);
        *host = NULL;
    }
    return e;
}

static cudaError_t launch_gate(unsigned *gate_dev, unsigned long long timeout_ns, cudaStream_t s)
{
    cr_cuda_gate<<<1, 1, 0, s>>>(gate_dev, timeout_ns);
    return cudaGetLastError();
}

static const cr_cuda_timer_runtime runtime_calls = {
    event_create,   cudaEventDestroy, cudaEventRecord, cudaEventSynchronize, cudaEventElapsedTime,
    host_alloc_mapped, cudaFreeHost,  launch_gate,     cudaDeviceSynchronize,
};
static cr_cuda_timer_runtime rt = runtime_calls;

void cr_cuda_timer_set_runtime(const cr_cuda_timer_runtime *r) { rt = r ? *r : runtime_calls; }

/* ---- the timer ---- */

cr_status cr_cuda_timer_create(cr_cuda_timer *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    CR_CUDA_CHECK(rt.event_create(&t->start), "cudaEventCreate", err, errlen);
    CR_CUDA_CHECK(rt.event_create(&t->stop), "cudaEventCreate", err, errlen);
    void *gate = NULL, *gate_dev = NULL;
    CR_CUDA_CHECK(rt.host_alloc_mapped(&gate, &gate_dev, CR_CUDA_GATE_WORDS * sizeof(unsigned)),
                  "cudaHostAlloc(timing gate)", err, errlen);
    t->gate = (volatile unsigned *)gate;
    t->gate_dev = (unsigned *)gate_dev;
    return CR_OK;
}

/* Release: the stop event was enqueued (by the driver's stores, in the
 * call before) before the gate kernel can see the gate open. */
static void open_gate(cr_cuda_timer *t)
{
    __atomic_store_n(&t->gate[CR_CUDA_GATE_OPEN], 1u, __ATOMIC_RELEASE);
}

void cr_cuda_timer_destroy(cr_cuda_timer *t)
{
    if (t->gated) { /* a gate kernel still reads the flag: let it finish first */
        open_gate(t);
        rt.device_synchronize();
    }
    if (t->start)
        rt.event_destroy(t->start);
    if (t->stop)
        rt.event_destroy(t->stop);
    if (t->gate)
        rt.free_host((void *)t->gate);
    memset(t, 0, sizeof *t);
}

static cr_status record_start(cr_cuda_timer *t, cudaStream_t s, char *err, size_t errlen)
{
    CR_CUDA_CHECK(rt.event_record(t->start, s), "cudaEventRecord", err, errlen);
    return CR_OK;
}

cr_status cr_cuda_timer_start_ungated(cr_cuda_timer *t, cudaStream_t s, char *err, size_t errlen)
{
    t->gated = false;
    t->host_start = cr_now_ns();
    return record_start(t, s, err, errlen);
}

cr_status cr_cuda_timer_start(cr_cuda_timer *t, cudaStream_t s, char *err, size_t errlen)
{
    /* A gated start that never reached its stop (an error between them) left
     * its gate kernel waiting: it must see the gate open before the flag is
     * closed again, or it would hold its stream until it gives up and then
     * flag this interval as timed out. Otherwise the previous gate kernel has
     * finished: its stop waited for it. */
    if (t->gated) {
        open_gate(t);
        t->gated = false;
        CR_CUDA_CHECK(rt.device_synchronize(), "cudaDeviceSynchronize(abandoned timing gate)", err, errlen);
    }
    t->host_start = cr_now_ns();
    __atomic_store_n(&t->gate[CR_CUDA_GATE_OPEN], 0u, __ATOMIC_RELAXED);
    __atomic_store_n(&t->gate[CR_CUDA_GATE_TIMED_OUT], 0u, __ATOMIC_RELAXED);
    /* Both words closed before the launch can start the kernel that reads them. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    CR_CUDA_CHECK(rt.launch_gate(t->gate_dev, (unsigned long long)CR_CUDA_GATE_TIMEOUT_S * 1000000000ull, s),
                  "timing gate launch", err, errlen);
    t->gated = true;
    cr_status st = record_start(t, s, err, errlen);
    if (st != CR_OK) {
        open_gate(t); /* nothing will stop this interval: let the stream go */
        t->gated = false;
    }
    return st;
}

cr_status cr_cuda_timer_stop(cr_cuda_timer *t, cudaStream_t s, cr_timing *out, char *err, size_t errlen)
{
    float ms = 0;
    cudaError_t recorded = rt.event_record(t->stop, s);
    bool gated = t->gated;
    t->gated = false;
    /* Opened whether or not the stop was recorded: a closed gate would hold
     * the stream until it gives up. */
    if (gated)
        open_gate(t);
    if (recorded != cudaSuccess)
        return cr_cuda_error(recorded, "cudaEventRecord", err, errlen);
    CR_CUDA_CHECK(rt.event_synchronize(t->stop), "cudaEventSynchronize", err, errlen);
    out->host_ns = cr_now_ns() - t->host_start;
    if (gated && __atomic_load_n(&t->gate[CR_CUDA_GATE_TIMED_OUT], __ATOMIC_ACQUIRE) != 0u) {
        snprintf(err, errlen,
                 "timing gate gave up after %d s: the host blocked between cr_cuda_timer_start and "
                 "cr_cuda_timer_stop (a synchronising call in a gated interval)",
                 CR_CUDA_GATE_TIMEOUT_S);
        return CR_ERR;
    }
    CR_CUDA_CHECK(rt.event_elapsed_ms(&ms, t->start, t->stop), "cudaEventElapsedTime", err, errlen);
    out->has_event = true;
    out->ev_start_ns = 0;
    out->ev_end_ns = (uint64_t)llround((double)ms * 1e6);
    return CR_OK;
}
