#include "cuda_driver.h"

#include <cstdlib>

static const cr_cuda_probe runtime_probe = {
    cudaGetDeviceCount, cudaDriverGetVersion, cudaRuntimeGetVersion, cudaSetDevice, cudaGetDeviceProperties,
    cudaDeviceGetAttribute, cudaMemGetInfo, cudaMallocManaged, cudaFuncSetAttribute,
};
static cr_cuda_probe probe = runtime_probe;

/* Each member the test's probe leaves NULL stays the runtime's. */
#define KEEP(member) probe.member = p && p->member ? p->member : runtime_probe.member
void cr_cuda_set_probe(const cr_cuda_probe *p)
{
    KEEP(get_device_count);
    KEEP(driver_get_version);
    KEEP(runtime_get_version);
    KEEP(set_device);
    KEEP(get_device_properties);
    KEEP(device_get_attribute);
    KEEP(mem_get_info);
    KEEP(malloc_managed);
    KEEP(func_set_attribute);
}
#undef KEEP

const cr_cuda_probe *cr_cuda_calls(void) { return &probe; }

/* The driver branch that first served each CUDA major version: with minor
 * version compatibility, any driver of that branch or newer runs code built
 * by any toolkit of the same major version (PTX excepted: see below). */
static int driver_branch(int cuda_major)
{
    static const struct {
        int major, branch;
    } branches[] = {{11, 450}, {12, 525}, {13, 580}};
    for (size_t i = 0; i < sizeof branches / sizeof branches[0]; ++i)
        if (branches[i].major == cuda_major)
            return branches[i].branch;
    return 0;
}

bool cr_cuda_driver_too_old(cudaError_t e, const char *what, char *err, size_t errlen)
{
    bool ptx = e == cudaErrorUnsupportedPtxVersion;
    if (!ptx && e != cudaErrorInsufficientDriver && e != cudaErrorCallRequiresNewerDriver)
        return false;
    int drv = 0, rt = 0;
    if (probe.driver_get_version(&drv) != cudaSuccess || drv <= 0)
        return false; /* no driver at all: nothing is too old */
    if (probe.runtime_get_version(&rt) != cudaSuccess)
        rt = CUDART_VERSION;
    char branch[32] = "";
    if (driver_branch(rt / 1000) > 0)
        snprintf(branch, sizeof branch, ", driver R%d or newer", driver_branch(rt / 1000));
    /* PTX is JIT-compiled only by a driver at least as new as the toolkit
     * that wrote it, minor version included: a 13.1 build's PTX needs a 13.1
     * driver, where its binary code runs on any 13.x one. */
    snprintf(err, errlen,
             "%s: CUDA driver too old (%s): it supports CUDA %d.%d, this build %s CUDA %d.%d%s; install a newer "
             "driver, or on a datacenter GPU the cuda-compat package",
             what, cudaGetErrorName(e), drv / 1000, drv % 1000 / 10, ptx ? "has PTX that needs" : "needs",
             rt / 1000, rt % 1000 / 10, ptx ? "" : branch);
    return true;
}

cr_status cr_cuda_error(cudaError_t e, const char *what, char *err, size_t errlen)
{
    if (!cr_cuda_driver_too_old(e, what, err, errlen))
        snprintf(err, errlen, "%s: %s", what, cudaGetErrorString(e));
    return CR_ERR;
}

/* The timer (cuda_timer.h) gates a stream with a kernel that spins until
 * the host opens it. Lazy loading may load a kernel at its first
 * launch, and loading may wait for the kernels already running: the gate,
 * which waits for the host. So every kernel is loaded when the context is
 * made, before anything is timed. Set before the runtime's first call. */
static void load_kernels_eagerly(void) { setenv("CUDA_MODULE_LOADING", "EAGER", 1); }

/* A missing driver and a driver that sees no device both mean "nothing to
 * run on", which the caller turns into a skip; a driver that is there but
 * cannot serve this build is an error, so that a machine with a GPU never
 * reads as one without. */
cr_status cr_cuda_count_devices(int *n, char *err, size_t errlen)
{
    load_kernels_eagerly();
    *n = 0;
    cudaError_t e = probe.get_device_count(n);
    if (e == cudaSuccess && *n > 0)
        return CR_OK;
    cudaGetLastError(); /* clear it, or the next launch check would report it */
    if (e == cudaSuccess || e == cudaErrorNoDevice) {
        snprintf(err, errlen, "no CUDA device: %s",
                 e == cudaSuccess ? "the driver reports none" : cudaGetErrorString(e));
        return CR_NO_DEVICE;
    }
    int drv = 0;
    if (probe.driver_get_version(&drv) != cudaSuccess || drv <= 0) {
        snprintf(err, errlen, "no CUDA device: CUDA driver not found (libcuda.so missing or not loadable)");
        return CR_NO_DEVICE;
    }
    if (!cr_cuda_driver_too_old(e, "cudaGetDeviceCount", err, errlen))
        snprintf(err, errlen, "CUDA driver %d.%d is installed, but cudaGetDeviceCount failed: %s", drv / 1000,
                 drv % 1000 / 10, cudaGetErrorString(e));
    return CR_ERR;
}

cr_status cr_cuda_versions(int *driver, int *runtime, char *err, size_t errlen)
{
    CR_CUDA_CHECK(probe.driver_get_version(driver), "cudaDriverGetVersion", err, errlen);
    CR_CUDA_CHECK(probe.runtime_get_version(runtime), "cudaRuntimeGetVersion", err, errlen);
    return CR_OK;
}
