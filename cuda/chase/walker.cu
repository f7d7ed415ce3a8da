/* The CUDA pointer-chase walker (walker.h): uploads the chain, turns its word
 * indices into the addresses of their targets (address.h), runs one thread
 * along it, timed with events, and has that thread count its SM's cycles.
 *
 * Elements are 128 B apart: NVIDIA's L1 and L2 keep tags per 128-B line and
 * move data in 32-B sectors, so each step allocates a line of its own (the
 * footprint counts the lines a cache must hold) while fetching one sector. */
#include "walker.h"

#include <cinttypes>
#include <cstring>

/* What the kernels leave in device memory, read back outside the timed
 * interval. */
struct chase_result {
    unsigned long long end;  /* the address the walk ended on */
    long long cycles;        /* the SM's clock64() after the walk's loop minus before it */
    unsigned long long base; /* the chain's first word, as the chase's loads address it */
};

/* One load of the chase, its address the value the load before returned.
 * Inline PTX, because C++ can say neither half of it: a load through a
 * pointer read from memory is a generic ld (the compiler cannot know that
 * it points to global memory), and a volatile one is a system-scope strong
 * load, which sm_70 and later serve from L2, hiding L1. The cache operators
 * are no mere hints there either: .ca becomes a strong SM-scope load and
 * .cg a strong GPU-scope one that skips L1. So the load is the plain
 * (weak) ld.global an application's read of global memory is, cached in L1
 * as global loads are by default from sm_70 on: the footprint sweep sees
 * L1, then L2, then memory. `asm volatile` keeps every load, in order. */
__device__ __forceinline__ unsigned long long load_next(unsigned long long address)
{
    unsigned long long next;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(next) : "l"(address));
    return next;
}

/* The walk: `steps` dependent loads from address `start`, the loop
 * between two reads of the SM's cycle counter, so that cycles per load
 * come from the clock the SM ran at, whatever the driver reports. The
 * second read does not wait for the last load (nothing in it uses the
 * value), so one load may fall outside the count: under 0.1% of the 1024
 * loads the design's measured walks take at the least. */
__global__ void chase(unsigned long long start, unsigned long long steps, chase_result *out)
{
    unsigned long long p = start;
    long long begin = clock64();
    for (unsigned long long i = 0; i < steps; ++i)
        p = load_next(p);
    long long end = clock64();
    out->end = p;
    out->cycles = end - begin;
}

/* Turns the uploaded chain's word indices into the addresses of those
 * words, in place, before any walk. The addresses are in the global state
 * space (cvta.to.global), which ld.global takes; the chain's own goes to
 * out->base, so that the host can turn an end address back into a word.
 * Every word is converted, the ones no line points from (0) into the
 * chain's first word, which no walk reads. */
__global__ void to_addresses(unsigned long long *chain, unsigned long long words, chase_result *out)
{
    unsigned long long base = __cvta_generic_to_global(chain);
    unsigned long long first = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    if (first == 0)
        out->base = base;
    for (unsigned long long i = first; i < words; i += stride)
        chain[i] = LT_WORD_ADDRESS(base, chain[i]);
}

static struct {
    cr_cuda cu;
    void *chain;         /* unsigned long long addresses, once prepared */
    void *result;        /* chase_result */
    uint64_t words;
    unsigned long long base; /* out->base of to_addresses */
} st;

static void free_chain(void)
{
    cr_cuda_free(&st.chain);
    st.words = 0;
    st.base = 0;
}

static void cu_close(void)
{
    free_chain();
    cr_cuda_free(&st.result);
    cr_cuda_close_timed(&st.cu);
    memset(&st, 0, sizeof st);
}

/* Where the walk's results go, and the cache the kernel runs with: it uses
 * no shared memory, so the footprint sweep sees the largest L1 the part has. */
static cr_status prepare_chase(char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMalloc(&st.result, sizeof(chase_result)), "cudaMalloc(result)", err, errlen);
    return CR_CUDA_PREFER_L1(chase, err, errlen);
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

cr_cuda *lt_cuda_device(void) { return st.result ? &st.cu : nullptr; }

void *lt_cuda_chain(uint64_t *words, unsigned long long *global_base)
{
    *words = st.words;
    *global_base = st.base;
    return st.chain;
}

/* Enough blocks of 256 to convert a chain of any size in a few passes. */
static unsigned address_blocks(uint64_t words)
{
    uint64_t blocks = (words + 255) / 256;
    return (unsigned)(blocks < 4096 ? blocks : 4096);
}

/* One allocation always: cudaMalloc has no cap below the device's memory,
 * which already bounds the footprint. The indices go up and become
 * addresses on the device, so that the host needs no second copy of a
 * chain that may be half the device's memory. */
static cr_status cu_prepare(const lt_layout *layout, const uint64_t *next, char *err, size_t errlen)
{
    free_chain();
    if (lt_layout_check(layout, 1, "the cuda backend", err, errlen) != CR_OK)
        return CR_ERR;
    size_t bytes = (size_t)layout->words * sizeof(unsigned long long);
    CR_CUDA_CHECK(cudaMalloc(&st.chain, bytes), "cudaMalloc(chain)", err, errlen);
    CR_CUDA_CHECK(cudaMemcpy(st.chain, next, bytes, cudaMemcpyHostToDevice), "cudaMemcpy(chain)", err, errlen);
    to_addresses<<<address_blocks(layout->words), 256>>>(static_cast<unsigned long long *>(st.chain),
                                                         layout->words, static_cast<chase_result *>(st.result));
    CR_CUDA_CHECK(cudaGetLastError(), "to_addresses<<<>>>", err, errlen);
    chase_result r;
    CR_CUDA_CHECK(cudaMemcpy(&r, st.result, sizeof r, cudaMemcpyDeviceToHost), "cudaMemcpy(base)", err, errlen);
    st.base = r.base;
    st.words = layout->words;
    return CR_OK;
}

/* Between the timer's start and stop only the launch: the timer holds the
 * stream until stop, so nothing there may wait for the device. */
static cr_status cu_run(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen)
{
    if (lt_chain_check_start(start, st.words, err, errlen) != CR_OK)
        return CR_ERR;
    *t = cr_timing{};
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    chase<<<1, 1>>>(LT_WORD_ADDRESS(st.base, start), steps, static_cast<chase_result *>(st.result));
    CR_CUDA_CHECK(cudaGetLastError(), "chase<<<1, 1>>>", err, errlen);
    if (cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;
    chase_result r;
    CR_CUDA_CHECK(cudaMemcpy(&r, st.result, sizeof r, cudaMemcpyDeviceToHost), "cudaMemcpy(result)", err, errlen);
    *out = lt_walk_out{};
    if (!lt_word_of_address(r.end, st.base, st.words, &out->end)) {
        snprintf(err, errlen, "the walk ended at address 0x%llx, not a word of the chain (%" PRIu64 " words at 0x%llx)",
                 r.end, st.words, st.base);
        return CR_ERR;
    }
    out->has_cycles = r.cycles >= 0;
    out->cycles = out->has_cycles ? (uint64_t)r.cycles : 0;
    return CR_OK;
}

extern "C" {
const lt_backend lt_cuda_walker = {
    {"cuda", cr_cuda_list, cu_open, cu_close}, cu_caches, cu_prepare, cu_run, 1,
    "the cuda backend holds the chain in one allocation (cudaMalloc has no cap below the device's memory)",
};
}
