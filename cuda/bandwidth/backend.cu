/* CUDA backend of the bandwidth benchmark: API copies from pageable, pinned
 * and write-combined memory, kernels on device, mapped (zero-copy), managed
 * and malloc'd (HMM/ATS) memory, CPU access to mapped and managed memory,
 * Lee's four memory-movement techniques running vector add and reduce end
 * to end, and nvbandwidth's paths that run several transfers at once or
 * span devices (transfers.cu), and blocks streaming their shared memory
 * in vectors of 1, 2 and 4 words (local_kernel.cu). Allocates, moves and times; the design
 * verifies. Kernels use grid-stride loops over uint4 (float4 for the
 * workloads); the element operations are those of the OpenCL twin
 * (bench/bandwidth/elements.h). */
#include "cuda_device.h"

extern "C" {
#include "bandwidth/backend.h"
#include "path_table.h"
#include "transfer_plan.h"
}

#include "copy_kernel.h"
#include "grid.cuh"
#include "local_kernel.h"
#include "peer_topology.h"
#include "transfers.h"

#include <cstdlib>
#include <cstring>

/* The element operations are bench/bandwidth/elements.h's, as in the
 * OpenCL kernels; the loops differ on purpose (grid-stride over uint4, or
 * float4 for the workloads, where OpenCL follows layout.cl). The contract
 * allows sizes in multiples of 4, the uint4 loops take 16: in every kernel
 * the tail words (at most 3) go to the first threads. */

/* Sums every thread's value over the block through red (BLOCK elements);
 * thread 0 stores the sum in out. Every thread must reach it. */
template <typename T> __device__ __forceinline__ void block_sum_to(T *red, T value, T *out)
{
    red[threadIdx.x] = value;
    __syncthreads();
    for (unsigned half = BLOCK / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            red[threadIdx.x] += red[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = red[0];
}

/* What one element of a sum kernel adds: a read kernel's four words mod
 * 2^64, the reduce's four floats in double. */
__device__ __forceinline__ uint64_t element_sum(uint4 v) { return BW_WORD_SUM4(v); }
__device__ __forceinline__ double element_sum(float4 v) { return (double)v.x + (double)v.y + (double)v.z + (double)v.w; }

/* Sums every E (a uint32_t word, or a float) of in, as vectors V of four
 * and the tail alone, into S; one partial per block. A read kernel's sum
 * keeps the loads live and lets the host check them. */
template <typename E, typename V, typename S>
__global__ void RESIDENT bw_sum(const V *__restrict__ in, S *__restrict__ partial, uint64_t n4, unsigned tail)
{
    __shared__ S red[BLOCK];
    const uint64_t gid = thread_index();
    S sum = 0;
    for (uint64_t i = gid; i < n4; i += grid_threads())
        sum += element_sum(in[i]);
    if (gid < tail)
        sum += reinterpret_cast<const E *>(in + n4)[gid];
    block_sum_to(red, sum, &partial[blockIdx.x]);
}

__global__ void RESIDENT bw_write(uint4 *__restrict__ out, uint64_t n4, unsigned tail, uint32_t seed)
{
    const uint64_t gid = thread_index();
    for (uint64_t i = gid; i < n4; i += grid_threads()) {
        const uint64_t w = 4 * i;
        out[i] = make_uint4(BW_PATTERN_WORD(w, seed), BW_PATTERN_WORD(w + 1, seed), BW_PATTERN_WORD(w + 2, seed),
                            BW_PATTERN_WORD(w + 3, seed));
    }
    if (gid < tail)
        reinterpret_cast<uint32_t *>(out + n4)[gid] = BW_PATTERN_WORD(4 * n4 + gid, seed);
}

/* The workloads of the memory-movement techniques: c = a + b, one float
 * addition per element. */
__global__ void RESIDENT bw_vector_add(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                       float4 *__restrict__ c, uint64_t n4, unsigned tail)
{
    const uint64_t gid = thread_index();
    for (uint64_t i = gid; i < n4; i += grid_threads()) {
        const float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    if (gid < tail)
        reinterpret_cast<float *>(c + n4)[gid] =
            reinterpret_cast<const float *>(a + n4)[gid] + reinterpret_cast<const float *>(b + n4)[gid];
}


static struct {
    cr_cuda cu;
    bool has_managed, concurrent, can_map; /* device attributes */
    int pageable, host_page_tables;        /* cudaDevAttrPageableMemoryAccess(UsesHostPageTables) */
    char malloc_desc[2][200];              /* the malloc paths' descriptions, HMM or ATS named */
    bw_cuda_topology topo;                 /* the devices the multi-device paths span */
    uint64_t full_threads;                 /* SMs * max threads per SM */
    cudaStream_t stream;                   /* async copies, prefetches and kernels */
    /* the prepared path */
    uint64_t bytes;
    unsigned blocks;
    unsigned local_width;    /* the local-memory path's vector, in words */
    void *host;              /* pageable, posix_memalign */
    void *pinned;            /* cudaHostAlloc: default, write-combined or mapped */
    void *dev_src, *dev_dst; /* cudaMalloc */
    void *managed;           /* cudaMallocManaged */
    uint64_t placeable_held; /* bytes the path holds that the device may bring into its memory */
    bool oversubscribe;      /* those may exceed the device memory free */
    uint64_t *partial;       /* kernel reads: one sum per block */
    /* the roles those buffers play for the path */
    void *from, *to;    /* source and destination; kernels: to is the buffer */
    void *kernel_ptr;   /* a kernel's view of to (differs for mapped memory) */
    cudaMemcpyKind dir; /* API copies */
    /* a prepared technique (the inputs in host memory are st.host) */
    void *tin[2], *tout;   /* where the kernel reads its inputs and writes its output */
    void *kin[2], *kout;   /* the kernel's views of them (differ for mapped memory) */
    bool tpinned;          /* tin and tout are cudaHostAlloc'd, else cudaMalloc'd or managed */
    void *tdst;            /* the output in host memory */
    uint64_t tin_bytes, tout_bytes;
    unsigned tblocks;
} st;

static bool runs_transfers(const bw_path *p) { return p->kind == BW_COPY && p->id >= P_TRANSFERS; }
static bw_cuda_shape shape_of(const bw_path *p) { return (bw_cuda_shape)(p->id - P_TRANSFERS); }
static bool malloc_kernel(int id) { return id == P_KR_MALLOC || id == P_KW_MALLOC; }

static bool is_async(int id)
{
    return id == P_H2D_PAGEABLE_ASYNC || id == P_H2D_PINNED_ASYNC || id == P_D2H_PAGEABLE_ASYNC ||
           id == P_D2H_PINNED_ASYNC;
}

/* CUDA 13 takes a cudaMemLocation where CUDA 12 took a device ordinal. */
static cudaError_t prefetch(const void *p, bool to_host)
{
#if CUDART_VERSION >= 13000
    cudaMemLocation loc = {to_host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice, to_host ? 0 : st.cu.dev};
    return cudaMemPrefetchAsync(p, (size_t)st.bytes, loc, 0, st.stream);
#else
    return cudaMemPrefetchAsync(p, (size_t)st.bytes, to_host ? cudaCpuDeviceId : st.cu.dev, st.stream);
#endif
}

static void cuda_release(const bw_path *p)
{
    (void)p;
    bw_transfers_release();
    if (st.stream)
        cudaDeviceSynchronize(); /* an interrupted repetition may still use the buffers */
    free(st.host);
    free(st.tdst);
    cr_cuda_free_host(&st.pinned);
    void **dev[] = {&st.dev_src, &st.dev_dst, &st.managed, (void **)&st.partial};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i)
        cr_cuda_free(dev[i]);
    void **tech[] = {&st.tin[0], &st.tin[1], &st.tout};
    for (size_t i = 0; i < sizeof tech / sizeof tech[0]; ++i)
        (st.tpinned ? cr_cuda_free_host : cr_cuda_free)(tech[i]);
    if (st.stream)
        cudaGetLastError(); /* nothing to report from here; keep it off the next check */
    st.host = st.tdst = NULL;
    st.from = st.to = st.kernel_ptr = NULL;
    st.kin[0] = st.kin[1] = st.kout = NULL;
    st.tpinned = false;
    st.bytes = st.tin_bytes = st.tout_bytes = st.placeable_held = 0;
}

static void cuda_close(void)
{
    cuda_release(NULL);
    if (st.stream)
        cudaStreamDestroy(st.stream);
    st.stream = NULL;
    cr_cuda_close_timed(&st.cu);
}

static cr_status device_attrs(char *err, size_t errlen)
{
    int managed = 0, concurrent = 0, can_map = 0;
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, st.cu.dev), "cudaDeviceGetAttribute", err,
                  errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, st.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, st.cu.dev), "cudaDeviceGetAttribute",
                  err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&st.pageable, cudaDevAttrPageableMemoryAccess, st.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&st.host_page_tables, cudaDevAttrPageableMemoryAccessUsesHostPageTables,
                                         st.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    st.has_managed = managed != 0;
    st.concurrent = concurrent != 0;
    st.can_map = can_map != 0;
    st.full_threads = (uint64_t)st.cu.sms * st.cu.threads_per_sm;
    if (bw_cuda_topology_query(st.cu.dev, &st.topo, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaSetDevice(st.cu.dev), "cudaSetDevice", err, errlen);
    CR_CUDA_CHECK(cudaStreamCreate(&st.stream), "cudaStreamCreate", err, errlen);
    return CR_OK;
}

/* Which of HMM and ATS reaches malloc'd memory goes into the malloc
 * paths' descriptions, which the run prints and records. */
static void name_pageable_access(void)
{
    if (bw_cuda_pageable_refusal(st.pageable) != NULL)
        return;
    for (size_t i = 0; i < bw_cuda_npaths; ++i) {
        bw_path *p = &bw_cuda_paths[i];
        if (!malloc_kernel(p->id))
            continue;
        char *desc = st.malloc_desc[p->id == P_KW_MALLOC];
        snprintf(desc, sizeof st.malloc_desc[0], "kernel %s malloc'd host memory (posix_memalign) in place; %s",
                 p->id == P_KW_MALLOC ? "writes" : "reads", bw_cuda_pageable_label(st.host_page_tables));
        p->desc = desc;
    }
}

static cr_status cuda_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    cr_status s = cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
    if (s != CR_OK)
        return s;
    s = device_attrs(err, errlen);
    if (s != CR_OK)
        cuda_close();
    else
        name_pageable_access();
    return s;
}

static void cuda_oversubscribe(void) { st.oversubscribe = true; }

static size_t cuda_paths(const bw_path **out)
{
    *out = bw_cuda_paths;
    return bw_cuda_npaths;
}

static cr_status cuda_supported(const bw_path *p, char *why, size_t len)
{
    if (runs_transfers(p))
        return bw_cuda_refusal(shape_of(p), p->engine == BW_ENGINE_KERNEL, &st.topo, why, len) ? CR_UNSUPPORTED
                                                                                                  : CR_OK;
    const char *no = NULL;
    switch ((path_id)p->id) {
    case P_TECHNIQUE:
        if (p->technique == BW_CPU_RESIDENT && !st.can_map)
            no = "the device cannot map host memory (cudaDevAttrCanMapHostMemory is 0)";
        else if ((p->technique == BW_GPU_RESIDENT || p->technique == BW_MIXED) && !st.has_managed)
            no = "the device has no managed memory (cudaDevAttrManagedMemory is 0)";
        else if ((p->technique == BW_GPU_RESIDENT || p->technique == BW_MIXED) && !st.concurrent)
            no = "its model's cpu-*-managed paths need concurrent managed access "
                 "(cudaDevAttrConcurrentManagedAccess is 0)";
        break;
    case P_KR_MAPPED:
    case P_KW_MAPPED:
    case P_CPU_WRITE_MAPPED:
    case P_CPU_READ_MAPPED:
        if (!st.can_map)
            no = "the device cannot map host memory (cudaDevAttrCanMapHostMemory is 0)";
        break;
    case P_KR_MANAGED:
    case P_KW_MANAGED:
        if (!st.has_managed)
            no = "the device has no managed memory (cudaDevAttrManagedMemory is 0)";
        break;
    case P_KR_MANAGED_PREFETCH:
    case P_KW_MANAGED_PREFETCH:
    case P_CPU_WRITE_MANAGED:
    case P_CPU_READ_MANAGED:
        if (!st.has_managed)
            no = "the device has no managed memory (cudaDevAttrManagedMemory is 0)";
        else if (!st.concurrent)
            no = "cudaMemPrefetchAsync needs concurrent managed access (cudaDevAttrConcurrentManagedAccess is 0)";
        break;
    case P_KR_MALLOC:
    case P_KW_MALLOC:
        no = bw_cuda_pageable_refusal(st.pageable);
        break;
    default:
        break;
    }
    if (no == NULL)
        return CR_OK;
    snprintf(why, len, "%s", no);
    return CR_UNSUPPORTED;
}

/* ---- preparation ---- */

static cr_status alloc_host(void **p, char *err, size_t errlen) { return bw_alloc_host(p, st.bytes, err, errlen); }

static cr_status alloc_pinned(void **p, unsigned flags, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaHostAlloc(p, (size_t)st.bytes, flags), "cudaHostAlloc", err, errlen);
    return CR_OK;
}

static cr_status alloc_device(void **p, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMalloc(p, (size_t)st.bytes), "cudaMalloc", err, errlen);
    return CR_OK;
}

/* Never more than the device has free, beside what the path already
 * holds, unless --oversubscribe asked for it (cr_cuda_check_free). */
static cr_status alloc_managed(void **p, uint64_t bytes, char *err, size_t errlen)
{
    if (cr_cuda_malloc_managed(p, bytes, st.placeable_held, st.oversubscribe, err, errlen) != CR_OK)
        return CR_ERR;
    st.placeable_held += bytes;
    return CR_OK;
}

static bool on_device(const void *p) { return p != NULL && (p == st.dev_src || p == st.dev_dst); }

/* The host side of an API copy: pageable, pinned or pinned write-combined. */
static cr_status alloc_copy_host(int id, void **role, char *err, size_t errlen)
{
    const bool pageable =
        id == P_H2D_PAGEABLE || id == P_H2D_PAGEABLE_ASYNC || id == P_D2H_PAGEABLE || id == P_D2H_PAGEABLE_ASYNC;
    const unsigned flags = id == P_H2D_PINNED_WC ? cudaHostAllocWriteCombined : cudaHostAllocDefault;
    const cr_status s = pageable ? alloc_host(&st.host, err, errlen) : alloc_pinned(&st.pinned, flags, err, errlen);
    *role = pageable ? st.host : st.pinned;
    return s;
}

/* CPU access: pageable memory on one side, managed or mapped on the other. */
static cr_status alloc_cpu_access(int id, char *err, size_t errlen)
{
    const bool managed = id == P_CPU_WRITE_MANAGED || id == P_CPU_READ_MANAGED;
    const bool write = id == P_CPU_WRITE_MANAGED || id == P_CPU_WRITE_MAPPED;
    if (alloc_host(&st.host, err, errlen) != CR_OK)
        return CR_ERR;
    const cr_status s =
        managed ? alloc_managed(&st.managed, st.bytes, err, errlen)
                : alloc_pinned(&st.pinned, cudaHostAllocMapped, err, errlen);
    if (s != CR_OK)
        return CR_ERR;
    void *other = managed ? st.managed : st.pinned;
    st.from = write ? st.host : other;
    st.to = write ? other : st.host;
    return CR_OK;
}

/* A kernel's buffer that it reaches in place, by the host's own pointer:
 * managed memory, or malloc'd memory (through HMM or ATS, which may
 * migrate its pages to the device as well). */
static cr_status alloc_in_place(bool managed, char *err, size_t errlen)
{
    void **buffer = managed ? &st.managed : &st.host;
    if (!managed && cr_cuda_check_free(st.bytes, st.placeable_held, st.oversubscribe,
                                       "malloc'd memory the device reaches in place", err, errlen) != CR_OK)
        return CR_ERR;
    if ((managed ? alloc_managed(buffer, st.bytes, err, errlen) : alloc_host(buffer, err, errlen)) != CR_OK)
        return CR_ERR;
    if (!managed)
        st.placeable_held += st.bytes;
    st.to = st.kernel_ptr = *buffer;
    return CR_OK;
}

/* Allocates the path's buffers and assigns their roles. */
static cr_status allocate(const bw_path *p, char *err, size_t errlen)
{
    switch ((path_id)p->id) {
    case P_KR_MAPPED:
    case P_KW_MAPPED:
        if (alloc_pinned(&st.pinned, cudaHostAllocMapped, err, errlen) != CR_OK)
            return CR_ERR;
        st.to = st.pinned;
        CR_CUDA_CHECK(cudaHostGetDevicePointer(&st.kernel_ptr, st.pinned, 0), "cudaHostGetDevicePointer", err,
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
    if ((h2d || d2h) && alloc_copy_host(p->id, h2d ? &st.from : &st.to, err, errlen) != CR_OK)
        return CR_ERR;
    /* The device side of the transfer; the local path reads a device buffer
     * and writes another, as a device copy does. */
    const bool device_source = p->kind == BW_COPY || p->kind == BW_KERNEL_LOCAL;
    if (st.from == NULL && device_source && alloc_device(&st.dev_src, err, errlen) != CR_OK)
        return CR_ERR;
    if (st.to == NULL && alloc_device(&st.dev_dst, err, errlen) != CR_OK)
        return CR_ERR;
    if (st.from == NULL && device_source)
        st.from = st.dev_src;
    if (st.to == NULL)
        st.to = st.kernel_ptr = st.dev_dst;
    st.dir = on_device(st.from) ? (on_device(st.to) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                                : cudaMemcpyHostToDevice;
    return CR_OK;
}

/* Kernel geometry: one thread per uint4 (float4) up to a full-occupancy wave. */
static unsigned blocks_for(uint64_t bytes) { return bw_cuda_blocks(bytes, st.full_threads, 1, BLOCK); }

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
 * out. The inputs in host memory are st.host (pageable, holding src); the
 * output in host memory st.tdst (pageable). */
static cr_status prepare_technique(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const bool vadd = p->workload == BW_VECTOR_ADD;
    const uint64_t n = st.bytes / (vadd ? 8 : 4);
    st.tin_bytes = 4 * n;
    st.tblocks = blocks_for(st.tin_bytes);
    st.tout_bytes = vadd ? 4 * n : st.tblocks * sizeof(double);
    const mem_kind in = p->technique == BW_DEFAULT        ? MEM_DEVICE
                        : p->technique == BW_CPU_RESIDENT ? MEM_MAPPED
                                                          : MEM_MANAGED;
    const mem_kind out = p->technique == BW_DEFAULT || p->technique == BW_MIXED ? MEM_DEVICE
                         : p->technique == BW_CPU_RESIDENT                      ? MEM_MAPPED
                                                                                : MEM_MANAGED;
    st.tpinned = p->technique == BW_CPU_RESIDENT; /* how cuda_release frees tin and tout */
    if (alloc_host(&st.host, err, errlen) != CR_OK)
        return CR_ERR;
    memcpy(st.host, src, (size_t)st.bytes);
    if (posix_memalign(&st.tdst, 4096, (size_t)st.tout_bytes) != 0) {
        st.tdst = NULL;
        snprintf(err, errlen, "posix_memalign: cannot allocate %llu bytes", (unsigned long long)st.tout_bytes);
        return CR_ERR;
    }
    memset(st.tdst, 0, (size_t)st.tout_bytes);
    for (int i = 0; i < (vadd ? 2 : 1); ++i)
        if (alloc_technique(&st.tin[i], &st.kin[i], in, (size_t)st.tin_bytes, err, errlen) != CR_OK)
            return CR_ERR;
    if (alloc_technique(&st.tout, &st.kout, out, (size_t)st.tout_bytes, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
    return CR_OK;
}

static cr_status cuda_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    cuda_release(p);
    st.bytes = bytes;
    if (p->kind == BW_TECHNIQUE)
        return prepare_technique(p, src, err, errlen);
    if (runs_transfers(p)) {
        bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
        const unsigned n = bw_cuda_plan(shape_of(p), &st.topo, plan);
        return bw_transfers_prepare(plan, n, p->engine == BW_ENGINE_KERNEL, &st.topo, bytes, src, err, errlen);
    }
    st.blocks = blocks_for(bytes);
    if (allocate(p, err, errlen) != CR_OK)
        return CR_ERR;
    const size_t n = (size_t)bytes;
    /* The CPU stores into host-side buffers; where managed pages start each
     * repetition is cuda_place()'s business. */
    void *data = p->kind == BW_KERNEL_READ ? st.to : st.from; /* NULL for kernel writes */
    if (on_device(data))
        CR_CUDA_CHECK(cudaMemcpy(data, src, n, cudaMemcpyHostToDevice), "cudaMemcpy", err, errlen);
    else if (data != NULL)
        memcpy(data, src, n);
    /* Destinations start zeroed: a freed buffer of an earlier path may come
     * back holding the very bytes this one should produce, and would hide a
     * transfer that did nothing. */
    if (p->kind != BW_KERNEL_READ) {
        if (on_device(st.to))
            CR_CUDA_CHECK(cudaMemset(st.to, 0, n), "cudaMemset", err, errlen);
        else
            memset(st.to, 0, n);
    }
    if (p->kind == BW_KERNEL_READ)
        CR_CUDA_CHECK(cudaMalloc(&st.partial, st.blocks * sizeof *st.partial), "cudaMalloc", err, errlen);
    /* CPU access to managed memory starts each cycle on the GPU, where the
     * previous cycle's unmap left it; the first one too. */
    if (p->id == P_CPU_WRITE_MANAGED || p->id == P_CPU_READ_MANAGED) {
        CR_CUDA_CHECK(prefetch(st.managed, false), "cudaMemPrefetchAsync", err, errlen);
        CR_CUDA_CHECK(cudaStreamSynchronize(st.stream), "cudaStreamSynchronize", err, errlen);
    }
    return CR_OK;
}

/* The local-memory path allocates as a device copy does; its kernel is
 * the width's. */
static cr_status cuda_prepare_local(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err,
                                    size_t errlen)
{
    cuda_release(p);
    if (!bw_local_has_width(v)) {
        snprintf(err, errlen, "CUDA's widest shared-memory access is 4 words (16 bytes, ld.shared.v4): a vector of %u "
                              "words would be the 4-word row's accesses again", v);
        return CR_UNSUPPORTED;
    }
    st.local_width = v;
    return cuda_prepare(p, bytes, src, err, errlen);
}

/* ---- repetitions ---- */

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
    for (uint64_t i = 0; i < st.bytes; i += 4096)
        sink ^= bytes[i];
    (void)sink;
    return CR_OK;
}

/* Where concurrent managed access lets the runtime prefetch, a prefetch;
 * elsewhere (no prefetch there) the CPU faults every page back. */
static cr_status managed_to_host(char *err, size_t errlen)
{
    if (st.concurrent) {
        CR_CUDA_CHECK(prefetch(st.managed, true), "cudaMemPrefetchAsync", err, errlen);
        CR_CUDA_CHECK(cudaStreamSynchronize(st.stream), "cudaStreamSynchronize", err, errlen);
        return CR_OK;
    }
    return fault_pages_home(st.managed, err, errlen);
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
        return fault_pages_home(st.host, err, errlen);
    return managed_kernel(p->id) ? managed_to_host(err, errlen) : CR_OK;
}

static void host_timed(cr_timing *t, uint64_t t0)
{
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false;
    t->ev_start_ns = t->ev_end_ns = 0;
}

static cr_status launch(const bw_path *p, char *err, size_t errlen)
{
    const uint64_t n4 = st.bytes / 16;
    const unsigned tail = (unsigned)(st.bytes % 16 / 4);
    if (p->id == P_D2D_KERNEL) {
        CR_CUDA_CHECK(bw_launch_copy(st.from, st.to, st.bytes, st.blocks, st.stream), "cudaLaunchKernel", err, errlen);
        return CR_OK;
    }
    if (p->kind == BW_KERNEL_LOCAL) {
        CR_CUDA_CHECK(bw_launch_local(st.from, st.to, st.bytes, st.local_width, st.stream), "cudaLaunchKernel", err,
                      errlen);
        return CR_OK;
    }
    if (p->kind == BW_KERNEL_READ)
        bw_sum<uint32_t><<<st.blocks, BLOCK, 0, st.stream>>>((const uint4 *)st.kernel_ptr, st.partial, n4, tail);
    else
        bw_write<<<st.blocks, BLOCK, 0, st.stream>>>((uint4 *)st.kernel_ptr, n4, tail, (uint32_t)st.bytes);
    CR_CUDA_CHECK(cudaGetLastError(), "cudaLaunchKernel", err, errlen);
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
    return sync_copy || pageable_async || prefetch || (managed_kernel(p->id) && !st.concurrent);
}

/* Async work is bracketed on st.stream and the timer's stop is the
 * synchronisation; a blocking cudaMemcpy runs on the legacy stream 0, so its
 * events go there. */
static cr_status run_device(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    const bool sync_copy = p->kind == BW_COPY && p->id != P_D2D_KERNEL && !is_async(p->id);
    cudaStream_t s = sync_copy ? 0 : st.stream;
    const size_t n = (size_t)st.bytes;
    const cr_status started = may_block_host(p, sync_copy) ? cr_cuda_timer_start_ungated(&st.cu.timer, s, err, errlen)
                                                           : cr_cuda_timer_start(&st.cu.timer, s, err, errlen);
    if (started != CR_OK)
        return CR_ERR;
    if (sync_copy)
        CR_CUDA_CHECK(cudaMemcpy(st.to, st.from, n, st.dir), "cudaMemcpy", err, errlen);
    else if (is_async(p->id))
        CR_CUDA_CHECK(cudaMemcpyAsync(st.to, st.from, n, st.dir, st.stream), "cudaMemcpyAsync", err, errlen);
    else {
        if (p->id == P_KR_MANAGED_PREFETCH || p->id == P_KW_MANAGED_PREFETCH)
            CR_CUDA_CHECK(prefetch(st.managed, false), "cudaMemPrefetchAsync", err, errlen);
        if (launch(p, err, errlen) != CR_OK)
            return CR_ERR;
    }
    return cr_cuda_timer_stop(&st.cu.timer, s, t, err, errlen);
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
        memcpy(st.to, st.from, (size_t)st.bytes);
        host_timed(t, t0);
        return CR_OK;
    }
    if (!managed) {
        CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
        host_timed(t, t0);
        return CR_OK;
    }
    /* ungated: the driver may do a prefetch's page-table work before it returns */
    if (cr_cuda_timer_start_ungated(&st.cu.timer, st.stream, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(prefetch(st.managed, phase == 0), "cudaMemPrefetchAsync", err, errlen);
    return cr_cuda_timer_stop(&st.cu.timer, st.stream, t, err, errlen);
}

/* One repetition, host-timed: a technique is several commands and host work.
 * Everything runs on stream 0, where the blocking cudaMemcpy calls run too, so
 * they order with the kernel. cudaMemcpy into pageable memory returns once
 * the copy is done; the CPU reads its output only after a synchronisation. */
static cr_status run_technique(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    const bool vadd = p->workload == BW_VECTOR_ADD;
    const bool copy_in = p->technique == BW_DEFAULT, copy_out = p->technique == BW_DEFAULT || p->technique == BW_MIXED;
    const size_t in = (size_t)st.tin_bytes, out = (size_t)st.tout_bytes;
    const uint64_t n4 = st.tin_bytes / 16;
    const unsigned tail = (unsigned)(st.tin_bytes % 16 / 4);
    const uint64_t t0 = cr_now_ns();
    for (int i = 0; i < (vadd ? 2 : 1); ++i) {
        const char *from = (const char *)st.host + i * in;
        if (copy_in)
            CR_CUDA_CHECK(cudaMemcpy(st.tin[i], from, in, cudaMemcpyHostToDevice), "cudaMemcpy(technique input)", err,
                          errlen);
        else
            memcpy(st.tin[i], from, in);
    }
    if (vadd)
        bw_vector_add<<<st.tblocks, BLOCK, 0, 0>>>((const float4 *)st.kin[0], (const float4 *)st.kin[1],
                                                   (float4 *)st.kout, n4, tail);
    else
        bw_sum<float><<<st.tblocks, BLOCK, 0, 0>>>((const float4 *)st.kin[0], (double *)st.kout, n4, tail);
    CR_CUDA_CHECK(cudaGetLastError(), "cudaLaunchKernel", err, errlen);
    if (copy_out)
        CR_CUDA_CHECK(cudaMemcpy(st.tdst, st.tout, out, cudaMemcpyDeviceToHost), "cudaMemcpy(technique output)", err,
                      errlen);
    else {
        CR_CUDA_CHECK(cudaStreamSynchronize(0), "cudaStreamSynchronize", err, errlen);
        memcpy(st.tdst, st.tout, out);
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
        return bw_transfers_run(&st.cu.timer, st.stream, t, err, errlen);
    return run_device(p, t, err, errlen);
}

/* ---- results ---- */

/* Vector add: c as it is; reduce: the sum of the partials. */
static void technique_result(const bw_path *p, void *dst)
{
    bw_technique_output(p->workload == BW_VECTOR_ADD, st.tdst, st.tout_bytes, st.tblocks, dst);
}

static cr_status cuda_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
    if (p->kind == BW_TECHNIQUE) {
        technique_result(p, dst);
        return CR_OK;
    }
    if (runs_transfers(p))
        return bw_transfers_result(dst, err, errlen);
    if (p->kind != BW_KERNEL_READ) {
        /* Device and managed memory through the runtime; host memory, mapped
         * included, as the CPU sees it. */
        if (on_device(st.to) || st.to == st.managed)
            CR_CUDA_CHECK(cudaMemcpy(dst, st.to, (size_t)st.bytes, cudaMemcpyDefault), "cudaMemcpy", err, errlen);
        else
            memcpy(dst, st.to, (size_t)st.bytes);
        return CR_OK;
    }
    uint64_t *partial = (uint64_t *)malloc(st.blocks * sizeof *partial);
    if (partial == NULL) {
        snprintf(err, errlen, "out of memory");
        return CR_ERR;
    }
    cudaError_t rc = cudaMemcpy(partial, st.partial, st.blocks * sizeof *partial, cudaMemcpyDeviceToHost);
    *sum = 0;
    for (unsigned i = 0; rc == cudaSuccess && i < st.blocks; ++i)
        *sum += partial[i];
    free(partial);
    CR_CUDA_CHECK(rc, "cudaMemcpy", err, errlen);
    return CR_OK;
}

/* A path of several transfers delivers each one's destination. */
static unsigned cuda_transfers(const bw_path *p)
{
    if (!runs_transfers(p))
        return 1;
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    const unsigned n = bw_cuda_plan(shape_of(p), &st.topo, plan);
    return n ? n : 1;
}

extern "C" {
extern const bw_backend bandwidth_cuda_backend;
const bw_backend bandwidth_cuda_backend = {
    {"cuda", cr_cuda_list, cuda_open, cuda_close}, cuda_paths, cuda_supported, cuda_prepare, cuda_place, cuda_run,
    cuda_result, cuda_release, cuda_transfers, bw_cuda_peer_links, cuda_prepare_local, cuda_oversubscribe,
};
}
