/* OpenCL backend of the bandwidth benchmark: every host/device path the API
 * offers, including Lee's Table 3.2 rows and the buffer-flag variants of his
 * Table 3.3, the API's copy against a copy kernel in each direction, both
 * directions at once on two queues, and kernels on malloc'd memory where
 * the device has system SVM, and work-groups streaming their local memory
 * in vectors of 1 to 16 words.
 * The multi-device paths are listed and refused
 * with the reason (OpenCL has no peer-to-peer API). Allocates, moves and
 * times; the design verifies. Here: opening, what the device supports,
 * the results and the contract's table; beside it the paths
 * (path_table.c), their buffers (prepare.c) and repetitions (run.c). */
#include "path_table.h"
#include "prepare.h"
#include "run.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

/* opencl/layout.cl, bench/bandwidth/elements.h and opencl/bandwidth/kernels.cl, embedded at build time */
extern const char layout_cl[], bandwidth_elements_h[], bandwidth_kernels_cl[];

static void bw_close(void)
{
    bw_cl_release(NULL);
    for (int k = 0; k < N_KERNELS; ++k)
        cr_cl_release_kernel(&bw_cl.kernel[k]);
    cr_cl_release_program(&bw_cl.program);
    if (bw_cl.queue2)
        clReleaseCommandQueue(bw_cl.queue2);
    cr_cl_close_state(&bw_cl, sizeof bw_cl, &bw_cl.cl);
}

static cr_status build_kernels(char *err, size_t errlen)
{
    char options[64];
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DCONTIGUOUS=%d", cr_cl_contiguous(&bw_cl.cl));
    const char *const sources[] = {layout_cl, bandwidth_elements_h, bandwidth_kernels_cl};
    if (cr_cl_build(&bw_cl.cl, sources, 3, options, &bw_cl.program, err, errlen) != CR_OK)
        return CR_ERR;
    for (int k = 0; k < N_KERNELS; ++k) {
        cl_int rc;
        bw_cl.kernel[k] = clCreateKernel(bw_cl.program, bw_cl_kernel_names[k], &rc);
        CR_CL_CHECK(rc, "clCreateKernel", err, errlen);
    }
    return CR_OK;
}

static cr_status bw_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_built(spec, &bw_cl, sizeof bw_cl, &bw_cl.cl, build_kernels, bw_close, err, errlen);
    if (st != CR_OK)
        return st;
    if (clGetDeviceInfo(bw_cl.cl.device, CL_DEVICE_SVM_CAPABILITIES, sizeof bw_cl.svm, &bw_cl.svm, NULL) != CL_SUCCESS)
        bw_cl.svm = 0; /* OpenCL 1.x device */
    cl_uint align_bits = 0;
    clGetDeviceInfo(bw_cl.cl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    bw_cl.base_align = align_bits / 8 > 4096 ? align_bits / 8 : 4096;
    if (clGetDeviceIDs(bw_cl.cl.platform, CL_DEVICE_TYPE_ALL, 0, NULL, &bw_cl.platform_devices) != CL_SUCCESS)
        bw_cl.platform_devices = 1; /* the one open */
    /* Duplex paths need a second queue; without one they say why. */
    cl_int rc;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    bw_cl.queue2 = clCreateCommandQueueWithProperties(bw_cl.cl.context, bw_cl.cl.device, props, &rc);
    if (rc != CL_SUCCESS) {
        bw_cl.queue2 = NULL;
        snprintf(bw_cl.queue2_err, sizeof bw_cl.queue2_err, "a second command queue: %s", cr_cl_strerror(rc));
    }
    *info = bw_cl.cl.info;
    return CR_OK;
}

static size_t bw_paths(const bw_path **out)
{
    *out = bw_cl_paths;
    return bw_cl_npaths;
}

static cr_status bw_supported(const bw_path *p, char *why, size_t len)
{
    if (p->kind == BW_TECHNIQUE && !(bw_cl.cl.info.has_fp64)) {
        snprintf(why, len, "the reduce kernel accumulates in double, which the device lacks");
        return p->workload == BW_REDUCE ? CR_UNSUPPORTED : CR_OK;
    }
    if (p->id == P_PEER || p->id == P_HOST_FAN) {
        if (bw_cl.platform_devices < 2)
            snprintf(why, len, "needs >= 2 devices (%u present)", bw_cl.platform_devices);
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
    if ((p->id == P_DUPLEX_COPY || p->id == P_DUPLEX_KERNEL) && bw_cl.queue2 == NULL) {
        snprintf(why, len, "%s", bw_cl.queue2_err);
        return CR_UNSUPPORTED;
    }
    if (p->id == P_LOCAL)
        return bw_cl_local_kernel_fits(K_LOCAL_V1, why, len);
    if ((p->id == P_KR_MALLOC || p->id == P_KW_MALLOC) && !(bw_cl.svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) {
        snprintf(why, len, "the device reports no fine-grained system SVM (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM): its "
                           "kernels cannot address malloc'd memory");
        return CR_UNSUPPORTED;
    }
    bool coarse = p->id == P_KR_SVM_COARSE || p->id == P_KW_SVM_COARSE;
    bool fine = p->id == P_KR_SVM_FINE || p->id == P_KW_SVM_FINE;
    if (coarse && !(bw_cl.svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        snprintf(why, len, "the device reports no coarse-grained SVM");
        return CR_UNSUPPORTED;
    }
    if (fine && !(bw_cl.svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
        snprintf(why, len, "the device reports no fine-grained SVM buffers");
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

/* ---- results ---- */

static void technique_result(const bw_path *p, void *dst)
{
    bw_technique_output(p->workload == BW_VECTOR_ADD, bw_cl.tdst, bw_cl.tout_bytes, bw_cl.groups, dst);
}

static cr_status read_target(void *dst, char *err, size_t errlen)
{
    if (bw_cl.system_ptr) { /* the kernel's queue has finished: the host reads its own memory */
        memcpy(dst, bw_cl.system_ptr, (size_t)bw_cl.bytes);
        return CR_OK;
    }
    if (bw_cl.svm_ptr) { /* a map is required for coarse grain and harmless for fine */
        CR_CL_CHECK(
            clEnqueueSVMMap(bw_cl.cl.queue, CL_TRUE, CL_MAP_READ, bw_cl.svm_ptr, (size_t)bw_cl.bytes, 0, NULL, NULL),
            "clEnqueueSVMMap", err, errlen);
        memcpy(dst, bw_cl.svm_ptr, (size_t)bw_cl.bytes);
        CR_CL_CHECK(clEnqueueSVMUnmap(bw_cl.cl.queue, bw_cl.svm_ptr, 0, NULL, NULL), "clEnqueueSVMUnmap", err, errlen);
        CR_CL_CHECK(clFinish(bw_cl.cl.queue), "clFinish", err, errlen);
        return CR_OK;
    }
    CR_CL_CHECK(clEnqueueReadBuffer(bw_cl.cl.queue, bw_cl.dst, CL_TRUE, 0, (size_t)bw_cl.bytes, dst, 0, NULL, NULL),
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
        memcpy(dst, bw_cl.host, (size_t)bw_cl.bytes);
        return CR_OK;
    case P_D2H_PINNED:
    case P_D2H_PINNED_ASYNC:
        memcpy(dst, bw_cl.pinned_ptr, (size_t)bw_cl.bytes);
        return CR_OK;
    case P_DUPLEX_COPY:
    case P_DUPLEX_KERNEL: {
        /* The host-to-device half's buffer A, then the device-to-host half's destination. */
        void *second = (char *)dst + bw_cl.bytes;
        if (read_target(dst, err, errlen) != CR_OK)
            return CR_ERR;
        if (p->id == P_DUPLEX_COPY) {
            memcpy(second, bw_cl.pinned_out_ptr, (size_t)bw_cl.bytes);
            return CR_OK;
        }
        CR_CL_CHECK(clEnqueueReadBuffer(bw_cl.cl.queue, bw_cl.pinned_out, CL_TRUE, 0, (size_t)bw_cl.bytes, second, 0,
                                        NULL, NULL),
                    "clEnqueueReadBuffer", err, errlen);
        return CR_OK;
    }
    default: break;
    }
    if (p->kind != BW_KERNEL_READ)
        return read_target(dst, err, errlen);
    cl_ulong *partial = malloc((size_t)bw_cl.groups * sizeof *partial);
    if (partial == NULL) {
        snprintf(err, errlen, "out of memory");
        return CR_ERR;
    }
    cl_int rc = clEnqueueReadBuffer(bw_cl.cl.queue, bw_cl.partial, CL_TRUE, 0, (size_t)bw_cl.groups * sizeof *partial,
                                    partial, 0, NULL, NULL);
    *sum = 0;
    for (uint64_t i = 0; i < bw_cl.groups; ++i)
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
    .paths = bw_paths, .supported = bw_supported, .result = bw_result, .transfers = bw_transfers,
    .prepare = bw_cl_prepare, .prepare_local = bw_cl_prepare_local, .release = bw_cl_release, /* prepare.c */
    .run = bw_cl_run,                                                                          /* run.c */
    .peer_links = NULL, /* OpenCL has no peer query */
};
