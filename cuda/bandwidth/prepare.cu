/* The CUDA bandwidth backend's buffers (prepare.h): pageable, pinned,
 * write-combined, mapped, device, managed and malloc'd memory in the roles
 * each path gives them, and the buffers of Lee's techniques. */
#include "prepare.h"

#include "grid.cuh"
#include "local_kernel.h"
#include "transfers.h"

#include <cstdlib>
#include <cstring>

void cuda_release(const bw_path *p)
{
    (void)p;
    bw_transfers_release();
    if (bw_cu.stream)
        cudaDeviceSynchronize(); /* an interrupted repetition may still use the buffers */
    free(bw_cu.host);
    free(bw_cu.tdst);
    cr_cuda_free_host(&bw_cu.pinned);
    void **dev[] = {&bw_cu.dev_src, &bw_cu.dev_dst, &bw_cu.managed, (void **)&bw_cu.partial};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i)
        cr_cuda_free(dev[i]);
    void **tech[] = {&bw_cu.tin[0], &bw_cu.tin[1], &bw_cu.tout};
    for (size_t i = 0; i < sizeof tech / sizeof tech[0]; ++i)
        (bw_cu.tpinned ? cr_cuda_free_host : cr_cuda_free)(tech[i]);
    if (bw_cu.stream)
        cudaGetLastError(); /* nothing to report from here; keep it off the next check */
    bw_cu.host = bw_cu.tdst = NULL;
    bw_cu.from = bw_cu.to = bw_cu.kernel_ptr = NULL;
    bw_cu.kin[0] = bw_cu.kin[1] = bw_cu.kout = NULL;
    bw_cu.tpinned = false;
    bw_cu.bytes = bw_cu.tin_bytes = bw_cu.tout_bytes = bw_cu.placeable_held = 0;
}

/* ---- preparation ---- */

static cr_status alloc_host(void **p, char *err, size_t errlen) { return bw_alloc_host(p, bw_cu.bytes, err, errlen); }

static cr_status alloc_pinned(void **p, unsigned flags, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaHostAlloc(p, (size_t)bw_cu.bytes, flags), "cudaHostAlloc", err, errlen);
    return CR_OK;
}

static cr_status alloc_device(void **p, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMalloc(p, (size_t)bw_cu.bytes), "cudaMalloc", err, errlen);
    return CR_OK;
}

/* Never more than the device has free, beside what the path already
 * holds, unless --oversubscribe asked for it (cr_cuda_check_free). */
static cr_status alloc_managed(void **p, uint64_t bytes, char *err, size_t errlen)
{
    if (cr_cuda_malloc_managed(p, bytes, bw_cu.placeable_held, bw_cu.oversubscribe, err, errlen) != CR_OK)
        return CR_ERR;
    bw_cu.placeable_held += bytes;
    return CR_OK;
}

/* The host side of an API copy: pageable, pinned or pinned write-combined. */
static cr_status alloc_copy_host(int id, void **role, char *err, size_t errlen)
{
    const bool pageable =
        id == P_H2D_PAGEABLE || id == P_H2D_PAGEABLE_ASYNC || id == P_D2H_PAGEABLE || id == P_D2H_PAGEABLE_ASYNC;
    const unsigned flags = id == P_H2D_PINNED_WC ? cudaHostAllocWriteCombined : cudaHostAllocDefault;
    const cr_status s =
        pageable ? alloc_host(&bw_cu.host, err, errlen) : alloc_pinned(&bw_cu.pinned, flags, err, errlen);
    *role = pageable ? bw_cu.host : bw_cu.pinned;
    return s;
}

/* CPU access: pageable memory on one side, managed or mapped on the other. */
static cr_status alloc_cpu_access(int id, char *err, size_t errlen)
{
    const bool managed = id == P_CPU_WRITE_MANAGED || id == P_CPU_READ_MANAGED;
    const bool write = id == P_CPU_WRITE_MANAGED || id == P_CPU_WRITE_MAPPED;
    if (alloc_host(&bw_cu.host, err, errlen) != CR_OK)
        return CR_ERR;
    const cr_status s =
        managed ? alloc_managed(&bw_cu.managed, bw_cu.bytes, err, errlen)
                : alloc_pinned(&bw_cu.pinned, cudaHostAllocMapped, err, errlen);
    if (s != CR_OK)
        return CR_ERR;
    void *other = managed ? bw_cu.managed : bw_cu.pinned;
    bw_cu.from = write ? bw_cu.host : other;
    bw_cu.to = write ? other : bw_cu.host;
    return CR_OK;
}

/* A kernel's buffer that it reaches in place, by the host's own pointer:
 * managed memory, or malloc'd memory (through HMM or ATS, which may
 * migrate its pages to the device as well). */
static cr_status alloc_in_place(bool managed, char *err, size_t errlen)
{
    void **buffer = managed ? &bw_cu.managed : &bw_cu.host;
    if (!managed && cr_cuda_check_free(bw_cu.bytes, bw_cu.placeable_held, bw_cu.oversubscribe,
                                       "malloc'd memory the device reaches in place", err, errlen) != CR_OK)
        return CR_ERR;
    if ((managed ? alloc_managed(buffer, bw_cu.bytes, err, errlen) : alloc_host(buffer, err, errlen)) != CR_OK)
        return CR_ERR;
    if (!managed)
        bw_cu.placeable_held += bw_cu.bytes;
    bw_cu.to = bw_cu.kernel_ptr = *buffer;
    return CR_OK;
}

/* Allocates the path's buffers and assigns their roles. */
static cr_status allocate(const bw_path *p, char *err, size_t errlen)
{
    switch ((path_id)p->id) {
    case P_KR_MAPPED:
    case P_KW_MAPPED:
        if (alloc_pinned(&bw_cu.pinned, cudaHostAllocMapped, err, errlen) != CR_OK)
            return CR_ERR;
        bw_cu.to = bw_cu.pinned;
        CR_CUDA_CHECK(cudaHostGetDevicePointer(&bw_cu.kernel_ptr, bw_cu.pinned, 0), "cudaHostGetDevicePointer", err,
                      errlen);
        return CR_OK;
    case P_KR_MANAGED:
    case P_KW_MANAGED:
    case P_KR_MANAGED_PREFETCH:
    case P_KW_MANAGED_PREFETCH:
    case P_KR_MALLOC:
    case P_KW_MALLOC:
        return alloc_in_place(p->id != P_KR_MALLOC && p->id != P_KW_MALLOC, err, errlen);
    case P_CPU_WRITE_MANAGED:
    case P_CPU_READ_MANAGED:
    case P_CPU_WRITE_MAPPED:
    case P_CPU_READ_MAPPED:
        return alloc_cpu_access(p->id, err, errlen);
    case P_TECHNIQUE: /* prepare_technique() */
        return CR_OK;
    default: /* API copies and device kernels */
        break;
    }
    const bool h2d = p->id >= P_H2D_PAGEABLE && p->id <= P_H2D_PINNED_WC; /* the enum's runs */
    const bool d2h = p->id >= P_D2H_PAGEABLE && p->id <= P_D2H_PINNED_ASYNC;
    if ((h2d || d2h) && alloc_copy_host(p->id, h2d ? &bw_cu.from : &bw_cu.to, err, errlen) != CR_OK)
        return CR_ERR;
    /* The device side of the transfer; the local path reads a device buffer
     * and writes another, as a device copy does. */
    const bool device_source = p->kind == BW_COPY || p->kind == BW_KERNEL_LOCAL;
    if (bw_cu.from == NULL && device_source && alloc_device(&bw_cu.dev_src, err, errlen) != CR_OK)
        return CR_ERR;
    if (bw_cu.to == NULL && alloc_device(&bw_cu.dev_dst, err, errlen) != CR_OK)
        return CR_ERR;
    if (bw_cu.from == NULL && device_source)
        bw_cu.from = bw_cu.dev_src;
    if (bw_cu.to == NULL)
        bw_cu.to = bw_cu.kernel_ptr = bw_cu.dev_dst;
    bw_cu.dir = on_device(bw_cu.from) ? (on_device(bw_cu.to) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                                : cudaMemcpyHostToDevice;
    return CR_OK;
}

/* Kernel geometry: one thread per uint4 (float4) up to a full-occupancy wave. */
static unsigned blocks_for(uint64_t bytes) { return bw_cuda_blocks(bytes, bw_cu.full_threads, 1, BLOCK); }

/* ---- memory-movement techniques (Lee 2012, §3.1.2) ---- */

enum mem_kind { MEM_DEVICE, MEM_MAPPED, MEM_MANAGED };

/* One technique buffer of size bytes and the kernel's view of it. */
static cr_status alloc_technique(void **p, void **kp, mem_kind mem, size_t size, char *err, size_t errlen)
{
    switch (mem) {
    case MEM_DEVICE:
        CR_CUDA_CHECK(cudaMalloc(p, size), "cudaMalloc", err, errlen);
        CR_CUDA_CHECK(cudaMemset(*p, 0, size), "cudaMemset", err, errlen);
        break;
    case MEM_MAPPED:
        CR_CUDA_CHECK(cudaHostAlloc(p, size, cudaHostAllocMapped), "cudaHostAlloc", err, errlen);
        memset(*p, 0, size);
        break;
    case MEM_MANAGED: /* zeroed by the CPU, so its pages start on the host */
        if (alloc_managed(p, size, err, errlen) != CR_OK)
            return CR_ERR;
        memset(*p, 0, size);
        break;
    }
    *kp = *p;
    if (mem == MEM_MAPPED)
        CR_CUDA_CHECK(cudaHostGetDevicePointer(kp, *p, 0), "cudaHostGetDevicePointer", err, errlen);
    return CR_OK;
}

/* Default: device buffers, cudaMemcpy in and out. CPU-Resident: mapped
 * pinned memory, the CPU memcpy's in and out, the kernel works in place.
 * GPU-Resident: managed memory, the CPU memcpy's in and out, pages migrate on
 * demand. Mixed: managed inputs written by the CPU, a device output copied
 * out. The inputs in host memory are bw_cu.host (pageable, holding src); the
 * output in host memory bw_cu.tdst (pageable). */
static cr_status prepare_technique(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const bool vadd = p->workload == BW_VECTOR_ADD;
    const uint64_t n = bw_cu.bytes / (vadd ? 8 : 4);
    bw_cu.tin_bytes = 4 * n;
    bw_cu.tblocks = blocks_for(bw_cu.tin_bytes);
    bw_cu.tout_bytes = vadd ? 4 * n : bw_cu.tblocks * sizeof(double);
    const mem_kind in = p->technique == BW_DEFAULT        ? MEM_DEVICE
                        : p->technique == BW_CPU_RESIDENT ? MEM_MAPPED
                                                          : MEM_MANAGED;
    const mem_kind out = p->technique == BW_DEFAULT || p->technique == BW_MIXED ? MEM_DEVICE
                         : p->technique == BW_CPU_RESIDENT                      ? MEM_MAPPED
                                                                                : MEM_MANAGED;
    bw_cu.tpinned = p->technique == BW_CPU_RESIDENT; /* how cuda_release frees tin and tout */
    if (alloc_host(&bw_cu.host, err, errlen) != CR_OK)
        return CR_ERR;
    memcpy(bw_cu.host, src, (size_t)bw_cu.bytes);
    if (posix_memalign(&bw_cu.tdst, 4096, (size_t)bw_cu.tout_bytes) != 0) {
        bw_cu.tdst = NULL;
        snprintf(err, errlen, "posix_memalign: cannot allocate %llu bytes", (unsigned long long)bw_cu.tout_bytes);
        return CR_ERR;
    }
    memset(bw_cu.tdst, 0, (size_t)bw_cu.tout_bytes);
    for (int i = 0; i < (vadd ? 2 : 1); ++i)
        if (alloc_technique(&bw_cu.tin[i], &bw_cu.kin[i], in, (size_t)bw_cu.tin_bytes, err, errlen) != CR_OK)
            return CR_ERR;
    if (alloc_technique(&bw_cu.tout, &bw_cu.kout, out, (size_t)bw_cu.tout_bytes, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
    return CR_OK;
}

cr_status cuda_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    cuda_release(p);
    bw_cu.bytes = bytes;
    if (p->kind == BW_TECHNIQUE)
        return prepare_technique(p, src, err, errlen);
    if (runs_transfers(p)) {
        bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
        const unsigned n = bw_cuda_plan(shape_of(p), &bw_cu.topo, plan);
        return bw_transfers_prepare(plan, n, p->engine == BW_ENGINE_KERNEL, &bw_cu.topo, bytes, src, err, errlen);
    }
    bw_cu.blocks = blocks_for(bytes);
    if (allocate(p, err, errlen) != CR_OK)
        return CR_ERR;
    const size_t n = (size_t)bytes;
    /* The CPU stores into host-side buffers; where managed pages start each
     * repetition is cuda_place()'s business. */
    void *data = p->kind == BW_KERNEL_READ ? bw_cu.to : bw_cu.from; /* NULL for kernel writes */
    if (on_device(data))
        CR_CUDA_CHECK(cudaMemcpy(data, src, n, cudaMemcpyHostToDevice), "cudaMemcpy", err, errlen);
    else if (data != NULL)
        memcpy(data, src, n);
    /* Destinations start zeroed: a freed buffer of an earlier path may come
     * back holding the very bytes this one should produce, and would hide a
     * transfer that did nothing. */
    if (p->kind != BW_KERNEL_READ) {
        if (on_device(bw_cu.to))
            CR_CUDA_CHECK(cudaMemset(bw_cu.to, 0, n), "cudaMemset", err, errlen);
        else
            memset(bw_cu.to, 0, n);
    }
    if (p->kind == BW_KERNEL_READ)
        CR_CUDA_CHECK(cudaMalloc(&bw_cu.partial, bw_cu.blocks * sizeof *bw_cu.partial), "cudaMalloc", err, errlen);
    /* CPU access to managed memory starts each cycle on the GPU, where the
     * previous cycle's unmap left it; the first one too. */
    if (p->id == P_CPU_WRITE_MANAGED || p->id == P_CPU_READ_MANAGED) {
        CR_CUDA_CHECK(bw_cu_prefetch(bw_cu.managed, false), "cudaMemPrefetchAsync", err, errlen);
        CR_CUDA_CHECK(cudaStreamSynchronize(bw_cu.stream), "cudaStreamSynchronize", err, errlen);
    }
    return CR_OK;
}

/* The local-memory path allocates as a device copy does; its kernel is
 * the width's. */
cr_status cuda_prepare_local(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err,
                                    size_t errlen)
{
    cuda_release(p);
    if (!bw_local_has_width(v)) {
        snprintf(err, errlen, "CUDA's widest shared-memory access is 4 words (16 bytes, ld.shared.v4): a vector of %u "
                              "words would be the 4-word row's accesses again", v);
        return CR_UNSUPPORTED;
    }
    bw_cu.local_width = v;
    return cuda_prepare(p, bytes, src, err, errlen);
}
