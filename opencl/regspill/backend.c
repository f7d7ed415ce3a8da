/* OpenCL backend of the register-spill benchmark: builds the kernel for a
 * live-value count (and on NVIDIA's platform a register cap), launches and
 * times it. What the compiler says about registers and spills is passed on
 * as it comes; the design reads it. */
#include "cl_device.h"
#include "regspill/backend.h"

#include <stdlib.h>
#include <string.h>

/* regspill/recurrence.h and kernels.cl, embedded */
extern const char regspill_recurrence_h[], regspill_kernels_cl[];

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

static struct {
    cr_cl cl;
    cl_program program;
    cl_kernel kernel;
    cl_mem out;
    bool nvidia;     /* the platform takes -cl-nv-maxrregcount and -cl-nv-verbose */
    unsigned lanes;  /* copies per work-item: the CPU's preferred int vector width, 1 on GPUs */
    char arch[16];   /* "sm_90" on NVIDIA, else empty */
} S;

static void release_kernel(void)
{
    cr_cl_release_kernel(&S.kernel);
    cr_cl_release_program(&S.program);
}

static void cl_close(void)
{
    release_kernel();
    cr_cl_release_mem(&S.out);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

/* NVIDIA's OpenCL names its compute capability through cl_nv_device_attribute_query. */
static void detect_nvidia(void)
{
    char ext[8192] = "";
    clGetDeviceInfo(S.cl.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    ext[sizeof ext - 1] = '\0';
    if (!strstr(ext, "cl_nv_device_attribute_query"))
        return;
    S.nvidia = true;
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(S.cl.device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(S.cl.device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) == CL_SUCCESS)
        snprintf(S.arch, sizeof S.arch, "sm_%u%u", major, minor);
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_state(spec, &S, sizeof S, &S.cl, err, errlen);
    if (st != CR_OK)
        return st;
    detect_nvidia();
    S.lanes = 1;
    cl_uint width = 1;
    if (S.cl.info.is_cpu &&
        clGetDeviceInfo(S.cl.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, sizeof width, &width, NULL) == CL_SUCCESS &&
        (width == 2 || width == 4 || width == 8 || width == 16))
        S.lanes = width;
    *info = S.cl.info;
    return CR_OK;
}

static const char *cl_arch(void) { return S.arch[0] ? S.arch : NULL; }

static bool cl_can_cap(void) { return S.nvidia; }

static cr_status cl_build(const regspill_variant *v, uint64_t work_group, regspill_build_info *info, char *err,
                          size_t errlen)
{
    (void)work_group;
    release_kernel();
    if (v->live == 0 || v->live > RS_LIVE_MAX) {
        snprintf(err, errlen, "live-value count %u is outside 1..%u", v->live, RS_LIVE_MAX);
        return CR_UNSUPPORTED;
    }
    if (v->reg_cap && !S.nvidia) {
        snprintf(err, errlen, "this OpenCL platform has no register cap option");
        return CR_UNSUPPORTED;
    }
    char options[320], lane_ids[96] = "0";
    if (S.lanes > 1) {
        int n = snprintf(lane_ids, sizeof lane_ids, "(uint%u)(0", S.lanes);
        for (unsigned l = 1; l < S.lanes; ++l)
            n += snprintf(lane_ids + n, sizeof lane_ids - (size_t)n, ",%u", l);
        snprintf(lane_ids + n, sizeof lane_ids - (size_t)n, ")");
    }
    char vtype[12] = "";
    if (S.lanes > 1)
        snprintf(vtype, sizeof vtype, "%u", S.lanes);
    int len = snprintf(options, sizeof options,
                       "-cl-std=CL1.2 -DRS_LIVE=%u -DRS_LANES=%u -DRS_UINT=uint%s -DRS_STORE=vstore%s "
                       "-DRS_LANE_IDS=\"%s\"",
                       v->live, S.lanes, vtype, vtype, lane_ids);
    if (S.nvidia)
        len += snprintf(options + len, sizeof options - (size_t)len, " -cl-nv-verbose");
    if (v->reg_cap)
        snprintf(options + len, sizeof options - (size_t)len, " -cl-nv-maxrregcount=%u", v->reg_cap);
    const char *const sources[] = {regspill_recurrence_h, regspill_kernels_cl};
    if (cr_cl_build(&S.cl, sources, 2, options, &S.program, err, errlen) != CR_OK)
        return CR_ERR;
    cl_int rc;
    S.kernel = clCreateKernel(S.program, "regspill_live", &rc);
    CR_CL_CHECK(rc, "clCreateKernel(regspill_live)", err, errlen);

    size_t log_len = 0;
    if (clGetProgramBuildInfo(S.program, S.cl.device, CL_PROGRAM_BUILD_LOG, sizeof info->log, info->log, &log_len) !=
        CL_SUCCESS)
        info->log[0] = '\0';
    info->log[sizeof info->log - 1] = '\0';
    cl_ulong private_bytes = 0, local_bytes = 0;
    if (clGetKernelWorkGroupInfo(S.kernel, S.cl.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_bytes,
                                 &private_bytes, NULL) == CL_SUCCESS)
        info->private_bytes = (int64_t)private_bytes;
    if (clGetKernelWorkGroupInfo(S.kernel, S.cl.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes,
                                 NULL) == CL_SUCCESS)
        info->static_smem_bytes = (int64_t)local_bytes;
    return cr_cl_kernel_group_limit(&S.cl, S.kernel, 0, &info->max_work_group, err, errlen);
}

static cr_status cl_prepare(uint64_t work_items, char *err, size_t errlen)
{
    cr_cl_release_mem(&S.out);
    cl_int rc;
    S.out = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, (size_t)(work_items * S.lanes) * sizeof(cl_uint), NULL,
                           &rc);
    CR_CL_CHECK(rc, "clCreateBuffer(out)", err, errlen);
    return CR_OK;
}

static cr_status cl_run(uint64_t work_items, uint64_t work_group, uint32_t rounds, cr_timing *t, char *err,
                        size_t errlen)
{
    cl_uint r = rounds;
    const cr_cl_arg args[] = {CR_CL_ARG(S.out), CR_CL_ARG(r)};
    if (cr_cl_set_args(S.kernel, "regspill_live", args, 2, err, errlen) != CR_OK)
        return CR_ERR;
    return cr_cl_launch_timed(&S.cl, S.kernel, (size_t)work_items, (size_t)work_group, t, err, errlen);
}

static cr_status cl_download(uint32_t *dst, uint64_t work_items, char *err, size_t errlen)
{
    CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.out, CL_TRUE, 0, (size_t)(work_items * S.lanes) * sizeof(cl_uint),
                                    dst, 0, NULL, NULL),
                "clEnqueueReadBuffer(out)", err, errlen);
    return CR_OK;
}

static unsigned cl_lanes(void) { return S.lanes; }

/* Four waves on a GPU, so that the last, partly filled wave is a small
 * part of the time even where registers leave few groups resident. */
static void cl_geometry(uint64_t *work_items, uint64_t *work_group)
{
    cr_cl_fill_geometry(&S.cl, 4, work_items, work_group);
}

const regspill_backend regspill_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .arch = cl_arch,
    .can_cap_registers = cl_can_cap,
    .build = cl_build,
    .prepare = cl_prepare,
    .run = cl_run,
    .download = cl_download,
    .lanes = cl_lanes,
    .geometry = cl_geometry,
    .compile_offline = NULL,
};
