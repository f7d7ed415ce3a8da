/* The OpenCL bandwidth backend's allocation and preparation (prepare.h):
 * every path's buffers, filled with its source and its destination zeroed,
 * and their release. */
#define _POSIX_C_SOURCE 200809L
#include "prepare.h"

#include <stdlib.h>
#include <string.h>

void bw_cl_release(const bw_path *p)
{
    (void)p;
    if (bw_cl.pinned && bw_cl.pinned_ptr)
        clEnqueueUnmapMemObject(bw_cl.cl.queue, bw_cl.pinned, bw_cl.pinned_ptr, 0, NULL, NULL);
    if (bw_cl.pinned_out && bw_cl.pinned_out_ptr)
        clEnqueueUnmapMemObject(bw_cl.cl.queue, bw_cl.pinned_out, bw_cl.pinned_out_ptr, 0, NULL, NULL);
    if (bw_cl.queue2)
        clFinish(bw_cl.queue2);
    if (bw_cl.mapped) /* an interrupted map/access/unmap cycle */
        clEnqueueUnmapMemObject(bw_cl.cl.queue, bw_cl.dst ? bw_cl.dst : bw_cl.src, bw_cl.mapped, 0, NULL, NULL);
    if (bw_cl.cl.queue)
        clFinish(bw_cl.cl.queue);
    cl_mem *mems[] = {&bw_cl.src,     &bw_cl.dst,    &bw_cl.pinned, &bw_cl.pinned_out,
                      &bw_cl.partial, &bw_cl.tin[0], &bw_cl.tin[1], &bw_cl.tout};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i)
        cr_cl_release_mem(mems[i]);
    if (bw_cl.svm_ptr)
        clSVMFree(bw_cl.cl.context, bw_cl.svm_ptr);
    free(bw_cl.host);
    free(bw_cl.host_block);
    free(bw_cl.system_ptr);
    free(bw_cl.tsrc);
    free(bw_cl.tdst);
    bw_cl.svm_ptr = bw_cl.host = bw_cl.host_block = bw_cl.system_ptr = bw_cl.pinned_ptr = bw_cl.pinned_out_ptr =
        bw_cl.mapped = bw_cl.tsrc = bw_cl.tdst = NULL;
}

static cr_status make_buffer(cl_mem *out, cl_mem_flags flags, void *host_ptr, char *err, size_t errlen)
{
    cl_int rc;
    *out = clCreateBuffer(bw_cl.cl.context, flags, (size_t)bw_cl.bytes, host_ptr, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    return CR_OK;
}

static cr_status zero(cl_mem m, char *err, size_t errlen)
{
    const cl_uint nothing = 0;
    CR_CL_CHECK(clEnqueueFillBuffer(bw_cl.cl.queue, m, &nothing, sizeof nothing, 0, (size_t)bw_cl.bytes, 0, NULL, NULL),
                "clEnqueueFillBuffer", err, errlen);
    CR_CL_CHECK(clFinish(bw_cl.cl.queue), "clFinish", err, errlen);
    return CR_OK;
}

static cr_status fill(cl_mem m, const void *src, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueWriteBuffer(bw_cl.cl.queue, m, CL_TRUE, 0, (size_t)bw_cl.bytes, src, 0, NULL, NULL),
                "clEnqueueWriteBuffer", err, errlen);
    return CR_OK;
}

static cr_status alloc_host(void **out, char *err, size_t errlen)
{
    return bw_alloc_host(out, bw_cl.bytes, err, errlen);
}

/* A pinned host pointer: an ALLOC_HOST_PTR buffer mapped for the path's life. */
static cr_status alloc_pinned_into(cl_mem *buf, void **ptr, char *err, size_t errlen)
{
    if (make_buffer(buf, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, NULL, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    *ptr = clEnqueueMapBuffer(bw_cl.cl.queue, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, (size_t)bw_cl.bytes, 0,
                              NULL, NULL, &rc);
    CR_CL_CHECK(rc, "clEnqueueMapBuffer", err, errlen);
    return CR_OK;
}

static cr_status alloc_pinned(char *err, size_t errlen)
{
    return alloc_pinned_into(&bw_cl.pinned, &bw_cl.pinned_ptr, err, errlen);
}

/* USE_HOST_PTR: host memory aligned as the device asks, or 16 bytes off. */
static cr_status alloc_use_host(cl_mem_flags access, bool misaligned, const void *src, char *err, size_t errlen)
{
    if (posix_memalign(&bw_cl.host_block, bw_cl.base_align, (size_t)bw_cl.bytes + bw_cl.base_align) != 0) {
        bw_cl.host_block = NULL;
        snprintf(err, errlen, "cannot allocate %llu bytes of host memory", (unsigned long long)bw_cl.bytes);
        return CR_ERR;
    }
    void *ptr = (char *)bw_cl.host_block + (misaligned ? 16 : 0);
    if (src)
        memcpy(ptr, src, (size_t)bw_cl.bytes);
    return make_buffer(&bw_cl.dst, CL_MEM_USE_HOST_PTR | access, ptr, err, errlen);
}

static cr_status alloc_svm(bool fine, const void *src, char *err, size_t errlen)
{
    cl_svm_mem_flags flags = CL_MEM_READ_WRITE | (fine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
    bw_cl.svm_ptr = clSVMAlloc(bw_cl.cl.context, flags, (size_t)bw_cl.bytes, 0);
    if (bw_cl.svm_ptr == NULL) {
        snprintf(err, errlen, "clSVMAlloc of %llu bytes failed", (unsigned long long)bw_cl.bytes);
        return CR_ERR;
    }
    if (src == NULL)
        return CR_OK;
    if (!fine)
        CR_CL_CHECK(
            clEnqueueSVMMap(bw_cl.cl.queue, CL_TRUE, CL_MAP_WRITE, bw_cl.svm_ptr, (size_t)bw_cl.bytes, 0, NULL, NULL),
            "clEnqueueSVMMap", err, errlen);
    memcpy(bw_cl.svm_ptr, src, (size_t)bw_cl.bytes);
    if (!fine) {
        CR_CL_CHECK(clEnqueueSVMUnmap(bw_cl.cl.queue, bw_cl.svm_ptr, 0, NULL, NULL), "clEnqueueSVMUnmap", err, errlen);
        CR_CL_CHECK(clFinish(bw_cl.cl.queue), "clFinish", err, errlen);
    }
    return CR_OK;
}

static bool host_resident(const bw_path *p) { return p->technique == BW_CPU_RESIDENT; }

static cr_status prepare_technique(const bw_path *p, const void *src, char *err, size_t errlen)
{
    bool vadd = p->workload == BW_VECTOR_ADD;
    uint64_t n = bw_cl.bytes / (vadd ? 8 : 4);
    cr_cl_default_geometry(&bw_cl.cl, n, &bw_cl.work_items, &bw_cl.work_group);
    bw_cl.groups = bw_cl.work_items / bw_cl.work_group;
    bw_cl.tin_bytes = n * 4;
    bw_cl.tout_bytes = vadd ? n * 4 : bw_cl.groups * sizeof(double);
    /* CPU-Resident keeps everything in host buffers, with Lee's Garlic flags. */
    cl_mem_flags in_flags = host_resident(p) ? CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    cl_mem_flags out_flags = host_resident(p) ? CL_MEM_ALLOC_HOST_PTR | CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
    cl_int rc = CL_SUCCESS;
    for (int i = 0; i < (vadd ? 2 : 1) && rc == CL_SUCCESS; ++i)
        bw_cl.tin[i] = clCreateBuffer(bw_cl.cl.context, in_flags, (size_t)bw_cl.tin_bytes, NULL, &rc);
    if (rc == CL_SUCCESS)
        bw_cl.tout = clCreateBuffer(bw_cl.cl.context, out_flags, (size_t)bw_cl.tout_bytes, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    bw_cl.tsrc = malloc((size_t)bw_cl.bytes);
    bw_cl.tdst = calloc(1, (size_t)bw_cl.tout_bytes);
    if (bw_cl.tsrc == NULL || bw_cl.tdst == NULL) {
        snprintf(err, errlen, "out of host memory");
        return CR_ERR;
    }
    memcpy(bw_cl.tsrc, src, (size_t)bw_cl.bytes);
    return CR_OK;
}

/* The target of a kernel write starts zeroed, whatever memory it is. */
static cr_status zero_target(char *err, size_t errlen)
{
    if (bw_cl.system_ptr) {
        memset(bw_cl.system_ptr, 0, (size_t)bw_cl.bytes);
        return CR_OK;
    }
    if (bw_cl.svm_ptr == NULL)
        return zero(bw_cl.dst, err, errlen);
    CR_CL_CHECK(clEnqueueSVMMemFill(bw_cl.cl.queue, bw_cl.svm_ptr, &(cl_uint){0}, sizeof(cl_uint), (size_t)bw_cl.bytes,
                                    0, NULL, NULL),
                "clEnqueueSVMMemFill", err, errlen);
    CR_CL_CHECK(clFinish(bw_cl.cl.queue), "clFinish", err, errlen);
    return CR_OK;
}

/* Duplex: host -> device buffer A (bw_cl.dst) and device buffer B (bw_cl.src) ->
 * host at once. The copy engine's form moves between mapped pinned
 * pointers, the kernels' form between ALLOC_HOST_PTR buffers they address. */
static cr_status prepare_duplex(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    if (make_buffer(&bw_cl.dst, rw, NULL, err, errlen) != CR_OK || zero(bw_cl.dst, err, errlen) != CR_OK ||
        make_buffer(&bw_cl.src, rw, NULL, err, errlen) != CR_OK || fill(bw_cl.src, src, err, errlen) != CR_OK)
        return CR_ERR;
    if (p->id == P_DUPLEX_KERNEL) {
        if (make_buffer(&bw_cl.pinned, rw | CL_MEM_ALLOC_HOST_PTR, NULL, err, errlen) != CR_OK ||
            fill(bw_cl.pinned, src, err, errlen) != CR_OK ||
            make_buffer(&bw_cl.pinned_out, rw | CL_MEM_ALLOC_HOST_PTR, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        return zero(bw_cl.pinned_out, err, errlen);
    }
    if (alloc_pinned(err, errlen) != CR_OK ||
        alloc_pinned_into(&bw_cl.pinned_out, &bw_cl.pinned_out_ptr, err, errlen) != CR_OK)
        return CR_ERR;
    memcpy(bw_cl.pinned_ptr, src, (size_t)bw_cl.bytes);
    memset(bw_cl.pinned_out_ptr, 0, (size_t)bw_cl.bytes);
    return CR_OK;
}

/* clEnqueueWriteBuffer or clEnqueueReadBuffer between host memory, pageable
 * or pinned, and a device buffer. */
static cr_status prepare_host_transfer(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const bool pinned = p->id == P_H2D_PINNED || p->id == P_H2D_PINNED_ASYNC || p->id == P_D2H_PINNED ||
                        p->id == P_D2H_PINNED_ASYNC;
    const bool h2d = p->id == P_H2D_PAGEABLE || p->id == P_H2D_PAGEABLE_ASYNC || p->id == P_H2D_PINNED ||
                     p->id == P_H2D_PINNED_ASYNC;
    if ((pinned ? alloc_pinned(err, errlen) : alloc_host(&bw_cl.host, err, errlen)) != CR_OK)
        return CR_ERR;
    void *host = pinned ? bw_cl.pinned_ptr : bw_cl.host;
    if (h2d) {
        memcpy(host, src, (size_t)bw_cl.bytes);
        return make_buffer(&bw_cl.dst, CL_MEM_READ_WRITE, NULL, err, errlen) == CR_OK ? zero(bw_cl.dst, err, errlen)
                                                                                      : CR_ERR;
    }
    if (make_buffer(&bw_cl.src, CL_MEM_READ_WRITE, NULL, err, errlen) != CR_OK)
        return CR_ERR;
    memset(host, 0, (size_t)bw_cl.bytes);
    return fill(bw_cl.src, src, err, errlen);
}

/* One buffer to another, by the API's copy or a kernel; which of them
 * lives in host memory (ALLOC_HOST_PTR) is the path. */
static cr_status prepare_buffer_copy(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    bool from_host = p->id == P_H2D_COPY_BUFFER_PINNED || p->id == P_H2D_KERNEL_PINNED;
    bool to_host = p->id == P_D2H_COPY_BUFFER_PINNED || p->id == P_D2H_KERNEL_PINNED;
    if (make_buffer(&bw_cl.src, rw | (from_host ? CL_MEM_ALLOC_HOST_PTR : 0), NULL, err, errlen) != CR_OK ||
        make_buffer(&bw_cl.dst, rw | (to_host ? CL_MEM_ALLOC_HOST_PTR : 0), NULL, err, errlen) != CR_OK ||
        zero(bw_cl.dst, err, errlen) != CR_OK)
        return CR_ERR;
    return fill(bw_cl.src, src, err, errlen);
}

/* The copies; the multi-device paths cannot run, and the local-memory
 * path has a prepare of its own. */
static cr_status prepare_copy(const bw_path *p, const void *src, char *err, size_t errlen)
{
    switch ((enum path_id)p->id) {
    case P_H2D_PAGEABLE:
    case P_H2D_PAGEABLE_ASYNC:
    case P_H2D_PINNED:
    case P_H2D_PINNED_ASYNC:
    case P_D2H_PAGEABLE:
    case P_D2H_PAGEABLE_ASYNC:
    case P_D2H_PINNED:
    case P_D2H_PINNED_ASYNC:
        return prepare_host_transfer(p, src, err, errlen);
    case P_D2D_COPY:
    case P_D2D_KERNEL:
    case P_H2D_COPY_BUFFER_PINNED:
    case P_H2D_KERNEL_PINNED:
    case P_D2H_COPY_BUFFER_PINNED:
    case P_D2H_KERNEL_PINNED:
        return prepare_buffer_copy(p, src, err, errlen);
    case P_DUPLEX_COPY:
    case P_DUPLEX_KERNEL:
        return prepare_duplex(p, src, err, errlen);
    default:
        break;
    }
    snprintf(err, errlen, "%s", p->id == P_LOCAL ? "the local-memory path is prepared per vector width "
                                                   "(prepare_local)"
                                                 : "a multi-device path cannot run on OpenCL");
    return CR_ERR;
}

/* CPU access through a map of a host (ALLOC_HOST_PTR) or a device buffer,
 * from or into pageable memory. */
static cr_status prepare_cpu_access(const bw_path *p, const void *src, char *err, size_t errlen)
{
    bool host = p->id == P_CPU_WRITE_HOST || p->id == P_CPU_READ_HOST;
    if (make_buffer(&bw_cl.dst, CL_MEM_READ_WRITE | (host ? CL_MEM_ALLOC_HOST_PTR : 0), NULL, err, errlen) != CR_OK ||
        alloc_host(&bw_cl.host, err, errlen) != CR_OK)
        return CR_ERR;
    if (p->id == P_CPU_WRITE_HOST || p->id == P_CPU_WRITE_DEVICE) {
        memcpy(bw_cl.host, src, (size_t)bw_cl.bytes); /* the CPU copies from here into the map */
        return zero(bw_cl.dst, err, errlen);
    }
    memset(bw_cl.host, 0, (size_t)bw_cl.bytes);
    return fill(bw_cl.dst, src, err, errlen);
}

/* The memory a kernel reads or writes: device, ALLOC_HOST_PTR,
 * USE_HOST_PTR, SVM or malloc'd; a read's source filled and its partial
 * sums allocated, a write's target zeroed. */
static cr_status prepare_kernel_target(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    bool read = p->kind == BW_KERNEL_READ;
    switch ((enum path_id)p->id) {
    case P_KR_DEVICE:
    case P_KW_DEVICE:
        if (make_buffer(&bw_cl.dst, rw, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        break;
    case P_KR_HOST_RO:
    case P_KR_HOST_RW:
    case P_KW_HOST_WO:
    case P_KW_HOST_RW: {
        cl_mem_flags access = p->id == P_KR_HOST_RO ? CL_MEM_READ_ONLY : p->id == P_KW_HOST_WO ? CL_MEM_WRITE_ONLY : rw;
        if (make_buffer(&bw_cl.dst, CL_MEM_ALLOC_HOST_PTR | access, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        break;
    }
    case P_KR_USE_RO:
    case P_KR_USE_RW:
    case P_KW_USE_WO:
    case P_KW_USE_RW:
    case P_KR_USE_MISALIGNED:
    case P_KW_USE_MISALIGNED: {
        cl_mem_flags access = p->id == P_KR_USE_RO ? CL_MEM_READ_ONLY : p->id == P_KW_USE_WO ? CL_MEM_WRITE_ONLY : rw;
        bool mis = p->id == P_KR_USE_MISALIGNED || p->id == P_KW_USE_MISALIGNED;
        if (alloc_use_host(access, mis, read ? src : NULL, err, errlen) != CR_OK)
            return CR_ERR;
        read = false; /* already filled through the host pointer */
        break;
    }
    case P_KR_SVM_COARSE:
    case P_KW_SVM_COARSE:
    case P_KR_SVM_FINE:
    case P_KW_SVM_FINE:
        if (alloc_svm(p->id == P_KR_SVM_FINE || p->id == P_KW_SVM_FINE, read ? src : NULL, err, errlen) != CR_OK)
            return CR_ERR;
        read = false;
        break;
    case P_KR_MALLOC:
    case P_KW_MALLOC:
        /* The system allocator's memory as any program has it: no API call
         * touches it; the kernel gets the pointer itself. */
        if (alloc_host(&bw_cl.system_ptr, err, errlen) != CR_OK)
            return CR_ERR;
        if (read)
            memcpy(bw_cl.system_ptr, src, (size_t)bw_cl.bytes);
        read = false;
        break;
    default:
        break;
    }
    if (p->kind == BW_KERNEL_READ) {
        cl_int rc;
        bw_cl.partial =
            clCreateBuffer(bw_cl.cl.context, CL_MEM_READ_WRITE, (size_t)bw_cl.groups * sizeof(cl_ulong), NULL, &rc);
        CR_CL_CHECK(rc, "clCreateBuffer(partial sums)", err, errlen);
    }
    if (read && bw_cl.dst)
        return fill(bw_cl.dst, src, err, errlen);
    if (p->kind == BW_KERNEL_WRITE)
        return zero_target(err, errlen);
    return CR_OK;
}

cr_status bw_cl_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    bw_cl_release(p);
    bw_cl.bytes = bytes;
    cr_cl_default_geometry(&bw_cl.cl, bytes / 16 ? bytes / 16 : 1, &bw_cl.work_items, &bw_cl.work_group);
    bw_cl.groups = bw_cl.work_items / bw_cl.work_group;
    if (p->kind == BW_TECHNIQUE)
        return prepare_technique(p, src, err, errlen);
    if (p->kind == BW_CPU_ACCESS)
        return prepare_cpu_access(p, src, err, errlen);
    if (p->kind == BW_KERNEL_READ || p->kind == BW_KERNEL_WRITE)
        return prepare_kernel_target(p, src, err, errlen);
    return prepare_copy(p, src, err, errlen);
}

cr_status bw_cl_local_kernel_fits(enum kernel_id k, char *why, size_t len)
{
    size_t group = 0;
    cl_ulong used = 0, local_bytes = 0;
    clGetKernelWorkGroupInfo(bw_cl.kernel[k], bw_cl.cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, NULL);
    clGetKernelWorkGroupInfo(bw_cl.kernel[k], bw_cl.cl.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, NULL);
    clGetDeviceInfo(bw_cl.cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, NULL);
    if (used < 2 * BW_LOCAL_TILE_BYTES)
        used = 2 * BW_LOCAL_TILE_BYTES; /* its two halves, where the runtime counts less */
    if (group < BW_LOCAL_GROUP || used > local_bytes) {
        snprintf(why, len, "%s needs work-groups of %u work-items and %llu bytes of local memory (the device allows "
                           "%zu and %llu)", bw_cl_kernel_names[k], BW_LOCAL_GROUP, (unsigned long long)used, group,
                 (unsigned long long)local_bytes);
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

/* One work-group per tile, the kernel of vectors of v words. */
cr_status bw_cl_prepare_local(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err,
                                  size_t errlen)
{
    bw_cl_release(p);
    bw_cl.bytes = bytes;
    enum kernel_id k = K_LOCAL_V1;
    while (k < K_LOCAL_V16 && (1u << (k - K_LOCAL_V1)) < v)
        ++k;
    if ((1u << (k - K_LOCAL_V1)) != v) {
        snprintf(err, errlen, "OpenCL C has no vector of %u words", v);
        return CR_UNSUPPORTED;
    }
    if (bw_cl_local_kernel_fits(k, err, errlen) != CR_OK)
        return CR_UNSUPPORTED;
    bw_cl.local_kernel = k;
    bw_cl.work_group = BW_LOCAL_GROUP;
    bw_cl.groups = bytes / BW_LOCAL_TILE_BYTES;
    bw_cl.work_items = bw_cl.groups * BW_LOCAL_GROUP;
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    if (make_buffer(&bw_cl.src, rw, NULL, err, errlen) != CR_OK ||
        make_buffer(&bw_cl.dst, rw, NULL, err, errlen) != CR_OK || zero(bw_cl.dst, err, errlen) != CR_OK)
        return CR_ERR;
    return fill(bw_cl.src, src, err, errlen);
}
