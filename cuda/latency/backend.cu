/* CUDA backend of the latency benchmark: uploads the chain, runs one thread
 * along it and times it with events.
 *
 * Elements are 128 B apart: NVIDIA's L1 and L2 keep tags per 128-B line and
 * move data in 32-B sectors, so each step allocates a line of its own (the
 * footprint counts the lines a cache must hold) while fetching one sector. */
#include "cuda_device.h"

extern "C" {
#include "latency/backend.h"
#include "latency/perm.h"
}
#define LT_U64 unsigned long long
#include "latency/chase.h"

#include <cstring>

/* Plain global loads, neither __ldg nor restrict: they go through L1 (the
 * default for global loads from sm_70 on), so the footprint sweep sees L1
 * as well as L2. */
__global__ void chase(const unsigned long long *next, unsigned long long start, unsigned long long steps,
                      unsigned long long *end)
{
    unsigned long long idx = start;
    LT_CHASE(next, idx, steps);
    *end = idx;
}

static struct {
    cr_cuda cu;
    void *chain, *end; /* unsigned long long words */
    uint64_t words;
} st;

static void free_chain(void)
{
    cr_cuda_free(&st.chain);
    st.words = 0;
}

static void cu_close(void)
{
    free_chain();
    cr_cuda_free(&st.end);
    cr_cuda_close_timed(&st.cu);
    memset(&st, 0, sizeof st);
}

/* The word a walk ends on, and the cache the kernel runs with. */
static cr_status prepare_chase(char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMalloc(&st.end, sizeof(unsigned long long)), "cudaMalloc(end)", err, errlen);
    /* The kernel uses no shared memory: give the unified L1/shared array
     * to L1, so the footprint sweep sees the largest L1 the part has. */
    CR_CUDA_CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout,
                                       (int)cudaSharedmemCarveoutMaxL1),
                  "cudaFuncSetAttribute(carve-out)", err, errlen);
    return CR_OK;
}

static cr_status cu_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    cr_status s = cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
    if (s == CR_OK && (s = prepare_chase(err, errlen)) != CR_OK)
        cu_close();
    return s;
}

static void cu_caches(lt_caches *out)
{
    memset(out, 0, sizeof *out);
    out->line_bytes = 128;
    snprintf(out->line_source, sizeof out->line_source, "NVIDIA L1/L2 line (tags per 128 B, 32-B sectors)");
    /* CUDA reports no L1 size, so there is no L1 level row: the footprint
     * sweep shows the L1 step, and no size is taken from anywhere else. */
    int l2 = 0;
    if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, st.cu.dev) == cudaSuccess && l2 > 0) {
        lt_cache_level *l = &out->level[out->count++];
        snprintf(l->name, sizeof l->name, "L2");
        l->bytes = (uint64_t)l2;
        snprintf(l->source, sizeof l->source, "cudaDevAttrL2CacheSize");
    }
    cudaGetLastError();
}

/* One allocation always: cudaMalloc has no cap below the device's memory,
 * which already bounds the footprint. */
static cr_status cu_prepare(const lt_layout *layout, const uint64_t *next, char *err, size_t errlen)
{
    free_chain();
    if (lt_layout_check(layout, 1, "the cuda backend", err, errlen) != CR_OK)
        return CR_ERR;
    size_t bytes = (size_t)layout->words * sizeof(unsigned long long);
    CR_CUDA_CHECK(cudaMalloc(&st.chain, bytes), "cudaMalloc(chain)", err, errlen);
    CR_CUDA_CHECK(cudaMemcpy(st.chain, next, bytes, cudaMemcpyHostToDevice), "cudaMemcpy(chain)", err, errlen);
    st.words = layout->words;
    return CR_OK;
}

static cr_status cu_run(uint64_t steps, uint64_t start, cr_timing *t, uint64_t *end, char *err, size_t errlen)
{
    if (lt_chain_check_start(start, st.words, err, errlen) != CR_OK)
        return CR_ERR;
    *t = cr_timing{};
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    chase<<<1, 1>>>(static_cast<const unsigned long long *>(st.chain), start, steps,
                    static_cast<unsigned long long *>(st.end));
    CR_CUDA_CHECK(cudaGetLastError(), "chase<<<1, 1>>>", err, errlen);
    if (cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;
    unsigned long long e = 0;
    CR_CUDA_CHECK(cudaMemcpy(&e, st.end, sizeof e, cudaMemcpyDeviceToHost), "cudaMemcpy(end)", err, errlen);
    *end = e;
    return CR_OK;
}

extern "C" {
extern const lt_backend latency_cuda_backend;
const lt_backend latency_cuda_backend = {
    {"cuda", cr_cuda_list, cu_open, cu_close}, cu_caches, cu_prepare, cu_run, 1,
    "the cuda backend holds the chain in one allocation (cudaMalloc has no cap below the device's memory)",
};
}
