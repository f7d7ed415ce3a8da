/* OpenCL backend of the SFU benchmark: builds one program per function and
 * type when first needed (and its -cl-fast-relaxed-math twin for the
 * relaxed version), allocates, launches and times. On a CPU device a chain
 * run whose work-groups fill whole vectors runs the vector chain kernels:
 * each OpenCL work-item computes N of the contract's work-items in the lanes
 * of one vector of the device's preferred width (kernels.cl says why), and
 * the seeds and results are reordered here on the way. */
#include "cl_device.h"
#include "sfu/backend.h"

#include <stdlib.h>
#include <string.h>

/* sfu/chain.h and kernels.cl, embedded */
extern const char sfu_chain_h[], sfu_kernels_cl[];

enum { PROG_DEFAULT, PROG_RELAXED, PROG_KINDS };

static const sfu_version opencl_versions[] = {SFU_PRECISE, SFU_RELAXED, SFU_NATIVE, SFU_HALF};

typedef struct {
    cl_mem mem;
    size_t bytes;
} buffer;

static struct {
    cr_cl cl;
    cl_program program[SFU_NFUNCS][CR_NDTYPES][PROG_KINDS];
    bool denormals[CR_NDTYPES];                                /* CL_FP_DENORM in the fp config */
    unsigned lanes[CR_NDTYPES];                                /* CPU: preferred vector width, else 1 */
    buffer cx0, cy0, cxout, csout;
    cl_kernel chain;       /* the prepared chain kernel */
    uint64_t chain_n;      /* its work_items * ilp */
    cr_dtype chain_dtype;
    unsigned chain_lanes;  /* contract work-items per OpenCL work-item of that kernel */
    uint32_t chain_ilp;
    void *staging;         /* chain_n elements in the device's order, for reordering */
} S;

static void release_buffer(buffer *b)
{
    cr_cl_release_mem(&b->mem);
    b->bytes = 0;
}

static void cl_close(void)
{
    cr_cl_release_kernel(&S.chain);
    free(S.staging);
    buffer *all[] = {&S.cx0, &S.cy0, &S.cxout, &S.csout};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        release_buffer(all[i]);
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int t = 0; t < CR_NDTYPES; ++t)
            for (int k = 0; k < PROG_KINDS; ++k)
                cr_cl_release_program(&S.program[f][t][k]);
    cr_cl_close_state(&S, sizeof S, &S.cl);
}

static cr_status cl_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = cr_cl_open_state(spec, &S, sizeof S, &S.cl, err, errlen);
    if (st != CR_OK)
        return st;
    cl_device_fp_config single = 0, dbl = 0;
    clGetDeviceInfo(S.cl.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof single, &single, NULL);
    if (S.cl.info.has_fp64)
        clGetDeviceInfo(S.cl.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dbl, &dbl, NULL);
    S.denormals[CR_FLOAT] = (single & CL_FP_DENORM) != 0;
    S.denormals[CR_DOUBLE] = (dbl & CL_FP_DENORM) != 0;
    /* The preferred width, not the native one: it is the width the
     * implementation advises kernels to compute in (on PoCL both are the
     * SIMD register's). GPUs keep scalar chains: their lanes are
     * work-items already. */
    S.lanes[CR_FLOAT] = S.cl.info.is_cpu ? cr_cl_preferred_width(&S.cl, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) : 1;
    S.lanes[CR_DOUBLE] = S.cl.info.is_cpu ? cr_cl_preferred_width(&S.cl, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) : 1;
    *info = S.cl.info;
    return CR_OK;
}

/* The program of a version and the suffix of its kernels in that program. */
static cr_status locate(sfu_version v, cr_dtype t, int *kind, const char **suffix, char *err, size_t errlen)
{
    switch (v) {
    case SFU_PRECISE: *kind = PROG_DEFAULT, *suffix = "precise"; break;
    case SFU_RELAXED: *kind = PROG_RELAXED, *suffix = "precise"; break;
    case SFU_NATIVE: *kind = PROG_DEFAULT, *suffix = "native"; break;
    case SFU_HALF: *kind = PROG_DEFAULT, *suffix = "half"; break;
    default:
        snprintf(err, errlen, "OpenCL has no %s version", sfu_version_names[v]);
        return CR_UNSUPPORTED;
    }
    if ((v == SFU_NATIVE || v == SFU_HALF) && t != CR_FLOAT) {
        snprintf(err, errlen, "OpenCL 1.2 has %s_ functions for float only", v == SFU_NATIVE ? "native" : "half");
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

static cr_status cl_has(sfu_func f, cr_dtype t, sfu_version v, char *err, size_t errlen)
{
    if ((int)f < 0 || f >= SFU_NFUNCS || (int)v < 0 || v >= SFU_NVERSIONS) {
        snprintf(err, errlen, "no such function or version");
        return CR_UNSUPPORTED;
    }
    int kind;
    const char *suffix;
    return locate(v, t, &kind, &suffix, err, errlen);
}

static cr_status cl_supports(sfu_func f, cr_dtype t, sfu_version v, char *err, size_t errlen)
{
    if (t == CR_DOUBLE && !S.cl.info.has_fp64) {
        snprintf(err, errlen, "the device has no double precision (cl_khr_fp64)");
        return CR_UNSUPPORTED;
    }
    return cl_has(f, t, v, err, errlen);
}

static bool cl_keeps_subnormals(cr_dtype t, sfu_version v)
{
    /* -cl-fast-relaxed-math implies -cl-denorms-are-zero. */
    return v != SFU_RELAXED && S.denormals[t];
}

static cr_status program_for(sfu_func f, cr_dtype t, int kind, cl_program *out, char *err, size_t errlen)
{
    cl_program *p = &S.program[f][t][kind];
    if (!*p) {
        char options[256];
        snprintf(options, sizeof options,
                 "-cl-std=CL1.2 -DSFU_T=%s%s -DSFU_FN_%s -DSFU_FAST_VERSIONS=%d -DSFU_LANES=%u%s", cr_dtype_name(t),
                 t == CR_DOUBLE ? " -DSFU_IS_DOUBLE" : "", sfu_functions[f].name, t == CR_FLOAT, S.lanes[t],
                 kind == PROG_RELAXED ? " -cl-fast-relaxed-math" : "");
        const char *const sources[] = {sfu_chain_h, sfu_kernels_cl};
        if (cr_cl_build(&S.cl, sources, 2, options, p, err, errlen) != CR_OK)
            return CR_ERR;
    }
    *out = *p;
    return CR_OK;
}

/* The kernel "sfu_<what>_<suffix>" of k's program. The fast path of every
 * kernel is native_, so a partition must name it. */
static cr_status kernel_for(const sfu_kernel *k, const char *what, cl_kernel *out, char *err, size_t errlen)
{
    int kind;
    const char *suffix;
    cr_status st = locate(k->version, k->dtype, &kind, &suffix, err, errlen);
    if (st != CR_OK)
        return st;
    if (k->fast_units > SFU_PARTITION_UNITS) {
        snprintf(err, errlen, "fast_units %u is above %d", k->fast_units, SFU_PARTITION_UNITS);
        return CR_ERR;
    }
    if (k->fast_units > 0 && (k->fast != SFU_NATIVE || k->dtype != CR_FLOAT)) {
        snprintf(err, errlen, "the OpenCL kernels partition with native_ float functions only");
        return CR_UNSUPPORTED;
    }
    if (k->dtype == CR_DOUBLE && !S.cl.info.has_fp64) {
        snprintf(err, errlen, "the device has no double precision (cl_khr_fp64)");
        return CR_UNSUPPORTED;
    }
    cl_program p;
    if (program_for(k->func, k->dtype, kind, &p, err, errlen) != CR_OK)
        return CR_ERR;
    char name[64];
    snprintf(name, sizeof name, "sfu_%s_%s", what, suffix);
    cl_int rc;
    *out = clCreateKernel(p, name, &rc);
    CR_CL_CHECK(rc, name, err, errlen);
    return CR_OK;
}

static cr_status ensure(buffer *b, size_t bytes, char *err, size_t errlen)
{
    if (b->mem && b->bytes >= bytes)
        return CR_OK;
    release_buffer(b);
    cl_int rc;
    b->mem = clCreateBuffer(S.cl.context, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    CR_CL_CHECK(rc, "clCreateBuffer", err, errlen);
    b->bytes = bytes;
    return CR_OK;
}

static void cl_geometry(uint64_t *lane_work_items, uint64_t *work_group, uint64_t *max_work_items,
                        uint64_t *unit_size)
{
    const cr_device_info *d = &S.cl.info;
    uint64_t cus = d->compute_units ? d->compute_units : 1;
    /* CPU: a work-group fills the SIMD lanes of one core, in both types:
     * the wider of the two vectors (the widths are powers of two, so it is
     * a multiple of the other), one or more vector work-items. GPU: a group
     * of 64 is a whole wavefront or two warps on every vendor's hardware. */
    uint64_t widest = S.lanes[CR_FLOAT] > S.lanes[CR_DOUBLE] ? S.lanes[CR_FLOAT] : S.lanes[CR_DOUBLE];
    uint64_t wg = d->is_cpu ? widest : 64;
    /* Below a vector, the chains fall back to scalars. */
    if (d->max_work_group && wg > d->max_work_group)
        wg = d->max_work_group;
    *work_group = wg;
    *unit_size = wg;
    *lane_work_items = cus * wg;
    *max_work_items = d->is_cpu ? cus * wg * 64 : cus * 2048 * 4;
}

/* Contract work-items per OpenCL work-item of a chain run: the type's
 * vector width when the run's work-groups hold whole vectors (so that a
 * work-group, the partition unit, is still work_group contract work-items),
 * else 1 (the latency run, one work-item per group). */
static unsigned chain_lanes(cr_dtype t, const sfu_chain *c)
{
    unsigned n = S.lanes[t] ? S.lanes[t] : 1;
    return c->work_group % n == 0 ? n : 1;
}

static unsigned cl_chain_width(const sfu_kernel *k, const sfu_chain *c) { return chain_lanes(k->dtype, c); }

/* Moves chains between the contract's order and the vector kernels' one.
 * Contract work-item g = w * lanes + l has its chain j at g * ilp + j; the
 * vector kernel of OpenCL work-item w reads it from lane l of vector
 * w * ilp + j, element (w * ilp + j) * lanes + l. Both orders cover a
 * block of lanes * ilp elements per OpenCL work-item, transposed. n
 * (whole blocks) are moved, except that contract elements from `keep` on
 * are left out (a download of fewer chains than ran). */
static void reorder(void *dst, const void *src, uint64_t n, uint64_t keep, uint32_t ilp, unsigned lanes, size_t es,
                    bool to_device)
{
    uint64_t block = (uint64_t)lanes * ilp;
    for (uint64_t w = 0; w * block < n; ++w)
        for (unsigned l = 0; l < lanes; ++l)
            for (uint32_t j = 0; j < ilp; ++j) {
                uint64_t contract = w * block + (uint64_t)l * ilp + j, device = w * block + (uint64_t)j * lanes + l;
                if (contract >= keep)
                    continue;
                uint64_t to = to_device ? device : contract, from = to_device ? contract : device;
                memcpy((char *)dst + to * es, (const char *)src + from * es, es);
            }
}

static cr_status cl_chain_prepare(const sfu_kernel *k, const sfu_chain *c, const void *x0, const void *y0,
                                  char *err, size_t errlen)
{
    cr_cl_release_kernel(&S.chain);
    if (c->ilp < 1 || c->ilp > SFU_MAX_ILP || c->work_items == 0 || c->work_group == 0 ||
        c->work_items % c->work_group != 0) {
        snprintf(err, errlen, "bad chain geometry: ilp %u, %llu work-items in groups of %llu", c->ilp,
                 (unsigned long long)c->work_items, (unsigned long long)c->work_group);
        return CR_ERR;
    }
    uint64_t n = c->work_items * c->ilp;
    size_t es = cr_dtype_size(k->dtype), bytes = (size_t)(n * es);
    unsigned lanes = chain_lanes(k->dtype, c);
    if (ensure(&S.cx0, bytes, err, errlen) != CR_OK || ensure(&S.cy0, bytes, err, errlen) != CR_OK ||
        ensure(&S.cxout, bytes, err, errlen) != CR_OK || ensure(&S.csout, bytes, err, errlen) != CR_OK)
        return CR_ERR;
    free(S.staging);
    S.staging = NULL;
    S.chain_n = 0;
    if (lanes > 1 && c->ilp > 1 && !(S.staging = malloc(bytes))) {
        snprintf(err, errlen, "out of memory for %llu chains", (unsigned long long)n);
        return CR_ERR;
    }
    /* Blocking writes: the staging buffer is reused for the second. */
    const void *seeds[2] = {x0, y0};
    cl_mem mems[2] = {S.cx0.mem, S.cy0.mem};
    for (int i = 0; i < 2; ++i) {
        const void *src = seeds[i];
        if (S.staging) {
            reorder(S.staging, src, n, n, c->ilp, lanes, es, true);
            src = S.staging;
        }
        CR_CL_CHECK(clEnqueueWriteBuffer(S.cl.queue, mems[i], CL_TRUE, 0, bytes, src, 0, NULL, NULL),
                    i ? "clEnqueueWriteBuffer(y0)" : "clEnqueueWriteBuffer(x0)", err, errlen);
    }
    char what[16];
    snprintf(what, sizeof what, "%schain%u", lanes > 1 ? "v" : "", c->ilp);
    cr_status st = kernel_for(k, what, &S.chain, err, errlen);
    if (st != CR_OK) {
        S.chain = NULL;
        return st;
    }
    S.chain_n = n;
    S.chain_dtype = k->dtype;
    S.chain_lanes = lanes;
    S.chain_ilp = c->ilp;
    return CR_OK;
}

static cr_status cl_chain_run(const sfu_kernel *k, const sfu_chain *c, cr_timing *t, char *err, size_t errlen)
{
    if (!S.chain || c->work_items * c->ilp != S.chain_n || k->dtype != S.chain_dtype) {
        snprintf(err, errlen, "chain_run without a matching chain_prepare");
        return CR_ERR;
    }
    cl_uint iters = c->iters, fast = k->fast_units, zero = 0;
    cl_float af = (cl_float)c->a, bf = (cl_float)c->b;
    cl_double ad = c->a, bd = c->b;
    bool dbl = k->dtype == CR_DOUBLE;
    const cr_cl_arg args[] = {CR_CL_ARG(S.cx0.mem), CR_CL_ARG(S.cy0.mem), CR_CL_ARG(S.cxout.mem),
                              CR_CL_ARG(S.csout.mem), CR_CL_ARG(iters), dbl ? CR_CL_ARG(ad) : CR_CL_ARG(af),
                              dbl ? CR_CL_ARG(bd) : CR_CL_ARG(bf), CR_CL_ARG(fast), CR_CL_ARG(zero)};
    if (cr_cl_set_args(S.chain, "sfu_chain", args, sizeof args / sizeof args[0], err, errlen) != CR_OK)
        return CR_ERR;
    if (chain_lanes(k->dtype, c) != S.chain_lanes || c->ilp != S.chain_ilp) {
        snprintf(err, errlen, "chain_run with another geometry than chain_prepare");
        return CR_ERR;
    }
    return cr_cl_launch_timed(&S.cl, S.chain, (size_t)(c->work_items / S.chain_lanes),
                              (size_t)(c->work_group / S.chain_lanes), t, err, errlen);
}

static cr_status cl_chain_download(void *xout, void *sout, uint64_t n, char *err, size_t errlen)
{
    if (n > S.chain_n) {
        snprintf(err, errlen, "download of %llu chains, %llu ran", (unsigned long long)n,
                 (unsigned long long)S.chain_n);
        return CR_ERR;
    }
    size_t es = cr_dtype_size(S.chain_dtype);
    if (!S.staging) { /* the contract's order already */
        CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.cxout.mem, CL_TRUE, 0, (size_t)n * es, xout, 0, NULL, NULL),
                    "clEnqueueReadBuffer(xout)", err, errlen);
        CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, S.csout.mem, CL_TRUE, 0, (size_t)n * es, sout, 0, NULL, NULL),
                    "clEnqueueReadBuffer(sout)", err, errlen);
        return CR_OK;
    }
    /* Whole buffers: the first n chains in the contract's order are spread
     * over the device's. */
    void *dst[2] = {xout, sout};
    cl_mem mems[2] = {S.cxout.mem, S.csout.mem};
    for (int i = 0; i < 2; ++i) {
        CR_CL_CHECK(clEnqueueReadBuffer(S.cl.queue, mems[i], CL_TRUE, 0, (size_t)S.chain_n * es, S.staging, 0, NULL,
                                        NULL),
                    i ? "clEnqueueReadBuffer(sout)" : "clEnqueueReadBuffer(xout)", err, errlen);
        reorder(dst[i], S.staging, S.chain_n, n, S.chain_ilp, S.chain_lanes, es, false);
    }
    return CR_OK;
}

/* OpenCL does not report registers. */
static int cl_registers(const sfu_kernel *k)
{
    (void)k;
    return -1;
}

const sfu_backend sfu_opencl_backend = {
    .base = {.name = "opencl", .list_devices = cr_cl_list, .open = cl_open, .close = cl_close},
    .unit_name = "work-group",
    .versions = opencl_versions,
    .nversions = sizeof opencl_versions / sizeof opencl_versions[0],
    .partition_fast = SFU_NATIVE,
    .supports = cl_supports,
    .has = cl_has,
    .keeps_subnormals = cl_keeps_subnormals,
    .chain_width = cl_chain_width,
    .chain_prepare = cl_chain_prepare,
    .chain_run = cl_chain_run,
    .chain_download = cl_chain_download,
    .geometry = cl_geometry,
    .registers = cl_registers,
};
