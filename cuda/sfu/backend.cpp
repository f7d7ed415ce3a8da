/* CUDA backend of the SFU benchmark (contract: sfu/backend.h). Versions:
 * precise (CUDA's default math, -ftz=false), intrinsic (__expf and friends
 * under -ftz=true, as Li used them) and ptx-approx (inline PTX .approx.ftz,
 * Li's SFU version and the fast side of the partition sweep). The kernels
 * are in kernels_plain.cu, kernels_partition.cu and kernels_intrinsic.cu, listed
 * by kernel_list.h; this file only picks one, moves the data and times the
 * launch. */
#include "cuda_device.h"
#include "sfu/kernel_list.h"

#include <climits>
#include <cstring>

/* Every SM from Maxwell (sm_50) to Blackwell has four processing blocks,
 * each a scheduler issuing one warp at a time: four warps fill every SIMD
 * lane of an SM, and blocks of four warps spread one warp to each. */
#define WARPS_TO_FILL_SM 4u
/* The partition unit: one warp. */
#define UNIT_SIZE 32u
#define WORK_GROUP (WARPS_TO_FILL_SM * UNIT_SIZE)
/* Full occupancy times this many waves is the most a chain run may launch. */
#define WAVES 4u

typedef struct {
    void *p;
    size_t bytes;
} device_buffer;

static struct {
    cr_cuda cu;
    device_buffer cx0, cy0, cxout, csout;
    bool prepared;
    sfu_func chain_func;
    cr_dtype chain_type;
    sfu_chain chain;
    bool chain_y_is_x; /* unary function without y seeds: the kernel gets x0 there and never reads it */
} st;

static const sfu_version cuda_versions[] = {SFU_PRECISE, SFU_INTRINSIC, SFU_PTX_APPROX};

static void release(device_buffer *b)
{
    cr_cuda_free(&b->p);
    b->bytes = 0;
}

/* Keeps the allocation when it is already large enough. */
static cr_status reserve(device_buffer *b, size_t bytes, char *err, size_t errlen)
{
    if (b->bytes >= bytes)
        return CR_OK;
    release(b);
    CR_CUDA_CHECK(cudaMalloc(&b->p, bytes), "cudaMalloc", err, errlen);
    b->bytes = bytes;
    return CR_OK;
}

static void sfu_cuda_close(void)
{
    device_buffer *all[] = {&st.cx0, &st.cy0, &st.cxout, &st.csout};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        release(all[i]);
    cr_cuda_close_timed(&st.cu);
    st.prepared = false;
}

static cr_status sfu_cuda_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    return cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
}

static bool cuda_has_version(sfu_version v)
{
    for (size_t i = 0; i < sizeof cuda_versions / sizeof cuda_versions[0]; ++i)
        if (cuda_versions[i] == v)
            return true;
    return false;
}

static const sfu_kernel_list_entry *plain_kernels(sfu_func f, cr_dtype t, sfu_version v)
{
    if (v == SFU_INTRINSIC)
        return t == CR_FLOAT ? sfu_kernel_list_intrinsic(f) : NULL;
    return sfu_kernel_list_plain(f, t, v);
}

static cr_status sfu_cuda_supports(sfu_func f, cr_dtype t, sfu_version v, char *err, size_t errlen)
{
    if ((unsigned)f >= SFU_NFUNCS || (unsigned)t >= CR_NDTYPES || (unsigned)v >= SFU_NVERSIONS) {
        snprintf(err, errlen, "unknown function, type or version (%d, %d, %d)", (int)f, (int)t, (int)v);
        return CR_ERR;
    }
    if (!cuda_has_version(v)) {
        snprintf(err, errlen, "%s is an OpenCL version; CUDA has precise, intrinsic and ptx-approx",
                 sfu_version_names[v]);
        return CR_UNSUPPORTED;
    }
    if (plain_kernels(f, t, v) != NULL)
        return CR_OK;
    if (t == CR_DOUBLE && v == SFU_INTRINSIC)
        snprintf(err, errlen, "CUDA has no double-precision intrinsics (Li, Table 6.2)");
    else if (t == CR_DOUBLE)
        snprintf(err, errlen, "double precision covers Li's div, rcp, sqrt and rsqrt only");
    else
        snprintf(err, errlen, "CUDA has no intrinsic for %s (its fast version is ptx-approx)", sfu_functions[f].math);
    return CR_UNSUPPORTED;
}

/* Li's SFU versions flush by their .ftz, the intrinsics by -ftz=true. */
static bool sfu_cuda_keeps_subnormals(cr_dtype t, sfu_version v)
{
    (void)t;
    return v == SFU_PRECISE;
}

/* The kernels that compute k: the plain version's, or the partition's when
 * some units take another path. Only precise with ptx-approx (the
 * backend's partition_fast) has partition kernels. */
static cr_status kernels_for(const sfu_kernel *k, const sfu_kernel_list_entry **set, char *err, size_t errlen)
{
    cr_status s = sfu_cuda_supports(k->func, k->dtype, k->version, err, errlen);
    if (s != CR_OK)
        return s;
    if (k->fast_units > SFU_PARTITION_UNITS) {
        snprintf(err, errlen, "fast_units %u exceeds the %d partition units", k->fast_units, SFU_PARTITION_UNITS);
        return CR_ERR;
    }
    if (k->fast_units == 0 || k->fast == k->version) {
        *set = plain_kernels(k->func, k->dtype, k->version);
        return CR_OK;
    }
    if ((unsigned)k->fast >= SFU_NVERSIONS || k->version != SFU_PRECISE || k->fast != SFU_PTX_APPROX) {
        snprintf(err, errlen, "CUDA partitions precise with ptx-approx only (asked: %s with %s)",
                 sfu_version_names[k->version], (unsigned)k->fast < SFU_NVERSIONS ? sfu_version_names[k->fast] : "?");
        return CR_UNSUPPORTED;
    }
    *set = sfu_kernel_list_partition(k->func, k->dtype);
    return CR_OK;
}

static cr_status bytes_of(uint64_t n, cr_dtype t, size_t *bytes, char *err, size_t errlen)
{
    if (n > SIZE_MAX / cr_dtype_size(t)) {
        snprintf(err, errlen, "%llu values overflow the address space", (unsigned long long)n);
        return CR_ERR;
    }
    *bytes = (size_t)n * cr_dtype_size(t);
    return CR_OK;
}

static cr_status upload(device_buffer *b, const void *src, size_t bytes, char *err, size_t errlen)
{
    if (reserve(b, bytes, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaMemcpy(b->p, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy", err, errlen);
    return CR_OK;
}

/* A warp's lanes are threads: every kernel is scalar code. */
static unsigned sfu_cuda_chain_width(const sfu_kernel *k, const sfu_chain *c)
{
    (void)k;
    (void)c;
    return 1;
}

static cr_status check_chain(const sfu_chain *c, uint64_t *n, char *err, size_t errlen)
{
    if (c->ilp < 1 || c->ilp > SFU_MAX_ILP) {
        snprintf(err, errlen, "ILP %u outside 1..%d", c->ilp, SFU_MAX_ILP);
        return CR_ERR;
    }
    if (cr_cuda_check_geometry(c->work_items, c->work_group, st.cu.max_group, err, errlen) != CR_OK)
        return CR_ERR;
    if (c->work_items > UINT64_MAX / c->ilp) {
        snprintf(err, errlen, "%llu work-items x ILP %u overflows", (unsigned long long)c->work_items, c->ilp);
        return CR_ERR;
    }
    *n = c->work_items * c->ilp;
    return CR_OK;
}

/* Units are numbered by global thread index / 32; a warp of a block takes
 * one path only when blocks are whole warps or whole fractions of one. */
static cr_status check_partition_group(const sfu_kernel *k, const sfu_chain *c, char *err, size_t errlen)
{
    if (k->fast_units == 0 || k->fast == k->version || c->work_group % UNIT_SIZE == 0 ||
        UNIT_SIZE % c->work_group == 0)
        return CR_OK;
    snprintf(err, errlen, "a partition run needs work-groups of whole warps (%u) or divisors of one, not %llu",
             UNIT_SIZE, (unsigned long long)c->work_group);
    return CR_ERR;
}

static cr_status sfu_cuda_chain_prepare(const sfu_kernel *k, const sfu_chain *c, const void *x0, const void *y0,
                                        char *err, size_t errlen)
{
    st.prepared = false;
    const sfu_kernel_list_entry *set;
    cr_status s = kernels_for(k, &set, err, errlen);
    if (s != CR_OK)
        return s;
    uint64_t n;
    size_t bytes;
    if (check_chain(c, &n, err, errlen) != CR_OK || bytes_of(n, k->dtype, &bytes, err, errlen) != CR_OK ||
        check_partition_group(k, c, err, errlen) != CR_OK)
        return CR_ERR;
    const bool binary = sfu_functions[k->func].arity == 2;
    if (x0 == NULL || (binary && y0 == NULL)) {
        snprintf(err, errlen, "chain of %s needs x%s seeds", sfu_functions[k->func].name, binary ? " and y" : "");
        return CR_ERR;
    }
    st.chain_y_is_x = y0 == NULL;
    if (upload(&st.cx0, x0, bytes, err, errlen) != CR_OK ||
        (y0 != NULL && upload(&st.cy0, y0, bytes, err, errlen) != CR_OK) ||
        reserve(&st.cxout, bytes, err, errlen) != CR_OK || reserve(&st.csout, bytes, err, errlen) != CR_OK)
        return CR_ERR;
    st.chain_func = k->func;
    st.chain_type = k->dtype;
    st.chain = *c;
    st.prepared = true;
    return CR_OK;
}

static cr_status sfu_cuda_chain_run(const sfu_kernel *k, const sfu_chain *c, cr_timing *t, char *err, size_t errlen)
{
    if (!st.prepared || k->func != st.chain_func || k->dtype != st.chain_type || c->ilp != st.chain.ilp ||
        c->work_items != st.chain.work_items || c->work_group != st.chain.work_group) {
        snprintf(err, errlen, "chain run does not match the prepared seeds (function, type, ILP and geometry)");
        return CR_ERR;
    }
    const sfu_kernel_list_entry *set;
    cr_status s = kernels_for(k, &set, err, errlen);
    if (s != CR_OK)
        return s;
    if (check_partition_group(k, c, err, errlen) != CR_OK)
        return CR_ERR;
    const void *fn = set->chain[c->ilp - 1];
    /* Under lazy loading a kernel's module is loaded at its first use: make
     * that happen here, outside the timed interval. */
    cudaFuncAttributes attr;
    CR_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn), "cudaFuncGetAttributes", err, errlen);

    /* The kernel's a and b have its element type; each union member starts
     * at the union's first byte, which is what args points at. */
    union {
        float f;
        double d;
    } a, b;
    if (k->dtype == CR_FLOAT) {
        a.f = (float)c->a;
        b.f = (float)c->b;
    } else {
        a.d = c->a;
        b.d = c->b;
    }
    void *x0 = st.cx0.p, *y0 = st.chain_y_is_x ? st.cx0.p : st.cy0.p, *xout = st.cxout.p, *sout = st.csout.p;
    /* zero = 0: the kernels' y stays y (sfu/chain.h). */
    unsigned iters = c->iters, fast_units = k->fast_units, zero = 0;
    void *args[] = {&x0, &y0, &xout, &sout, &iters, &a, &b, &fast_units, &zero};
    const dim3 grid((unsigned)(c->work_items / c->work_group)), block((unsigned)c->work_group);

    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaLaunchKernel(fn, grid, block, args, 0, 0), "kernel launch", err, errlen);
    CR_CUDA_CHECK(cudaGetLastError(), "kernel launch", err, errlen);
    /* A fault inside the kernel surfaces here, at the synchronisation. */
    return cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen);
}

static cr_status sfu_cuda_chain_download(void *xout, void *sout, uint64_t n, char *err, size_t errlen)
{
    if (!st.prepared || n > st.chain.work_items * st.chain.ilp) {
        snprintf(err, errlen, "%llu chain results requested, %llu prepared", (unsigned long long)n,
                 st.prepared ? (unsigned long long)(st.chain.work_items * st.chain.ilp) : 0ull);
        return CR_ERR;
    }
    const size_t bytes = (size_t)n * cr_dtype_size(st.chain_type);
    CR_CUDA_CHECK(cudaMemcpy(xout, st.cxout.p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy", err, errlen);
    CR_CUDA_CHECK(cudaMemcpy(sout, st.csout.p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy", err, errlen);
    return CR_OK;
}

/* lane_work_items: one warp on every scheduler of every SM, each block of
 * four warps landing on its own SM; the throughput sweep doubles from
 * there, in whole blocks, up to four waves of full occupancy. */
static void sfu_cuda_geometry(uint64_t *lane_work_items, uint64_t *work_group, uint64_t *max_work_items,
                              uint64_t *unit_size)
{
    const uint64_t full = st.cu.sms * st.cu.threads_per_sm * WAVES;
    *lane_work_items = st.cu.sms ? st.cu.sms * WORK_GROUP : WORK_GROUP;
    *work_group = WORK_GROUP;
    *max_work_items = full >= WORK_GROUP ? full / WORK_GROUP * WORK_GROUP : WORK_GROUP;
    *unit_size = UNIT_SIZE;
}

/* The single-chain (ILP 1) kernel's count, the closest to Li's per-call
 * figure; -1 where k has no kernel or the runtime will not say. */
static int sfu_cuda_registers(const sfu_kernel *k)
{
    char err[CR_ERRLEN];
    const sfu_kernel_list_entry *set;
    if (kernels_for(k, &set, err, sizeof err) != CR_OK)
        return -1;
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, set->chain[0]) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return attr.numRegs;
}

extern "C" {
extern const sfu_backend sfu_cuda_backend;
const sfu_backend sfu_cuda_backend = {
    {"cuda", cr_cuda_list, sfu_cuda_open, sfu_cuda_close},
    "warp",
    cuda_versions,
    sizeof cuda_versions / sizeof cuda_versions[0],
    SFU_PTX_APPROX,
    sfu_cuda_supports, /* CUDA has a version on every device or none: supports is has */
    sfu_cuda_supports,
    sfu_cuda_keeps_subnormals,
    sfu_cuda_chain_width,
    sfu_cuda_chain_prepare,
    sfu_cuda_chain_run,
    sfu_cuda_chain_download,
    sfu_cuda_geometry,
    sfu_cuda_registers,
};
}
