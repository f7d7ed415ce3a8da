/* OpenCL backend of the bandwidth benchmark: every host/device path the API
 * offers, including Lee's Table 3.2 rows and the buffer-flag variants of his
 * Table 3.3, the API's copy against a copy kernel in each direction, both
 * directions at once on two queues, and kernels on malloc'd memory where
 * the device has system SVM, and work-groups streaming their local memory
 * in vectors of 1 to 16 words.
 * The multi-device paths are listed and refused
 * with the reason (OpenCL has no peer-to-peer API). Allocates, moves and
 * times; the design verifies. */
#define _POSIX_C_SOURCE 200809L
#include "bandwidth/backend.h"
#include "cl_device.h"

#include <stdlib.h>
#include <string.h>

/* opencl/layout.cl, bench/bandwidth/elements.h and opencl/bandwidth/kernels.cl, embedded at build time */
extern const char layout_cl[], bandwidth_elements_h[], bandwidth_kernels_cl[];

enum path_id {
    P_H2D_PAGEABLE, P_H2D_PAGEABLE_ASYNC, P_H2D_PINNED, P_H2D_PINNED_ASYNC,
    P_D2H_PAGEABLE, P_D2H_PAGEABLE_ASYNC, P_D2H_PINNED, P_D2H_PINNED_ASYNC,
    P_H2D_COPY_BUFFER_PINNED, P_D2H_COPY_BUFFER_PINNED, P_H2D_KERNEL_PINNED, P_D2H_KERNEL_PINNED,
    P_DUPLEX_COPY, P_DUPLEX_KERNEL,
    P_D2D_COPY, P_D2D_KERNEL,
    P_CPU_WRITE_HOST, P_CPU_READ_HOST, P_CPU_WRITE_DEVICE, P_CPU_READ_DEVICE,
    P_KR_DEVICE, P_KW_DEVICE, P_LOCAL,
    P_KR_HOST_RO, P_KR_HOST_RW, P_KW_HOST_WO, P_KW_HOST_RW,
    P_KR_USE_RO, P_KR_USE_RW, P_KW_USE_WO, P_KW_USE_RW, P_KR_USE_MISALIGNED, P_KW_USE_MISALIGNED,
    P_KR_SVM_COARSE, P_KW_SVM_COARSE, P_KR_SVM_FINE, P_KW_SVM_FINE,
    P_KR_MALLOC, P_KW_MALLOC,
    P_PEER,      /* a multi-device path between devices' memories */
    P_HOST_FAN,  /* a multi-device path between the host and every device */
    P_TECHNIQUE, /* every technique path: which one is in its workload/technique fields */
};

/* The paths that model each technique's stages on OpenCL (Lee's mapping,
 * §3.4): input transfer, kernel reads, kernel writes, output transfer. */
#define DEFAULT_MODEL {"h2d-write-pageable", "kernel-read-device", "kernel-write-device", "d2h-read-pageable"}
#define CPU_RESIDENT_MODEL {"cpu-write-host", "kernel-read-host-ro", "kernel-write-host-wo", "cpu-read-host"}
#define GPU_RESIDENT_MODEL {"cpu-write-device", "kernel-read-device", "kernel-write-device", "cpu-read-device"}
#define MIXED_MODEL {"cpu-write-device", "kernel-read-device", "kernel-write-device", "d2h-read-pageable"}

/* A path's matrix cell: where its bytes start, where they end, what moves
 * them. A kernel runs on the device: what it reads ends there, what it
 * writes starts there. An ALLOC_HOST_PTR buffer is the pinned memory. */
#define CELL(from_, to_, engine_) .from = BW_MEM_##from_, .to = BW_MEM_##to_, .engine = BW_ENGINE_##engine_
#define PATH(k, d, kind_, phases_, id_, ...) {.key = k, .desc = d, .kind = kind_, .phases = phases_, .id = id_, __VA_ARGS__}
#define COPY(k, d, id_, ...) PATH(k, d, BW_COPY, 1, id_, __VA_ARGS__)
#define ACCESS(k, d, id_, ...) PATH(k, d, BW_CPU_ACCESS, 3, id_, __VA_ARGS__)
#define KREAD(k, d, id_, from_) PATH(k, d, BW_KERNEL_READ, 1, id_, CELL(from_, DEVICE, KERNEL))
#define KWRITE(k, d, id_, to_) PATH(k, d, BW_KERNEL_WRITE, 1, id_, CELL(DEVICE, to_, KERNEL))
#define TECHNIQUE(k, d, workload_, technique_, model_)                                                           \
    {.key = k, .desc = d, .kind = BW_TECHNIQUE, .phases = 1, .id = P_TECHNIQUE, .workload = workload_,            \
     .technique = technique_, .model = model_}
static const bw_path paths[] = {
    COPY("h2d-write-pageable", "clEnqueueWriteBuffer, blocking, from pageable host memory", P_H2D_PAGEABLE, CELL(HOST_PAGEABLE, DEVICE, COPY)),
    COPY("h2d-write-pageable-async", "clEnqueueWriteBuffer, non-blocking, from pageable host memory", P_H2D_PAGEABLE_ASYNC, CELL(HOST_PAGEABLE, DEVICE, COPY)),
    COPY("h2d-write-pinned", "clEnqueueWriteBuffer, blocking, from pinned memory (ALLOC_HOST_PTR mapped once)", P_H2D_PINNED, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("h2d-write-pinned-async", "clEnqueueWriteBuffer, non-blocking, from pinned memory", P_H2D_PINNED_ASYNC, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("d2h-read-pageable", "clEnqueueReadBuffer, blocking, into pageable host memory", P_D2H_PAGEABLE, CELL(DEVICE, HOST_PAGEABLE, COPY)),
    COPY("d2h-read-pageable-async", "clEnqueueReadBuffer, non-blocking, into pageable host memory", P_D2H_PAGEABLE_ASYNC, CELL(DEVICE, HOST_PAGEABLE, COPY)),
    COPY("d2h-read-pinned", "clEnqueueReadBuffer, blocking, into pinned memory", P_D2H_PINNED, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("d2h-read-pinned-async", "clEnqueueReadBuffer, non-blocking, into pinned memory", P_D2H_PINNED_ASYNC, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("h2d-copy-buffer-pinned", "clEnqueueCopyBuffer from an ALLOC_HOST_PTR buffer into a device buffer", P_H2D_COPY_BUFFER_PINNED, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("d2h-copy-buffer-pinned", "clEnqueueCopyBuffer from a device buffer into an ALLOC_HOST_PTR buffer", P_D2H_COPY_BUFFER_PINNED, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("h2d-kernel-copy-pinned", "a copy kernel from an ALLOC_HOST_PTR buffer into a device buffer", P_H2D_KERNEL_PINNED, CELL(HOST_PINNED, DEVICE, KERNEL)),
    COPY("d2h-kernel-copy-pinned", "a copy kernel from a device buffer into an ALLOC_HOST_PTR buffer", P_D2H_KERNEL_PINNED, CELL(DEVICE, HOST_PINNED, KERNEL)),
    COPY("duplex-copy-pinned", "clEnqueueWriteBuffer from pinned memory and clEnqueueReadBuffer into pinned memory at once, on two queues (2 transfers)", P_DUPLEX_COPY, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("duplex-kernel-copy-pinned", "copy kernels ALLOC_HOST_PTR -> device and device -> ALLOC_HOST_PTR at once, on two queues (2 transfers)", P_DUPLEX_KERNEL, CELL(HOST_PINNED, DEVICE, KERNEL)),
    COPY("d2d-copy", "clEnqueueCopyBuffer between device buffers (bytes counted once)", P_D2D_COPY, CELL(DEVICE, DEVICE, COPY)),
    COPY("d2d-kernel-copy", "a copy kernel between device buffers (bytes counted once)", P_D2D_KERNEL, CELL(DEVICE, DEVICE, KERNEL)),
    ACCESS("cpu-write-host", "CPU memcpy into a mapped host buffer (ALLOC_HOST_PTR)", P_CPU_WRITE_HOST, CELL(HOST_PAGEABLE, HOST_PINNED, CPU)),
    ACCESS("cpu-read-host", "CPU memcpy out of a mapped host buffer (ALLOC_HOST_PTR)", P_CPU_READ_HOST, CELL(HOST_PINNED, HOST_PAGEABLE, CPU)),
    ACCESS("cpu-write-device", "CPU memcpy into a mapped device buffer", P_CPU_WRITE_DEVICE, CELL(HOST_PAGEABLE, DEVICE, CPU)),
    ACCESS("cpu-read-device", "CPU memcpy out of a mapped device buffer", P_CPU_READ_DEVICE, CELL(DEVICE, HOST_PAGEABLE, CPU)),
    KREAD("kernel-read-device", "kernel reads a device buffer", P_KR_DEVICE, DEVICE),
    KWRITE("kernel-write-device", "kernel writes a device buffer", P_KW_DEVICE, DEVICE),
    PATH(BW_LOCAL_PATH_KEY, "work-groups stream tiles through local memory (__local, 255 rounds, vectors of 1 to 16 words)", BW_KERNEL_LOCAL, 1, P_LOCAL, CELL(LOCAL, LOCAL, KERNEL)),
    KREAD("kernel-read-host-ro", "kernel reads ALLOC_HOST_PTR|READ_ONLY (Lee: Garlic)", P_KR_HOST_RO, HOST_PINNED),
    KREAD("kernel-read-host-rw", "kernel reads ALLOC_HOST_PTR|READ_WRITE (Lee: Onion)", P_KR_HOST_RW, HOST_PINNED),
    KWRITE("kernel-write-host-wo", "kernel writes ALLOC_HOST_PTR|WRITE_ONLY (Lee: Garlic)", P_KW_HOST_WO, HOST_PINNED),
    KWRITE("kernel-write-host-rw", "kernel writes ALLOC_HOST_PTR|READ_WRITE (Lee: Onion)", P_KW_HOST_RW, HOST_PINNED),
    /* USE_HOST_PTR wraps the program's own pageable memory; the runtime may pin or copy it. */
    KREAD("kernel-read-use-ro", "kernel reads USE_HOST_PTR|READ_ONLY, pointer aligned for the device", P_KR_USE_RO, HOST_PAGEABLE),
    KREAD("kernel-read-use-rw", "kernel reads USE_HOST_PTR|READ_WRITE, aligned", P_KR_USE_RW, HOST_PAGEABLE),
    KWRITE("kernel-write-use-wo", "kernel writes USE_HOST_PTR|WRITE_ONLY, aligned", P_KW_USE_WO, HOST_PAGEABLE),
    KWRITE("kernel-write-use-rw", "kernel writes USE_HOST_PTR|READ_WRITE, aligned", P_KW_USE_RW, HOST_PAGEABLE),
    KREAD("kernel-read-use-misaligned", "kernel reads USE_HOST_PTR|READ_WRITE, pointer 16 bytes off the device's alignment", P_KR_USE_MISALIGNED, HOST_PAGEABLE),
    KWRITE("kernel-write-use-misaligned", "kernel writes USE_HOST_PTR|READ_WRITE, pointer 16 bytes off alignment", P_KW_USE_MISALIGNED, HOST_PAGEABLE),
    KREAD("kernel-read-svm-coarse", "kernel reads coarse-grained shared virtual memory", P_KR_SVM_COARSE, SHARED),
    KWRITE("kernel-write-svm-coarse", "kernel writes coarse-grained shared virtual memory", P_KW_SVM_COARSE, SHARED),
    KREAD("kernel-read-svm-fine", "kernel reads fine-grained shared virtual memory (buffer)", P_KR_SVM_FINE, SHARED),
    KWRITE("kernel-write-svm-fine", "kernel writes fine-grained shared virtual memory (buffer)", P_KW_SVM_FINE, SHARED),
    KREAD("kernel-read-malloc", "kernel reads malloc'd host memory through fine-grained system SVM", P_KR_MALLOC, MALLOC),
    KWRITE("kernel-write-malloc", "kernel writes malloc'd host memory through fine-grained system SVM", P_KW_MALLOC, MALLOC),
    /* The multi-device paths, under the keys every backend gives them. */
    COPY("p2p-read-copy", "copy from a peer device's memory into this device's", P_PEER, CELL(PEER, DEVICE, COPY)),
    COPY("p2p-write-copy", "copy from this device's memory into a peer's", P_PEER, CELL(DEVICE, PEER, COPY)),
    COPY("p2p-read-kernel", "a copy kernel on this device reads a peer's memory into its own", P_PEER, CELL(PEER, DEVICE, KERNEL)),
    COPY("p2p-write-kernel", "a copy kernel on this device writes its memory into a peer's", P_PEER, CELL(DEVICE, PEER, KERNEL)),
    COPY("all-to-one-copy", "every peer copies into this device at once", P_PEER, CELL(PEER, DEVICE, COPY)),
    COPY("all-to-one-kernel", "copy kernels on this device read every peer at once", P_PEER, CELL(PEER, DEVICE, KERNEL)),
    COPY("one-to-all-copy", "this device copies into every peer at once", P_PEER, CELL(DEVICE, PEER, COPY)),
    COPY("one-to-all-kernel", "copy kernels on this device write every peer at once", P_PEER, CELL(DEVICE, PEER, KERNEL)),
    COPY("all-to-host-copy", "every device copies into pinned host memory at once", P_HOST_FAN, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("all-to-host-kernel", "copy kernels on every device write pinned host memory at once", P_HOST_FAN, CELL(DEVICE, HOST_PINNED, KERNEL)),
    COPY("host-to-all-copy", "pinned host memory copied into every device at once", P_HOST_FAN, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("host-to-all-kernel", "copy kernels on every device read pinned host memory at once", P_HOST_FAN, CELL(HOST_PINNED, DEVICE, KERNEL)),
    BW_TECHNIQUE_PATHS(TECHNIQUE,
                       "vector add: write buffers in, kernel, read buffer out",
                       "vector add: kernel on host buffers (READ_ONLY/WRITE_ONLY), CPU maps them",
                       "vector add: CPU maps device buffers in and out",
                       "vector add: CPU maps device buffers in, read buffer out",
                       "reduce: write buffer in, kernel, read partial sums out",
                       "reduce: kernel on a host buffer, CPU maps it and the partial sums",
                       "reduce: CPU maps the device buffer in and the partial sums out",
                       "reduce: CPU maps the device buffer in, read partial sums out"),
};
#define N_PATHS (sizeof paths / sizeof paths[0])

/* The local-memory kernels, one per vector width, in the order of their widths. */
enum kernel_id { K_READ, K_WRITE, K_COPY, K_VECTOR_ADD, K_REDUCE, K_LOCAL_V1, K_LOCAL_V2, K_LOCAL_V4, K_LOCAL_V8,
                 K_LOCAL_V16, N_KERNELS };
static const char *const kernel_names[N_KERNELS] = {
    "bw_read", "bw_write", "bw_copy", "bw_vector_add", "bw_reduce",
    "bw_local_v1", "bw_local_v2", "bw_local_v4", "bw_local_v8", "bw_local_v16"};

static struct {
    cr_cl cl;
    cl_program program;
    cl_kernel kernel[N_KERNELS];
    cl_device_svm_capabilities svm;
    size_t base_align; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */
    cl_uint platform_devices; /* devices of the opened device's platform */
    cl_command_queue queue2;  /* a second queue of the device, for the duplex paths */
    char queue2_err[96];      /* why there is none */
    /* per prepared path */
    uint64_t bytes;
    cl_mem src, dst;         /* device-side buffers */
    cl_mem pinned;           /* ALLOC_HOST_PTR buffer backing a pinned host pointer */
    void *pinned_ptr;
    cl_mem pinned_out;       /* duplex: the device-to-host half's ALLOC_HOST_PTR destination */
    void *pinned_out_ptr;
    void *system_ptr;        /* malloc'd memory a kernel reaches through system SVM */
    void *host;              /* pageable host memory (source or destination) */
    void *host_block;        /* USE_HOST_PTR allocation (host points into it) */
    void *svm_ptr;
    void *mapped;            /* CPU access: the pointer of the current map */
    cl_mem partial;          /* kernel reads: one sum per work-group */
    cl_mem tin[2], tout;     /* technique: inputs and output */
    void *tsrc;              /* technique: the inputs in host memory */
    void *tdst;              /* technique: the output in host memory */
    uint64_t tin_bytes, tout_bytes;
    uint64_t groups;
    uint64_t work_items, work_group;
    enum kernel_id local_kernel; /* the prepared local-memory path's */
} S;

static void bw_release(const bw_path *p)
{
    (void)p;
    if (S.pinned && S.pinned_ptr)
        clEnqueueUnmapMemObject(S.cl.queue, S.pinned, S.pinned_ptr, 0, NULL, NULL);
    if (S.pinned_out && S.pinned_out_ptr)
        clEnqueueUnmapMemObject(S.cl.queue, S.pinned_out, S.pinned_out_ptr, 0, NULL, NULL);
    if (S.queue2)
        clFinish(S.queue2);
    if (S.mapped) /* an interrupted map/access/unmap cycle */
        clEnqueueUnmapMemObject(S.cl.queue, S.dst ? S.dst : S.src, S.mapped, 0, NULL, NULL);
    if (S.cl.queue)
        clFinish(S.cl.queue);
    cl_mem *mems[] = {&S.src, &S.dst, &S.pinned, &S.pinned_out, &S.partial, &S.tin[0], &S.tin[1], &S.tout};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i)
        cr_cl_release_mem(mems[i]);
    if (S.svm_ptr)
        clSVMFree(S.cl.context, S.svm_ptr);
    free(S.host);
    free(S.host_block);
    free(S.system_ptr);
    free(S.tsrc);
    free(S.tdst);
    S.svm_ptr = S.host = S.host_block = S.system_ptr = S.pinned_ptr = S.pinned_out_ptr = S.mapped = S.tsrc = S.tdst =
        NULL;
}

static void bw_close(void)
{
    bw_release(NULL);
    for (int k = 0; k < N_KERNELS; ++k)
        cr_cl_release_kernel(&S.kernel[k]);
    cr_cl_release_program(&S.program);
    if (S.queue2)
        clReleaseCommandQueue(S.queue2);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

static cr_status build_kernels(char *err, size_t errlen)
{
    char options[64];
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DCONTIGUOUS=%d", cr_cl_contiguous(&S.cl));
    const char *const sources[] = {layout_cl, bandwidth_elements_h, bandwidth_kernels_cl};
    if (cr_cl_build(&S.cl, sources, 3, options, &S.program, err, errlen) != CR_OK)
        return CR_ERR;
    for (int k = 0; k < N_KERNELS; ++k) {
        cl_int rc;
        S.kernel[k] = clCreateKernel(S.program, kernel_names[k], &rc);
        CR_CL_CHECK(rc, "clCreateKernel", err, errlen);
    }
    return CR_OK;
}

static cr_status bw_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_built(spec, &S, sizeof S, &S.cl, build_kernels, bw_close, err, errlen);
    if (st != CR_OK)
        return st;
    if (clGetDeviceInfo(S.cl.device, CL_DEVICE_SVM_CAPABILITIES, sizeof S.svm, &S.svm, NULL) != CL_SUCCESS)
        S.svm = 0; /* OpenCL 1.x device */
    cl_uint align_bits = 0;
    clGetDeviceInfo(S.cl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    S.base_align = align_bits / 8 > 4096 ? align_bits / 8 : 4096;
    if (clGetDeviceIDs(S.cl.platform, CL_DEVICE_TYPE_ALL, 0, NULL, &S.platform_devices) != CL_SUCCESS)
        S.platform_devices = 1; /* the one open */
    /* Duplex paths need a second queue; without one they say why. */
    cl_int rc;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    S.queue2 = clCreateCommandQueueWithProperties(S.cl.context, S.cl.device, props, &rc);
    if (rc != CL_SUCCESS) {
        S.queue2 = NULL;
        snprintf(S.queue2_err, sizeof S.queue2_err, "a second command queue: %s", cr_cl_strerror(rc));
    }
    *info = S.cl.info;
    return CR_OK;
}

static size_t bw_paths(const bw_path **out)
{
    *out = paths;
    return N_PATHS;
}

/* A local kernel needs work-groups of BW_LOCAL_GROUP work-items and its
 * two halves of local memory. */
static cr_status local_kernel_fits(enum kernel_id k, char *why, size_t len)
{
    size_t group = 0;
    cl_ulong used = 0, local_bytes = 0;
    clGetKernelWorkGroupInfo(S.kernel[k], S.cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, NULL);
    clGetKernelWorkGroupInfo(S.kernel[k], S.cl.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, NULL);
    clGetDeviceInfo(S.cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, NULL);
    if (used < 2 * BW_LOCAL_TILE_BYTES)
        used = 2 * BW_LOCAL_TILE_BYTES; /* its two halves, where the runtime counts less */
    if (group < BW_LOCAL_GROUP || used > local_bytes) {
        snprintf(why, len, "%s needs work-groups of %u work-items and %llu bytes of local memory (the device allows "
                           "%zu and %llu)", kernel_names[k], BW_LOCAL_GROUP, (unsigned long long)used, group,
                 (unsigned long long)local_bytes);
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

static cr_status bw_supported(const bw_path *p, char *why, size_t len)
{
    if (p->kind == BW_TECHNIQUE && !(S.cl.info.has_fp64)) {
        snprintf(why, len, "the reduce kernel accumulates in double, which the device lacks");
        return p->workload == BW_REDUCE ? CR_UNSUPPORTED : CR_OK;
    }
    if (p->id == P_PEER || p->id == P_HOST_FAN) {
        if (S.platform_devices < 2)
            snprintf(why, len, "needs >= 2 devices (%u present)", S.platform_devices);
        else if (p->id == P_PEER)
            snprintf(why, len, "OpenCL has no peer-to-peer API: a buffer belongs to a context, not a device, no "
                               "command copies between two devices' memories and no kernel addresses another "
                               "device's; the runtime moves buffers by its own route");
        else
            snprintf(why, len, "OpenCL gives a buffer no home device: in a context of several devices the runtime "
                               "decides where it lives and migrates it on use, so concurrent copies cannot be held "
                               "to each device's own link");
        return CR_UNSUPPORTED;
    }
    if ((p->id == P_DUPLEX_COPY || p->id == P_DUPLEX_KERNEL) && S.queue2 == NULL) {
        snprintf(why, len, "%s", S.queue2_err);
        return CR_UNSUPPORTED;
    }
    if (p->id == P_LOCAL)
        return local_kernel_fits(K_LOCAL_V1, why, len);
    if ((p->id == P_KR_MALLOC || p->id == P_KW_MALLOC) && !(S.svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) {
        snprintf(why, len, "the device reports no fine-grained system SVM (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM): its "
                           "kernels cannot address malloc'd memory");
        return CR_UNSUPPORTED;
    }
    bool coarse = p->id == P_KR_SVM_COARSE || p->id == P_KW_SVM_COARSE;
    bool fine = p->id == P_KR_SVM_FINE || p->id == P_KW_SVM_FINE;
    if (coarse && !(S.svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        snprintf(why, len, "the device reports no coarse-grained SVM");
        return CR_UNSUPPORTED;
    }
    if (fine && !(S.svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
        snprintf(why, len, "the device reports no fine-grained SVM buffers");
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

/* ---- preparation ---- */

static cr_status make_buffer(cl_mem *out, cl_mem_flags flags, void *host_ptr, char *err, size_t errlen)
{
    cl_int rc;
    *out = clCreateBuffer(S.cl.context, flags, (size_t)S.bytes, host_ptr, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    return CR_OK;
}

static cr_status zero(cl_mem m, char *err, size_t errlen)
{
    const cl_uint nothing = 0;
    CR_CL_CHECK(clEnqueueFillBuffer(S.cl.queue, m, &nothing, sizeof nothing, 0, (size_t)S.bytes, 0, NULL, NULL),
                "clEnqueueFillBuffer", err, errlen);
    CR_CL_CHECK(clFinish(S.cl.queue), "clFinish", err, errlen);
    return CR_OK;
}

static cr_status fill(cl_mem m, const void *src, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, m, CL_TRUE, 0, (size_t)S.bytes, src, 0, NULL, NULL),
                "clEnqueueWriteBuffer", err, errlen);
    return CR_OK;
}

static cr_status alloc_host(void **out, char *err, size_t errlen) { return bw_alloc_host(out, S.bytes, err, errlen); }

/* A pinned host pointer: an ALLOC_HOST_PTR buffer mapped for the path's life. */
static cr_status alloc_pinned_into(cl_mem *buf, void **ptr, char *err, size_t errlen)
{
    if (make_buffer(buf, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, NULL, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    *ptr = clEnqueueMapBuffer(S.cl.queue, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, (size_t)S.bytes, 0, NULL,
                              NULL, &rc);
    CR_CL_CHECK(rc, "clEnqueueMapBuffer", err, errlen);
    return CR_OK;
}

static cr_status alloc_pinned(char *err, size_t errlen) { return alloc_pinned_into(&S.pinned, &S.pinned_ptr, err, errlen); }

/* USE_HOST_PTR: host memory aligned as the device asks, or 16 bytes off. */
static cr_status alloc_use_host(cl_mem_flags access, bool misaligned, const void *src, char *err, size_t errlen)
{
    if (posix_memalign(&S.host_block, S.base_align, (size_t)S.bytes + S.base_align) != 0) {
        S.host_block = NULL;
        snprintf(err, errlen, "cannot allocate %llu bytes of host memory", (unsigned long long)S.bytes);
        return CR_ERR;
    }
    void *ptr = (char *)S.host_block + (misaligned ? 16 : 0);
    if (src)
        memcpy(ptr, src, (size_t)S.bytes);
    return make_buffer(&S.dst, CL_MEM_USE_HOST_PTR | access, ptr, err, errlen);
}

static cr_status alloc_svm(bool fine, const void *src, char *err, size_t errlen)
{
    cl_svm_mem_flags flags = CL_MEM_READ_WRITE | (fine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
    S.svm_ptr = clSVMAlloc(S.cl.context, flags, (size_t)S.bytes, 0);
    if (S.svm_ptr == NULL) {
        snprintf(err, errlen, "clSVMAlloc of %llu bytes failed", (unsigned long long)S.bytes);
        return CR_ERR;
    }
    if (src == NULL)
        return CR_OK;
    if (!fine)
        CR_CL_CHECK(clEnqueueSVMMap(S.cl.queue, CL_TRUE, CL_MAP_WRITE, S.svm_ptr, (size_t)S.bytes, 0, NULL, NULL),
                    "clEnqueueSVMMap", err, errlen);
    memcpy(S.svm_ptr, src, (size_t)S.bytes);
    if (!fine) {
        CR_CL_CHECK(clEnqueueSVMUnmap(S.cl.queue, S.svm_ptr, 0, NULL, NULL), "clEnqueueSVMUnmap", err, errlen);
        CR_CL_CHECK(clFinish(S.cl.queue), "clFinish", err, errlen);
    }
    return CR_OK;
}

/* ---- memory-movement techniques (Lee 2012, §3.1.2) ---- */

static bool host_resident(const bw_path *p) { return p->technique == BW_CPU_RESIDENT; }

static cr_status prepare_technique(const bw_path *p, const void *src, char *err, size_t errlen)
{
    bool vadd = p->workload == BW_VECTOR_ADD;
    uint64_t n = S.bytes / (vadd ? 8 : 4);
    cr_cl_default_geometry(&S.cl, n, &S.work_items, &S.work_group);
    S.groups = S.work_items / S.work_group;
    S.tin_bytes = n * 4;
    S.tout_bytes = vadd ? n * 4 : S.groups * sizeof(double);
    /* CPU-Resident keeps everything in host buffers, with Lee's Garlic flags. */
    cl_mem_flags in_flags = host_resident(p) ? CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    cl_mem_flags out_flags = host_resident(p) ? CL_MEM_ALLOC_HOST_PTR | CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
    cl_int rc = CL_SUCCESS;
    for (int i = 0; i < (vadd ? 2 : 1) && rc == CL_SUCCESS; ++i)
        S.tin[i] = clCreateBuffer(S.cl.context, in_flags, (size_t)S.tin_bytes, NULL, &rc);
    if (rc == CL_SUCCESS)
        S.tout = clCreateBuffer(S.cl.context, out_flags, (size_t)S.tout_bytes, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    S.tsrc = malloc((size_t)S.bytes);
    S.tdst = calloc(1, (size_t)S.tout_bytes);
    if (S.tsrc == NULL || S.tdst == NULL) {
        snprintf(err, errlen, "out of host memory");
        return CR_ERR;
    }
    memcpy(S.tsrc, src, (size_t)S.bytes);
    return CR_OK;
}

/* The CPU writes or reads a buffer through a map: Lee's direct access. */
static cl_int through_map(cl_mem m, bool write, void *host, size_t bytes)
{
    cl_int rc;
    void *p = clEnqueueMapBuffer(S.cl.queue, m, CL_TRUE, write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, 0,
                                 bytes, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS)
        return rc;
    if (write)
        memcpy(p, host, bytes);
    else
        memcpy(host, p, bytes);
    return clEnqueueUnmapMemObject(S.cl.queue, m, p, 0, NULL, NULL);
}

static cr_status run_technique(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    bool vadd = p->workload == BW_VECTOR_ADD;
    bool map_in = p->technique != BW_DEFAULT, map_out = p->technique == BW_CPU_RESIDENT || p->technique == BW_GPU_RESIDENT;
    cl_ulong n = S.tin_bytes / 4;
    uint64_t t0 = cr_now_ns();
    cl_int rc = CL_SUCCESS;
    for (int i = 0; i < (vadd ? 2 : 1) && rc == CL_SUCCESS; ++i) {
        char *in = (char *)S.tsrc + i * S.tin_bytes;
        rc = map_in ? through_map(S.tin[i], true, in, (size_t)S.tin_bytes)
                    : clEnqueueWriteBuffer(S.cl.queue, S.tin[i], CL_TRUE, 0, (size_t)S.tin_bytes, in, 0, NULL, NULL);
    }
    CR_CL_CHECK(rc, "technique input", err, errlen);
    const enum kernel_id k = vadd ? K_VECTOR_ADD : K_REDUCE;
    const cr_cl_arg vadd_args[] = {CR_CL_ARG(S.tin[0]), CR_CL_ARG(S.tin[1]), CR_CL_ARG(S.tout), CR_CL_ARG(n)};
    const cr_cl_arg reduce_args[] = {CR_CL_ARG(S.tin[0]), CR_CL_ARG(S.tout),
                                     CR_CL_LOCAL((size_t)S.work_group * sizeof(double)), CR_CL_ARG(n)};
    if (cr_cl_set_args(S.kernel[k], kernel_names[k], vadd ? vadd_args : reduce_args, 4, err, errlen) != CR_OK)
        return CR_ERR;
    /* Not cr_cl_launch_timed: its wait would add a synchronisation the
     * technique does not have; the output transfer waits for the kernel. */
    size_t global = (size_t)S.work_items, local = (size_t)S.work_group;
    CR_CL_CHECK(clEnqueueNDRangeKernel(S.cl.queue, S.kernel[k], 1, NULL, &global, &local, 0, NULL, NULL),
                "clEnqueueNDRangeKernel", err, errlen);
    rc = map_out ? through_map(S.tout, false, S.tdst, (size_t)S.tout_bytes)
                 : clEnqueueReadBuffer(S.cl.queue, S.tout, CL_TRUE, 0, (size_t)S.tout_bytes, S.tdst, 0, NULL, NULL);
    if (rc == CL_SUCCESS)
        rc = clFinish(S.cl.queue);
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false; /* a technique is several commands and host work: the host clock spans them */
    CR_CL_CHECK(rc, "technique output", err, errlen);
    return CR_OK;
}

static void technique_result(const bw_path *p, void *dst)
{
    bw_technique_output(p->workload == BW_VECTOR_ADD, S.tdst, S.tout_bytes, S.groups, dst);
}

/* The target of a kernel write starts zeroed, whatever memory it is. */
static cr_status zero_target(char *err, size_t errlen)
{
    if (S.system_ptr) {
        memset(S.system_ptr, 0, (size_t)S.bytes);
        return CR_OK;
    }
    if (S.svm_ptr == NULL)
        return zero(S.dst, err, errlen);
    CR_CL_CHECK(clEnqueueSVMMemFill(S.cl.queue, S.svm_ptr, &(cl_uint){0}, sizeof(cl_uint), (size_t)S.bytes, 0, NULL,
                                    NULL),
                "clEnqueueSVMMemFill", err, errlen);
    CR_CL_CHECK(clFinish(S.cl.queue), "clFinish", err, errlen);
    return CR_OK;
}

/* Duplex: host -> device buffer A (S.dst) and device buffer B (S.src) ->
 * host at once. The copy engine's form moves between mapped pinned
 * pointers, the kernels' form between ALLOC_HOST_PTR buffers they address. */
static cr_status prepare_duplex(const bw_path *p, const void *src, char *err, size_t errlen)
{
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    if (make_buffer(&S.dst, rw, NULL, err, errlen) != CR_OK || zero(S.dst, err, errlen) != CR_OK ||
        make_buffer(&S.src, rw, NULL, err, errlen) != CR_OK || fill(S.src, src, err, errlen) != CR_OK)
        return CR_ERR;
    if (p->id == P_DUPLEX_KERNEL) {
        if (make_buffer(&S.pinned, rw | CL_MEM_ALLOC_HOST_PTR, NULL, err, errlen) != CR_OK ||
            fill(S.pinned, src, err, errlen) != CR_OK ||
            make_buffer(&S.pinned_out, rw | CL_MEM_ALLOC_HOST_PTR, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        return zero(S.pinned_out, err, errlen);
    }
    if (alloc_pinned(err, errlen) != CR_OK || alloc_pinned_into(&S.pinned_out, &S.pinned_out_ptr, err, errlen) != CR_OK)
        return CR_ERR;
    memcpy(S.pinned_ptr, src, (size_t)S.bytes);
    memset(S.pinned_out_ptr, 0, (size_t)S.bytes);
    return CR_OK;
}

static cr_status bw_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    bw_release(p);
    S.bytes = bytes;
    cr_cl_default_geometry(&S.cl, bytes / 16 ? bytes / 16 : 1, &S.work_items, &S.work_group);
    S.groups = S.work_items / S.work_group;
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    bool read = p->kind == BW_KERNEL_READ;
    switch ((enum path_id)p->id) {
    case P_H2D_PAGEABLE:
    case P_H2D_PAGEABLE_ASYNC:
        if (alloc_host(&S.host, err, errlen) != CR_OK)
            return CR_ERR;
        memcpy(S.host, src, (size_t)bytes);
        return make_buffer(&S.dst, rw, NULL, err, errlen) == CR_OK ? zero(S.dst, err, errlen) : CR_ERR;
    case P_H2D_PINNED:
    case P_H2D_PINNED_ASYNC:
        if (alloc_pinned(err, errlen) != CR_OK)
            return CR_ERR;
        memcpy(S.pinned_ptr, src, (size_t)bytes);
        return make_buffer(&S.dst, rw, NULL, err, errlen) == CR_OK ? zero(S.dst, err, errlen) : CR_ERR;
    case P_D2H_PAGEABLE:
    case P_D2H_PAGEABLE_ASYNC:
        if (alloc_host(&S.host, err, errlen) != CR_OK || make_buffer(&S.src, rw, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        memset(S.host, 0, (size_t)bytes);
        return fill(S.src, src, err, errlen);
    case P_D2H_PINNED:
    case P_D2H_PINNED_ASYNC:
        if (alloc_pinned(err, errlen) != CR_OK || make_buffer(&S.src, rw, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        memset(S.pinned_ptr, 0, (size_t)bytes);
        return fill(S.src, src, err, errlen);
    case P_D2D_COPY:
    case P_D2D_KERNEL:
    case P_H2D_COPY_BUFFER_PINNED:
    case P_H2D_KERNEL_PINNED:
    case P_D2H_COPY_BUFFER_PINNED:
    case P_D2H_KERNEL_PINNED: {
        /* One buffer to another; which of them lives in host memory is the path. */
        bool from_host = p->id == P_H2D_COPY_BUFFER_PINNED || p->id == P_H2D_KERNEL_PINNED;
        bool to_host = p->id == P_D2H_COPY_BUFFER_PINNED || p->id == P_D2H_KERNEL_PINNED;
        if (make_buffer(&S.src, rw | (from_host ? CL_MEM_ALLOC_HOST_PTR : 0), NULL, err, errlen) != CR_OK ||
            make_buffer(&S.dst, rw | (to_host ? CL_MEM_ALLOC_HOST_PTR : 0), NULL, err, errlen) != CR_OK ||
            zero(S.dst, err, errlen) != CR_OK)
            return CR_ERR;
        return fill(S.src, src, err, errlen);
    }
    case P_DUPLEX_COPY:
    case P_DUPLEX_KERNEL:
        return prepare_duplex(p, src, err, errlen);
    case P_PEER:
    case P_HOST_FAN:
    case P_LOCAL:
        snprintf(err, errlen, "%s", p->id == P_LOCAL ? "the local-memory path is prepared per vector width "
                                                       "(prepare_local)"
                                                     : "a multi-device path cannot run on OpenCL");
        return CR_ERR;
    case P_CPU_WRITE_HOST:
    case P_CPU_READ_HOST:
    case P_CPU_WRITE_DEVICE:
    case P_CPU_READ_DEVICE: {
        bool host = p->id == P_CPU_WRITE_HOST || p->id == P_CPU_READ_HOST;
        if (make_buffer(&S.dst, rw | (host ? CL_MEM_ALLOC_HOST_PTR : 0), NULL, err, errlen) != CR_OK ||
            alloc_host(&S.host, err, errlen) != CR_OK)
            return CR_ERR;
        if (p->id == P_CPU_WRITE_HOST || p->id == P_CPU_WRITE_DEVICE) {
            memcpy(S.host, src, (size_t)bytes); /* the CPU copies from here into the map */
            return zero(S.dst, err, errlen);
        }
        memset(S.host, 0, (size_t)bytes);
        return fill(S.dst, src, err, errlen);
    }
    case P_KR_DEVICE:
    case P_KW_DEVICE:
        if (make_buffer(&S.dst, rw, NULL, err, errlen) != CR_OK)
            return CR_ERR;
        break;
    case P_KR_HOST_RO:
    case P_KR_HOST_RW:
    case P_KW_HOST_WO:
    case P_KW_HOST_RW: {
        cl_mem_flags access = p->id == P_KR_HOST_RO ? CL_MEM_READ_ONLY : p->id == P_KW_HOST_WO ? CL_MEM_WRITE_ONLY : rw;
        if (make_buffer(&S.dst, CL_MEM_ALLOC_HOST_PTR | access, NULL, err, errlen) != CR_OK)
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
    case P_TECHNIQUE:
        return prepare_technique(p, src, err, errlen);
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
        if (alloc_host(&S.system_ptr, err, errlen) != CR_OK)
            return CR_ERR;
        if (read)
            memcpy(S.system_ptr, src, (size_t)bytes);
        read = false;
        break;
    }
    if (p->kind == BW_KERNEL_READ) {
        cl_int rc;
        S.partial = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, (size_t)S.groups * sizeof(cl_ulong), NULL, &rc);
        CR_CL_CHECK(rc, "clCreateBuffer(partial sums)", err, errlen);
    }
    if (read && S.dst)
        return fill(S.dst, src, err, errlen);
    if (p->kind == BW_KERNEL_WRITE)
        return zero_target(err, errlen);
    return CR_OK;
}

/* One work-group per tile, the kernel of vectors of v words. */
static cr_status bw_prepare_local(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err,
                                  size_t errlen)
{
    bw_release(p);
    S.bytes = bytes;
    enum kernel_id k = K_LOCAL_V1;
    while (k < K_LOCAL_V16 && (1u << (k - K_LOCAL_V1)) < v)
        ++k;
    if ((1u << (k - K_LOCAL_V1)) != v) {
        snprintf(err, errlen, "OpenCL C has no vector of %u words", v);
        return CR_UNSUPPORTED;
    }
    if (local_kernel_fits(k, err, errlen) != CR_OK)
        return CR_UNSUPPORTED;
    S.local_kernel = k;
    S.work_group = BW_LOCAL_GROUP;
    S.groups = bytes / BW_LOCAL_TILE_BYTES;
    S.work_items = S.groups * BW_LOCAL_GROUP;
    const cl_mem_flags rw = CL_MEM_READ_WRITE;
    if (make_buffer(&S.src, rw, NULL, err, errlen) != CR_OK || make_buffer(&S.dst, rw, NULL, err, errlen) != CR_OK ||
        zero(S.dst, err, errlen) != CR_OK)
        return CR_ERR;
    return fill(S.src, src, err, errlen);
}

/* ---- repetitions ---- */

static cr_status finish_timed(cl_event ev, uint64_t t0, cr_timing *t, const char *what, char *err, size_t errlen)
{
    cl_int rc = clFinish(S.cl.queue);
    t->host_ns = cr_now_ns() - t0;
    if (rc == CL_SUCCESS)
        cr_cl_event_times(ev, t);
    clReleaseEvent(ev);
    CR_CL_CHECK(rc, what, err, errlen);
    return CR_OK;
}

/* Sets kernel k's arguments and runs it, timed. */
static cr_status launch(enum kernel_id k, const cr_cl_arg *args, unsigned count, cr_timing *t, char *err,
                        size_t errlen)
{
    if (cr_cl_set_args(S.kernel[k], kernel_names[k], args, count, err, errlen) != CR_OK)
        return CR_ERR;
    /* The target (argument 0) of an SVM path is its SVM allocation, of a
     * system SVM path the malloc'd pointer. */
    void *target = S.svm_ptr ? S.svm_ptr : S.system_ptr;
    if (target)
        CR_CL_CHECK(clSetKernelArgSVMPointer(S.kernel[k], 0, target), "clSetKernelArgSVMPointer", err, errlen);
    return cr_cl_launch_timed(&S.cl, S.kernel[k], (size_t)S.work_items, (size_t)S.work_group, t, err, errlen);
}

static cr_status run_kernel(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    cl_ulong n4 = S.bytes / 16;
    cl_uint seed = (cl_uint)S.bytes;
    bool read = p->kind == BW_KERNEL_READ;
    const cr_cl_arg read_args[] = {CR_CL_ARG(S.dst), CR_CL_ARG(S.partial),
                                   CR_CL_LOCAL((size_t)S.work_group * sizeof(cl_ulong)), CR_CL_ARG(n4)};
    const cr_cl_arg write_args[] = {CR_CL_ARG(S.dst), CR_CL_ARG(n4), CR_CL_ARG(seed)};
    if (p->kind == BW_KERNEL_LOCAL) {
        const cr_cl_arg local_args[] = {CR_CL_ARG(S.src), CR_CL_ARG(S.dst)};
        return launch(S.local_kernel, local_args, 2, t, err, errlen);
    }
    return read ? launch(K_READ, read_args, 4, t, err, errlen) : launch(K_WRITE, write_args, 3, t, err, errlen);
}

/* Enqueues the copy kernel from in to out on q, not waiting. The kernel's
 * arguments are taken at enqueue: the same kernel can go on again at once
 * with others. */
static cl_int enqueue_copy_kernel(cl_command_queue q, cl_mem in, cl_mem out, cl_event *ev)
{
    cl_ulong n4 = S.bytes / 16;
    size_t global = (size_t)S.work_items, local = (size_t)S.work_group;
    cl_kernel k = S.kernel[K_COPY];
    cl_int rc = clSetKernelArg(k, 0, sizeof in, &in);
    if (rc == CL_SUCCESS)
        rc = clSetKernelArg(k, 1, sizeof out, &out);
    if (rc == CL_SUCCESS)
        rc = clSetKernelArg(k, 2, sizeof n4, &n4);
    return rc == CL_SUCCESS ? clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, ev) : rc;
}

/* Both halves of a duplex path, one per queue, enqueued before either is
 * waited for. The time is the host clock around both, and the events'
 * span from the first start to the last end: the two queues share the
 * device's profiling clock, and that span is the time during which either
 * direction was moving, whether they overlapped or the runtime ran them
 * one after the other. The sum of their durations would count an overlap
 * twice, and either alone would miss the other's tail. */
static cr_status run_duplex(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    size_t n = (size_t)S.bytes;
    cl_command_queue q[2] = {S.cl.queue, S.queue2};
    cl_event ev[2] = {NULL, NULL};
    uint64_t t0 = cr_now_ns();
    cl_int rc = p->id == P_DUPLEX_COPY
                    ? clEnqueueWriteBuffer(q[0], S.dst, CL_FALSE, 0, n, S.pinned_ptr, 0, NULL, &ev[0])
                    : enqueue_copy_kernel(q[0], S.pinned, S.dst, &ev[0]);
    if (rc == CL_SUCCESS)
        rc = p->id == P_DUPLEX_COPY ? clEnqueueReadBuffer(q[1], S.src, CL_FALSE, 0, n, S.pinned_out_ptr, 0, NULL, &ev[1])
                                    : enqueue_copy_kernel(q[1], S.src, S.pinned_out, &ev[1]);
    /* Whatever was enqueued is waited for, so that no command outlives its buffers. */
    for (int i = 0; i < 2; ++i) {
        cl_int fin = clFinish(q[i]);
        if (rc == CL_SUCCESS)
            rc = fin;
    }
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false;
    if (rc == CL_SUCCESS) {
        cr_timing half[2];
        cr_cl_event_times(ev[0], &half[0]);
        cr_cl_event_times(ev[1], &half[1]);
        t->has_event = half[0].has_event && half[1].has_event;
        t->ev_start_ns = half[0].ev_start_ns < half[1].ev_start_ns ? half[0].ev_start_ns : half[1].ev_start_ns;
        t->ev_end_ns = half[0].ev_end_ns > half[1].ev_end_ns ? half[0].ev_end_ns : half[1].ev_end_ns;
    }
    for (int i = 0; i < 2; ++i)
        if (ev[i])
            clReleaseEvent(ev[i]);
    CR_CL_CHECK(rc, p->id == P_DUPLEX_COPY ? "duplex clEnqueue(Write|Read)Buffer" : "duplex copy kernels", err, errlen);
    return CR_OK;
}

static cr_status run_copy(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    size_t n = (size_t)S.bytes;
    cl_event ev;
    cl_int rc;
    uint64_t t0 = cr_now_ns();
    switch ((enum path_id)p->id) {
    case P_H2D_PAGEABLE: rc = clEnqueueWriteBuffer(S.cl.queue, S.dst, CL_TRUE, 0, n, S.host, 0, NULL, &ev); break;
    case P_H2D_PAGEABLE_ASYNC: rc = clEnqueueWriteBuffer(S.cl.queue, S.dst, CL_FALSE, 0, n, S.host, 0, NULL, &ev); break;
    case P_H2D_PINNED: rc = clEnqueueWriteBuffer(S.cl.queue, S.dst, CL_TRUE, 0, n, S.pinned_ptr, 0, NULL, &ev); break;
    case P_H2D_PINNED_ASYNC: rc = clEnqueueWriteBuffer(S.cl.queue, S.dst, CL_FALSE, 0, n, S.pinned_ptr, 0, NULL, &ev); break;
    case P_D2H_PAGEABLE: rc = clEnqueueReadBuffer(S.cl.queue, S.src, CL_TRUE, 0, n, S.host, 0, NULL, &ev); break;
    case P_D2H_PAGEABLE_ASYNC: rc = clEnqueueReadBuffer(S.cl.queue, S.src, CL_FALSE, 0, n, S.host, 0, NULL, &ev); break;
    case P_D2H_PINNED: rc = clEnqueueReadBuffer(S.cl.queue, S.src, CL_TRUE, 0, n, S.pinned_ptr, 0, NULL, &ev); break;
    case P_D2H_PINNED_ASYNC: rc = clEnqueueReadBuffer(S.cl.queue, S.src, CL_FALSE, 0, n, S.pinned_ptr, 0, NULL, &ev); break;
    case P_D2D_COPY:
    case P_H2D_COPY_BUFFER_PINNED:
    case P_D2H_COPY_BUFFER_PINNED: rc = clEnqueueCopyBuffer(S.cl.queue, S.src, S.dst, 0, 0, n, 0, NULL, &ev); break;
    case P_DUPLEX_COPY:
    case P_DUPLEX_KERNEL: return run_duplex(p, t, err, errlen);
    default: {
        cl_ulong n4 = S.bytes / 16;
        const cr_cl_arg args[] = {CR_CL_ARG(S.src), CR_CL_ARG(S.dst), CR_CL_ARG(n4)};
        return launch(K_COPY, args, 3, t, err, errlen);
    }
    }
    CR_CL_CHECK(rc, "clEnqueue(Write|Read|Copy)Buffer", err, errlen);
    return finish_timed(ev, t0, t, "clFinish(transfer)", err, errlen);
}

static cr_status run_cpu_access(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    bool write = p->id == P_CPU_WRITE_HOST || p->id == P_CPU_WRITE_DEVICE;
    size_t n = (size_t)S.bytes;
    uint64_t t0 = cr_now_ns();
    cl_event ev;
    cl_int rc;
    switch (phase) {
    case 0:
        S.mapped = clEnqueueMapBuffer(S.cl.queue, S.dst, CL_TRUE, write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ,
                                      0, n, 0, NULL, &ev, &rc);
        CR_CL_CHECK(rc, "clEnqueueMapBuffer", err, errlen);
        return finish_timed(ev, t0, t, "clFinish(map)", err, errlen);
    case 1:
        if (write)
            memcpy(S.mapped, S.host, n);
        else
            memcpy(S.host, S.mapped, n);
        t->host_ns = cr_now_ns() - t0;
        t->has_event = false;
        return CR_OK;
    default:
        rc = clEnqueueUnmapMemObject(S.cl.queue, S.dst, S.mapped, 0, NULL, &ev);
        S.mapped = NULL;
        CR_CL_CHECK(rc, "clEnqueueUnmapMemObject", err, errlen);
        return finish_timed(ev, t0, t, "clFinish(unmap)", err, errlen);
    }
}

static cr_status bw_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    switch (p->kind) {
    case BW_COPY: return run_copy(p, t, err, errlen);
    case BW_CPU_ACCESS: return run_cpu_access(p, phase, t, err, errlen);
    case BW_TECHNIQUE: return run_technique(p, t, err, errlen);
    default: return run_kernel(p, t, err, errlen);
    }
}

/* ---- results ---- */

static cr_status read_target(void *dst, char *err, size_t errlen)
{
    if (S.system_ptr) { /* the kernel's queue has finished: the host reads its own memory */
        memcpy(dst, S.system_ptr, (size_t)S.bytes);
        return CR_OK;
    }
    if (S.svm_ptr) { /* a map is required for coarse grain and harmless for fine */
        CR_CL_CHECK(clEnqueueSVMMap(S.cl.queue, CL_TRUE, CL_MAP_READ, S.svm_ptr, (size_t)S.bytes, 0, NULL, NULL),
                    "clEnqueueSVMMap", err, errlen);
        memcpy(dst, S.svm_ptr, (size_t)S.bytes);
        CR_CL_CHECK(clEnqueueSVMUnmap(S.cl.queue, S.svm_ptr, 0, NULL, NULL), "clEnqueueSVMUnmap", err, errlen);
        CR_CL_CHECK(clFinish(S.cl.queue), "clFinish", err, errlen);
        return CR_OK;
    }
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.dst, CL_TRUE, 0, (size_t)S.bytes, dst, 0, NULL, NULL),
                "clEnqueueReadBuffer", err, errlen);
    return CR_OK;
}

static cr_status bw_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    switch ((enum path_id)p->id) {
    case P_TECHNIQUE:
        technique_result(p, dst);
        return CR_OK;
    case P_D2H_PAGEABLE:
    case P_D2H_PAGEABLE_ASYNC:
    case P_CPU_READ_HOST:
    case P_CPU_READ_DEVICE:
        memcpy(dst, S.host, (size_t)S.bytes);
        return CR_OK;
    case P_D2H_PINNED:
    case P_D2H_PINNED_ASYNC:
        memcpy(dst, S.pinned_ptr, (size_t)S.bytes);
        return CR_OK;
    case P_DUPLEX_COPY:
    case P_DUPLEX_KERNEL: {
        /* The host-to-device half's buffer A, then the device-to-host half's destination. */
        void *second = (char *)dst + S.bytes;
        if (read_target(dst, err, errlen) != CR_OK)
            return CR_ERR;
        if (p->id == P_DUPLEX_COPY) {
            memcpy(second, S.pinned_out_ptr, (size_t)S.bytes);
            return CR_OK;
        }
        CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.pinned_out, CL_TRUE, 0, (size_t)S.bytes, second, 0, NULL, NULL),
                    "clEnqueueReadBuffer", err, errlen);
        return CR_OK;
    }
    default: break;
    }
    if (p->kind != BW_KERNEL_READ)
        return read_target(dst, err, errlen);
    cl_ulong *partial = malloc((size_t)S.groups * sizeof *partial);
    if (partial == NULL) {
        snprintf(err, errlen, "out of memory");
        return CR_ERR;
    }
    cl_int rc = clEnqueueReadBuffer(S.cl.queue, S.partial, CL_TRUE, 0, (size_t)S.groups * sizeof *partial, partial, 0,
                                    NULL, NULL);
    *sum = 0;
    for (uint64_t i = 0; i < S.groups; ++i)
        *sum += partial[i];
    free(partial);
    CR_CL_CHECK(rc, "clEnqueueReadBuffer(partial sums)", err, errlen);
    return CR_OK;
}

static unsigned bw_transfers(const bw_path *p)
{
    return p->id == P_DUPLEX_COPY || p->id == P_DUPLEX_KERNEL ? 2 : 1;
}

const bw_backend bandwidth_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = bw_open, .close = bw_close},
    .paths = bw_paths,
    .supported = bw_supported,
    .prepare = bw_prepare,
    .run = bw_run,
    .result = bw_result,
    .release = bw_release,
    .transfers = bw_transfers,
    .peer_links = NULL, /* OpenCL has no peer query */
    .prepare_local = bw_prepare_local,
};
