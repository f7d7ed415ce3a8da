/* CUDA backend of the bandwidth benchmark: API copies from pageable, pinned
 * and write-combined memory, kernels on device, mapped (zero-copy), managed
 * and malloc'd (HMM/ATS) memory, CPU access to mapped and managed memory,
 * Lee's four memory-movement techniques running vector add and reduce end
 * to end, and nvbandwidth's paths that run several transfers at once or
 * span devices (transfers.cu), and blocks streaming their shared memory
 * in vectors of 1, 2 and 4 words (local_kernel.cu). Allocates, moves and
 * times; the design verifies. Here: where each repetition starts, the
 * repetitions and the contract's table; beside it the device and what it
 * supports (open.cu), the paths (path_table.c), their buffers
 * (prepare.cu), kernels (path_kernels.cu) and results (results.cu). */
#include "open.h"
#include "path_kernels.h"
#include "prepare.h"
#include "results.h"
#include "state.h"

#include "copy_kernel.h"
#include "local_kernel.h"
#include "transfers.h"

#include <cstring>

/* ---- where each repetition starts ---- */

static bool managed_kernel(int id)
{
    return id == P_KR_MANAGED || id == P_KW_MANAGED || id == P_KR_MANAGED_PREFETCH || id == P_KW_MANAGED_PREFETCH;
}

/* A CPU read of every page of p, which faults a page the device holds
 * back to the host once the device is idle. The read goes through
 * volatile so that it is not dropped, and leaves the data as it was. */
static cr_status fault_pages_home(const void *p, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
    const volatile unsigned char *bytes = (const volatile unsigned char *)p;
    unsigned char sink = 0;
    for (uint64_t i = 0; i < bw_cu.bytes; i += 4096)
        sink ^= bytes[i];
    (void)sink;
    return CR_OK;
}

/* Where concurrent managed access lets the runtime prefetch, a prefetch;
 * elsewhere (no prefetch there) the CPU faults every page back. */
static cr_status managed_to_host(char *err, size_t errlen)
{
    if (bw_cu.concurrent) {
        CR_CUDA_CHECK(bw_cu_prefetch(bw_cu.managed, true), "cudaMemPrefetchAsync", err, errlen);
        CR_CUDA_CHECK(cudaStreamSynchronize(bw_cu.stream), "cudaStreamSynchronize", err, errlen);
        return CR_OK;
    }
    return fault_pages_home(bw_cu.managed, err, errlen);
}

/* The managed kernel paths time migration: the previous repetition (or
 * the warm-up) left the pages on the device, so every repetition starts
 * with them back on the host, as the CPU left them, where on-demand
 * migration and the timed prefetch begin. The same holds for malloc'd
 * memory, whose pages HMM may migrate to the device as managed ones. Other
 * paths start wherever the last repetition left them. */
static cr_status cuda_place(const bw_path *p, char *err, size_t errlen)
{
    if (malloc_kernel(p->id))
        return fault_pages_home(bw_cu.host, err, errlen);
    return managed_kernel(p->id) ? managed_to_host(err, errlen) : CR_OK;
}

/* ---- repetitions ---- */

static void host_timed(cr_timing *t, uint64_t t0)
{
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false;
    t->ev_start_ns = t->ev_end_ns = 0;
}

static cr_status launch(const bw_path *p, char *err, size_t errlen)
{
    cudaError_t rc;
    if (p->id == P_D2D_KERNEL)
        rc = bw_launch_copy(bw_cu.from, bw_cu.to, bw_cu.bytes, bw_cu.blocks, bw_cu.stream);
    else if (p->kind == BW_KERNEL_LOCAL)
        rc = bw_launch_local(bw_cu.from, bw_cu.to, bw_cu.bytes, bw_cu.local_width, bw_cu.stream);
    else if (p->kind == BW_KERNEL_READ)
        rc = bw_launch_read(bw_cu.kernel_ptr, bw_cu.partial, bw_cu.bytes, bw_cu.blocks, bw_cu.stream);
    else
        rc = bw_launch_write(bw_cu.kernel_ptr, bw_cu.bytes, (uint32_t)bw_cu.bytes, bw_cu.blocks, bw_cu.stream);
    CR_CUDA_CHECK(rc, "cudaLaunchKernel", err, errlen);
    return CR_OK;
}

/* Whether the host may block between the timer's start and stop of a
 * device repetition, which a gated stream would not release: a blocking
 * cudaMemcpy; cudaMemcpyAsync to or from pageable memory, which the
 * driver may stage synchronously; a managed prefetch, whose page-table
 * work the driver may do in the calling thread (part of the migration, so
 * timed as such); managed memory without concurrent access, which the
 * launch may migrate before it returns. */
static bool may_block_host(const bw_path *p, bool sync_copy)
{
    const bool pageable_async = p->id == P_H2D_PAGEABLE_ASYNC || p->id == P_D2H_PAGEABLE_ASYNC;
    const bool prefetch = p->id == P_KR_MANAGED_PREFETCH || p->id == P_KW_MANAGED_PREFETCH;
    return sync_copy || pageable_async || prefetch || (managed_kernel(p->id) && !bw_cu.concurrent);
}

/* Async work is bracketed on bw_cu.stream and the timer's stop is the
 * synchronisation; a blocking cudaMemcpy runs on the legacy stream 0, so its
 * events go there. */
static cr_status run_device(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    const bool sync_copy = p->kind == BW_COPY && p->id != P_D2D_KERNEL && !is_async(p->id);
    cudaStream_t s = sync_copy ? 0 : bw_cu.stream;
    const size_t n = (size_t)bw_cu.bytes;
    const cr_status started = may_block_host(p, sync_copy)
                                  ? cr_cuda_timer_start_ungated(&bw_cu.cu.timer, s, err, errlen)
                                  : cr_cuda_timer_start(&bw_cu.cu.timer, s, err, errlen);
    if (started != CR_OK)
        return CR_ERR;
    if (sync_copy)
        CR_CUDA_CHECK(cudaMemcpy(bw_cu.to, bw_cu.from, n, bw_cu.dir), "cudaMemcpy", err, errlen);
    else if (is_async(p->id))
        CR_CUDA_CHECK(cudaMemcpyAsync(bw_cu.to, bw_cu.from, n, bw_cu.dir, bw_cu.stream), "cudaMemcpyAsync", err,
                      errlen);
    else {
        if (p->id == P_KR_MANAGED_PREFETCH || p->id == P_KW_MANAGED_PREFETCH)
            CR_CUDA_CHECK(bw_cu_prefetch(bw_cu.managed, false), "cudaMemPrefetchAsync", err, errlen);
        if (launch(p, err, errlen) != CR_OK)
            return CR_ERR;
    }
    return cr_cuda_timer_stop(&bw_cu.cu.timer, s, t, err, errlen);
}

/* Map and unmap of managed memory are migrations on the stream. Mapped
 * memory needs none: its phases are a bare cudaDeviceSynchronize, a host call
 * with no device work to bracket, so host-timed (events around nothing would
 * read zero and throw the design off events). */
static cr_status run_cpu_access(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    const bool managed = p->id == P_CPU_WRITE_MANAGED || p->id == P_CPU_READ_MANAGED;
    uint64_t t0 = cr_now_ns();
    if (phase == 1) {
        memcpy(bw_cu.to, bw_cu.from, (size_t)bw_cu.bytes);
        host_timed(t, t0);
        return CR_OK;
    }
    if (!managed) {
        CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
        host_timed(t, t0);
        return CR_OK;
    }
    /* ungated: the driver may do a prefetch's page-table work before it returns */
    if (cr_cuda_timer_start_ungated(&bw_cu.cu.timer, bw_cu.stream, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(bw_cu_prefetch(bw_cu.managed, phase == 0), "cudaMemPrefetchAsync", err, errlen);
    return cr_cuda_timer_stop(&bw_cu.cu.timer, bw_cu.stream, t, err, errlen);
}

/* One repetition, host-timed: a technique is several commands and host work.
 * Everything runs on stream 0, where the blocking cudaMemcpy calls run too, so
 * they order with the kernel. cudaMemcpy into pageable memory returns once
 * the copy is done; the CPU reads its output only after a synchronisation. */
static cr_status run_technique(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    const bool vadd = p->workload == BW_VECTOR_ADD;
    const bool copy_in = p->technique == BW_DEFAULT, copy_out = p->technique == BW_DEFAULT || p->technique == BW_MIXED;
    const size_t in = (size_t)bw_cu.tin_bytes, out = (size_t)bw_cu.tout_bytes;
    const uint64_t t0 = cr_now_ns();
    for (int i = 0; i < (vadd ? 2 : 1); ++i) {
        const char *from = (const char *)bw_cu.host + i * in;
        if (copy_in)
            CR_CUDA_CHECK(cudaMemcpy(bw_cu.tin[i], from, in, cudaMemcpyHostToDevice), "cudaMemcpy(technique input)",
                          err, errlen);
        else
            memcpy(bw_cu.tin[i], from, in);
    }
    CR_CUDA_CHECK(vadd ? bw_launch_vector_add(bw_cu.kin[0], bw_cu.kin[1], bw_cu.kout, in, bw_cu.tblocks, 0)
                       : bw_launch_reduce(bw_cu.kin[0], (double *)bw_cu.kout, in, bw_cu.tblocks, 0),
                  "cudaLaunchKernel", err, errlen);
    if (copy_out)
        CR_CUDA_CHECK(cudaMemcpy(bw_cu.tdst, bw_cu.tout, out, cudaMemcpyDeviceToHost), "cudaMemcpy(technique output)",
                      err, errlen);
    else {
        CR_CUDA_CHECK(cudaStreamSynchronize(0), "cudaStreamSynchronize", err, errlen);
        memcpy(bw_cu.tdst, bw_cu.tout, out);
    }
    host_timed(t, t0);
    return CR_OK;
}

static cr_status cuda_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    if (p->kind == BW_CPU_ACCESS)
        return run_cpu_access(p, phase, t, err, errlen);
    if (p->kind == BW_TECHNIQUE)
        return run_technique(p, t, err, errlen);
    if (runs_transfers(p))
        return bw_transfers_run(&bw_cu.cu.timer, bw_cu.stream, t, err, errlen);
    return run_device(p, t, err, errlen);
}

extern "C" {
extern const bw_backend bandwidth_cuda_backend;
const bw_backend bandwidth_cuda_backend = {
    {"cuda", cr_cuda_list, cuda_open, cuda_close}, cuda_paths, cuda_supported, cuda_prepare, cuda_place, cuda_run,
    cuda_result, cuda_release, cuda_transfers, bw_cuda_peer_links, cuda_prepare_local, cuda_oversubscribe,
};
}
