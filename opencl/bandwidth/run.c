/* The OpenCL bandwidth backend's timed repetitions (run.h): transfers,
 * kernels, CPU access through a map, both directions of a duplex path at
 * once and Lee's techniques end to end. */
#include "run.h"

#include <string.h>

static cr_status finish_timed(cl_event ev, uint64_t t0, cr_timing *t, const char *what, char *err, size_t errlen)
{
    cl_int rc = clFinish(bw_cl.cl.queue);
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
    if (cr_cl_set_args(bw_cl.kernel[k], bw_cl_kernel_names[k], args, count, err, errlen) != CR_OK)
        return CR_ERR;
    /* The target (argument 0) of an SVM path is its SVM allocation, of a
     * system SVM path the malloc'd pointer. */
    void *target = bw_cl.svm_ptr ? bw_cl.svm_ptr : bw_cl.system_ptr;
    if (target)
        CR_CL_CHECK(clSetKernelArgSVMPointer(bw_cl.kernel[k], 0, target), "clSetKernelArgSVMPointer", err, errlen);
    return cr_cl_launch_timed(&bw_cl.cl, bw_cl.kernel[k], (size_t)bw_cl.work_items, (size_t)bw_cl.work_group, t, err,
                              errlen);
}

static cr_status run_kernel(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    cl_ulong n4 = bw_cl.bytes / 16;
    cl_uint seed = (cl_uint)bw_cl.bytes;
    bool read = p->kind == BW_KERNEL_READ;
    const cr_cl_arg read_args[] = {CR_CL_ARG(bw_cl.dst), CR_CL_ARG(bw_cl.partial),
                                   CR_CL_LOCAL((size_t)bw_cl.work_group * sizeof(cl_ulong)), CR_CL_ARG(n4)};
    const cr_cl_arg write_args[] = {CR_CL_ARG(bw_cl.dst), CR_CL_ARG(n4), CR_CL_ARG(seed)};
    if (p->kind == BW_KERNEL_LOCAL) {
        const cr_cl_arg local_args[] = {CR_CL_ARG(bw_cl.src), CR_CL_ARG(bw_cl.dst)};
        return launch(bw_cl.local_kernel, local_args, 2, t, err, errlen);
    }
    return read ? launch(K_READ, read_args, 4, t, err, errlen) : launch(K_WRITE, write_args, 3, t, err, errlen);
}

/* Enqueues the copy kernel from in to out on q, not waiting. The kernel's
 * arguments are taken at enqueue: the same kernel can go on again at once
 * with others. */
static cl_int enqueue_copy_kernel(cl_command_queue q, cl_mem in, cl_mem out, cl_event *ev)
{
    cl_ulong n4 = bw_cl.bytes / 16;
    size_t global = (size_t)bw_cl.work_items, local = (size_t)bw_cl.work_group;
    cl_kernel k = bw_cl.kernel[K_COPY];
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
    size_t n = (size_t)bw_cl.bytes;
    cl_command_queue q[2] = {bw_cl.cl.queue, bw_cl.queue2};
    cl_event ev[2] = {NULL, NULL};
    uint64_t t0 = cr_now_ns();
    cl_int rc = p->id == P_DUPLEX_COPY
                    ? clEnqueueWriteBuffer(q[0], bw_cl.dst, CL_FALSE, 0, n, bw_cl.pinned_ptr, 0, NULL, &ev[0])
                    : enqueue_copy_kernel(q[0], bw_cl.pinned, bw_cl.dst, &ev[0]);
    if (rc == CL_SUCCESS)
        rc = p->id == P_DUPLEX_COPY
                 ? clEnqueueReadBuffer(q[1], bw_cl.src, CL_FALSE, 0, n, bw_cl.pinned_out_ptr, 0, NULL, &ev[1])
                 : enqueue_copy_kernel(q[1], bw_cl.src, bw_cl.pinned_out, &ev[1]);
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
    size_t n = (size_t)bw_cl.bytes;
    cl_command_queue q = bw_cl.cl.queue;
    void *host = bw_cl.host, *pinned = bw_cl.pinned_ptr;
    cl_event ev;
    cl_int rc;
    uint64_t t0 = cr_now_ns();
    switch ((enum path_id)p->id) {
    case P_H2D_PAGEABLE: rc = clEnqueueWriteBuffer(q, bw_cl.dst, CL_TRUE, 0, n, host, 0, NULL, &ev); break;
    case P_H2D_PAGEABLE_ASYNC: rc = clEnqueueWriteBuffer(q, bw_cl.dst, CL_FALSE, 0, n, host, 0, NULL, &ev); break;
    case P_H2D_PINNED: rc = clEnqueueWriteBuffer(q, bw_cl.dst, CL_TRUE, 0, n, pinned, 0, NULL, &ev); break;
    case P_H2D_PINNED_ASYNC: rc = clEnqueueWriteBuffer(q, bw_cl.dst, CL_FALSE, 0, n, pinned, 0, NULL, &ev); break;
    case P_D2H_PAGEABLE: rc = clEnqueueReadBuffer(q, bw_cl.src, CL_TRUE, 0, n, host, 0, NULL, &ev); break;
    case P_D2H_PAGEABLE_ASYNC: rc = clEnqueueReadBuffer(q, bw_cl.src, CL_FALSE, 0, n, host, 0, NULL, &ev); break;
    case P_D2H_PINNED: rc = clEnqueueReadBuffer(q, bw_cl.src, CL_TRUE, 0, n, pinned, 0, NULL, &ev); break;
    case P_D2H_PINNED_ASYNC: rc = clEnqueueReadBuffer(q, bw_cl.src, CL_FALSE, 0, n, pinned, 0, NULL, &ev); break;
    case P_D2D_COPY:
    case P_H2D_COPY_BUFFER_PINNED:
    case P_D2H_COPY_BUFFER_PINNED: rc = clEnqueueCopyBuffer(q, bw_cl.src, bw_cl.dst, 0, 0, n, 0, NULL, &ev); break;
    case P_DUPLEX_COPY:
    case P_DUPLEX_KERNEL: return run_duplex(p, t, err, errlen);
    default: {
        cl_ulong n4 = bw_cl.bytes / 16;
        const cr_cl_arg args[] = {CR_CL_ARG(bw_cl.src), CR_CL_ARG(bw_cl.dst), CR_CL_ARG(n4)};
        return launch(K_COPY, args, 3, t, err, errlen);
    }
    }
    CR_CL_CHECK(rc, "clEnqueue(Write|Read|Copy)Buffer", err, errlen);
    return finish_timed(ev, t0, t, "clFinish(transfer)", err, errlen);
}

static cr_status run_cpu_access(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    bool write = p->id == P_CPU_WRITE_HOST || p->id == P_CPU_WRITE_DEVICE;
    size_t n = (size_t)bw_cl.bytes;
    uint64_t t0 = cr_now_ns();
    cl_event ev;
    cl_int rc;
    switch (phase) {
    case 0:
        bw_cl.mapped =
            clEnqueueMapBuffer(bw_cl.cl.queue, bw_cl.dst, CL_TRUE, write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ,
                               0, n, 0, NULL, &ev, &rc);
        CR_CL_CHECK(rc, "clEnqueueMapBuffer", err, errlen);
        return finish_timed(ev, t0, t, "clFinish(map)", err, errlen);
    case 1:
        if (write)
            memcpy(bw_cl.mapped, bw_cl.host, n);
        else
            memcpy(bw_cl.host, bw_cl.mapped, n);
        t->host_ns = cr_now_ns() - t0;
        t->has_event = false;
        return CR_OK;
    default:
        rc = clEnqueueUnmapMemObject(bw_cl.cl.queue, bw_cl.dst, bw_cl.mapped, 0, NULL, &ev);
        bw_cl.mapped = NULL;
        CR_CL_CHECK(rc, "clEnqueueUnmapMemObject", err, errlen);
        return finish_timed(ev, t0, t, "clFinish(unmap)", err, errlen);
    }
}

/* The CPU writes or reads a buffer through a map: Lee's direct access. */
static cl_int through_map(cl_mem m, bool write, void *host, size_t bytes)
{
    cl_int rc;
    void *p = clEnqueueMapBuffer(bw_cl.cl.queue, m, CL_TRUE, write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, 0,
                                 bytes, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS)
        return rc;
    if (write)
        memcpy(p, host, bytes);
    else
        memcpy(host, p, bytes);
    return clEnqueueUnmapMemObject(bw_cl.cl.queue, m, p, 0, NULL, NULL);
}

static cr_status run_technique(const bw_path *p, cr_timing *t, char *err, size_t errlen)
{
    bool vadd = p->workload == BW_VECTOR_ADD;
    bool map_in = p->technique != BW_DEFAULT;
    bool map_out = p->technique == BW_CPU_RESIDENT || p->technique == BW_GPU_RESIDENT;
    cl_ulong n = bw_cl.tin_bytes / 4;
    uint64_t t0 = cr_now_ns();
    cl_int rc = CL_SUCCESS;
    for (int i = 0; i < (vadd ? 2 : 1) && rc == CL_SUCCESS; ++i) {
        char *in = (char *)bw_cl.tsrc + i * bw_cl.tin_bytes;
        rc = map_in ? through_map(bw_cl.tin[i], true, in, (size_t)bw_cl.tin_bytes)
                    : clEnqueueWriteBuffer(bw_cl.cl.queue, bw_cl.tin[i], CL_TRUE, 0, (size_t)bw_cl.tin_bytes, in, 0,
                                           NULL, NULL);
    }
    CR_CL_CHECK(rc, "technique input", err, errlen);
    const enum kernel_id k = vadd ? K_VECTOR_ADD : K_REDUCE;
    const cr_cl_arg vadd_args[] = {CR_CL_ARG(bw_cl.tin[0]), CR_CL_ARG(bw_cl.tin[1]), CR_CL_ARG(bw_cl.tout),
                                   CR_CL_ARG(n)};
    const cr_cl_arg reduce_args[] = {CR_CL_ARG(bw_cl.tin[0]), CR_CL_ARG(bw_cl.tout),
                                     CR_CL_LOCAL((size_t)bw_cl.work_group * sizeof(double)), CR_CL_ARG(n)};
    if (cr_cl_set_args(bw_cl.kernel[k], bw_cl_kernel_names[k], vadd ? vadd_args : reduce_args, 4, err, errlen) != CR_OK)
        return CR_ERR;
    /* Not cr_cl_launch_timed: its wait would add a synchronisation the
     * technique does not have; the output transfer waits for the kernel. */
    size_t global = (size_t)bw_cl.work_items, local = (size_t)bw_cl.work_group;
    CR_CL_CHECK(clEnqueueNDRangeKernel(bw_cl.cl.queue, bw_cl.kernel[k], 1, NULL, &global, &local, 0, NULL, NULL),
                "clEnqueueNDRangeKernel", err, errlen);
    rc = map_out ? through_map(bw_cl.tout, false, bw_cl.tdst, (size_t)bw_cl.tout_bytes)
                 : clEnqueueReadBuffer(bw_cl.cl.queue, bw_cl.tout, CL_TRUE, 0, (size_t)bw_cl.tout_bytes, bw_cl.tdst, 0,
                                       NULL, NULL);
    if (rc == CL_SUCCESS)
        rc = clFinish(bw_cl.cl.queue);
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false; /* a technique is several commands and host work: the host clock spans them */
    CR_CL_CHECK(rc, "technique output", err, errlen);
    return CR_OK;
}

cr_status bw_cl_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    switch (p->kind) {
    case BW_COPY: return run_copy(p, t, err, errlen);
    case BW_CPU_ACCESS: return run_cpu_access(p, phase, t, err, errlen);
    case BW_TECHNIQUE: return run_technique(p, t, err, errlen);
    default: return run_kernel(p, t, err, errlen);
    }
}
