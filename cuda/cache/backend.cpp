/* CUDA backend of the cache benchmark: the shared walker's device, chain
 * and chase (cuda/chase, walker.h), the chase with each
 * cache operator and the store pass (loads.cu) on the same device, timed
 * with its timer. The chain's words hold the addresses of their targets
 * (latency/address.h), so every kind of chase, and the stores, use them
 * as they are. */
#include "cache/load_kernels.h"
#include "cuda_device.h"
#include "chase/walker.h"
#include "patterns.h"

extern "C" {
#include "cache/backend.h"
#include "cache/backend_common.h"
}

#include <cinttypes>
#include <cstdio>

static struct {
    void *result; /* cc_chase_out */
} st;

static void cc_cu_close(void)
{
    cr_cuda_free(&st.result);
    lt_cuda_walker.base.close();
}

/* What the benchmark's own kernels need beside the walker's device: the chases' result, and their cache configuration. */
static cr_status prepare_kernels(char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMalloc(&st.result, sizeof(cc_chase_out)), "cudaMalloc(result)", err, errlen);
    return cc_prefer_l1(err, errlen);
}

static cr_status cc_cu_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    return cc_open_on_chase(&lt_cuda_walker, &st, sizeof st, prepare_kernels, cc_cu_close, spec, info, err,
                            errlen);
}

/* The words are copied (a GPU's caches are the point, not host memory's):
 * the walker uploads them and turns them into addresses. */
static cr_status cc_cu_prepare(uint64_t *words, uint64_t count, bool in_place, char *err, size_t errlen)
{
    (void)in_place;
    lt_layout layout;
    if (lt_layout_make(&layout, count, 0) != 0) {
        snprintf(err, errlen, "no layout for a chain of %" PRIu64 " words", count);
        return CR_ERR;
    }
    return lt_cuda_walker.prepare(&layout, words, err, errlen);
}

/* The prepared chain, or why there is none. */
static unsigned long long *chain(uint64_t *words, unsigned long long *base, char *err, size_t errlen)
{
    void *p = lt_cuda_chain(words, base);
    if (!p)
        snprintf(err, errlen, "no chain prepared");
    return static_cast<unsigned long long *>(p);
}

static cr_status cc_cu_store(const cc_store_pass *pass, cr_timing *t, char *err, size_t errlen)
{
    uint64_t words;
    unsigned long long base;
    unsigned long long *buf = chain(&words, &base, err, errlen);
    if (!buf)
        return CR_ERR;
    if (cc_check_store_pass(pass, words, err, errlen) != CR_OK)
        return CR_ERR;
    cr_cuda *cu = lt_cuda_device();
    *t = cr_timing{};
    if (cr_cuda_timer_start(&cu->timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cc_launch_store(buf, pass->first, pass->count, pass->stride_words, pass->passes, pass->value),
                  "store_pass<<<1, 1>>>", err, errlen);
    if (cr_cuda_timer_stop(&cu->timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "store_pass", err, errlen);
    return CR_OK;
}

static cr_status cc_cu_read(uint64_t first, uint64_t count, uint64_t *out, char *err, size_t errlen)
{
    uint64_t words;
    unsigned long long base;
    unsigned long long *buf = chain(&words, &base, err, errlen);
    if (!buf)
        return CR_ERR;
    if (cc_check_read(first, count, words, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaMemcpy(out, buf + first, count * sizeof *out, cudaMemcpyDeviceToHost), "cudaMemcpy(words)", err,
                  errlen);
    return CR_OK;
}

static const char *const load_kinds[CC_NLOADS] = {"ld.ca", "ld.cg", "ld.nc"};

/* Between the timer's start and stop only the launch: the timer holds the
 * stream until stop (cuda_timer.h). */
static cr_status cc_cu_run_kind(unsigned kind, uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out,
                                char *err, size_t errlen)
{
    uint64_t words;
    unsigned long long base;
    if (!chain(&words, &base, err, errlen) || lt_chain_check_start(start, words, err, errlen) != CR_OK)
        return CR_ERR;
    cr_cuda *cu = lt_cuda_device();
    *t = cr_timing{};
    if (cr_cuda_timer_start(&cu->timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cc_launch_chase((int)kind, LT_WORD_ADDRESS(base, start), steps, static_cast<cc_chase_out *>(st.result)),
                  load_kinds[kind < CC_NLOADS ? kind : 0], err, errlen);
    if (cr_cuda_timer_stop(&cu->timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;
    cc_chase_out r;
    CR_CUDA_CHECK(cudaMemcpy(&r, st.result, sizeof r, cudaMemcpyDeviceToHost), "cudaMemcpy(result)", err, errlen);
    *out = lt_walk_out{};
    if (!lt_word_of_address(r.end, base, words, &out->end)) {
        snprintf(err, errlen, "the walk ended at address 0x%llx, not a word of the chain (%" PRIu64 " words at 0x%llx)",
                 r.end, words, base);
        return CR_ERR;
    }
    return CR_OK;
}

CR_CUDA_BACKEND(cc_backend, cache_cuda_backend) = {
    {"cuda", cr_cuda_list, cc_cu_open, cc_cu_close},
    &lt_cuda_walker,
    cc_cu_prepare,
    false,
    cc_cu_store,
    cc_cu_read,
    CC_NLOADS,
    load_kinds,
    nullptr,
    cc_cu_run_kind,
    &cc_cuda_patterns,
};
