/* Cross-checks the per-warp register rule and the architecture table against
 * NVIDIA's own occupancy calculator, cuda_occupancy.h from the CUDA toolkit
 * (include it with -I<cuda>/include). Builds only where that header exists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "regspill/occupancy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if !__has_include(<cuda_occupancy.h>)
#error "test_occupancy_nvidia needs cuda_occupancy.h from the CUDA toolkit (-I<cuda>/include)"
#endif
#endif

/* Both headers name limiters OCC_LIMIT_*: give NVIDIA's their own prefix. */
#define OCC_LIMIT_WARPS NV_OCC_LIMIT_WARPS
#define OCC_LIMIT_REGISTERS NV_OCC_LIMIT_REGISTERS
#define OCC_LIMIT_SHARED_MEMORY NV_OCC_LIMIT_SHARED_MEMORY
#define OCC_LIMIT_BLOCKS NV_OCC_LIMIT_BLOCKS
#define OCC_LIMIT_BARRIERS NV_OCC_LIMIT_BARRIERS
#define OCC_LIMIT_VIRTUAL_RESOURCES NV_OCC_LIMIT_VIRTUAL_RESOURCES
#include <cuda_occupancy.h>
#undef OCC_LIMIT_WARPS
#undef OCC_LIMIT_REGISTERS
#undef OCC_LIMIT_SHARED_MEMORY
#undef OCC_LIMIT_BLOCKS
#undef OCC_LIMIT_BARRIERS
#undef OCC_LIMIT_VIRTUAL_RESOURCES

static const unsigned block_sizes[] = {32, 64, 96, 128, 192, 256, 320, 512, 768, 1024};
static const unsigned smem_sizes[] = {0, 1000, 3840, 8192, 20000, 48000};
/* Above 48 KB a kernel must opt in (cc 7.0 and later); 0 stands for the
 * architecture's own per-block maximum. */
static const unsigned optin_sizes[] = {49153, 65536, 98304, 101376, 166912, 232448, 0};

/* Compute capability from "sm_XY" / "sm_XYZ": the last digit is the minor. */
static void cc_of(const occ_arch *a, int *major, int *minor)
{
    int v = atoi(a->name + 3);
    *major = v / 10;
    *minor = v % 10;
}

static void fill_prop(const occ_arch *a, cudaOccDeviceProp *p)
{
    memset(p, 0, sizeof *p);
    cc_of(a, &p->computeMajor, &p->computeMinor);
    p->maxThreadsPerBlock = (int)a->max_threads_per_block;
    p->maxThreadsPerMultiprocessor = (int)(a->max_warps_per_sm * 32);
    p->regsPerBlock = (int)a->regs_per_block;
    p->regsPerMultiprocessor = (int)a->regs_per_sm;
    p->warpSize = 32;
    /* Without opting in a block gets at most 48 KB; the opt-in maximum is ours. */
    p->sharedMemPerBlock = a->smem_per_block < 49152 ? a->smem_per_block : 49152;
    p->sharedMemPerMultiprocessor = a->smem_per_sm;
    p->numSms = 1;
    p->sharedMemPerBlockOptin = a->smem_per_block;
    p->reservedSharedMemPerBlock = a->smem_reserved;
}

static void fill_state(cudaOccDeviceState *s)
{
    memset(s, 0, sizeof *s);
    s->cacheConfig = CACHE_PREFER_NONE;
    /* The default carveout takes sharedMemPerMultiprocessor as it is (aligned
     * up to a configuration), i.e. the largest configuration, as our table
     * does; test_default_carveout_is_the_largest_configuration checks that. */
    s->carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
}

static void fill_func(const occ_arch *a, unsigned regs, unsigned smem, cudaOccFuncAttributes *f)
{
    memset(f, 0, sizeof *f);
    f->maxThreadsPerBlock = (int)a->max_threads_per_block;
    f->numRegs = (int)regs;
    f->sharedSizeBytes = smem;
    f->partitionedGCConfig = PARTITIONED_GC_OFF;
    /* Our per-block maximum is the opt-in one: opt in where a block needs it. */
    f->shmemLimitConfig = smem > 49152 ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    f->maxDynamicSharedSizeBytes = 0;
    f->numBlockBarriers = 1;
    f->virtualResourceCount = 0;
}

/* Whether this toolkit's calculator knows the architecture: cc 3.0 up to
 * the header's own maximum, and a probe launch that is not refused as an
 * unknown device. Fermi (cc 2.x) is no longer in the header. */
static bool header_supports(const occ_arch *a)
{
    int major, minor;
    cc_of(a, &major, &minor);
    if (major < 3 || major > __CUDA_OCC_MAJOR__)
        return false;
    cudaOccDeviceProp p;
    cudaOccDeviceState s;
    cudaOccFuncAttributes f;
    cudaOccResult res;
    fill_prop(a, &p);
    fill_state(&s);
    fill_func(a, 32, 0, &f);
    memset(&res, 0, sizeof res);
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &f, &s, 32, 0) == CUDA_OCC_ERROR_UNKNOWN_DEVICE) {
        print_message("%s: not known to this cuda_occupancy.h, skipped\n", a->name);
        return false;
    }
    return true;
}

static void test_default_carveout_is_the_largest_configuration(void **state)
{
    (void)state;
    size_t checked = 0;
    for (size_t i = 0; i < occ_arch_count; ++i) {
        const occ_arch *a = &occ_archs[i];
        cudaOccDeviceProp p;
        cudaOccDeviceState s;
        if (!header_supports(a))
            continue;
        fill_prop(a, &p);
        fill_state(&s);
        size_t def = 0, max_shared = 0;
        assert_int_equal(cudaOccSMemPerMultiprocessor(&def, &p, &s), CUDA_OCC_SUCCESS);
        s.carveoutConfig = SHAREDMEM_CARVEOUT_MAX_SHARED;
        assert_int_equal(cudaOccSMemPerMultiprocessor(&max_shared, &p, &s), CUDA_OCC_SUCCESS);
        if (def != a->smem_per_sm || max_shared != a->smem_per_sm)
            fail_msg("%s: header shared memory per SM %zu (default) / %zu (max shared), table %u", a->name, def,
                     max_shared, a->smem_per_sm);
        ++checked;
    }
    assert_true(checked >= 13);
}

/* A constant of an architecture: how the header computes it, and where our
 * table holds it. */
static const struct {
    const char *what;
    cudaOccError (*header)(int *value, const cudaOccDeviceProp *p);
    size_t field;
} constants[] = {
    {"shared-memory unit", cudaOccSMemAllocationGranularity, offsetof(occ_arch, smem_unit)},
    {"register unit", cudaOccRegAllocationGranularity, offsetof(occ_arch, reg_unit)},
    {"partitions", cudaOccSubPartitionsPerMultiprocessor, offsetof(occ_arch, partitions)},
    {"block cap", cudaOccMaxBlocksPerMultiprocessor, offsetof(occ_arch, max_blocks_per_sm)},
};

static void test_table_matches_header_constants(void **state)
{
    (void)state;
    for (size_t i = 0; i < occ_arch_count; ++i) {
        const occ_arch *a = &occ_archs[i];
        cudaOccDeviceProp p;
        if (!header_supports(a))
            continue;
        fill_prop(a, &p);
        for (size_t c = 0; c < sizeof constants / sizeof constants[0]; ++c) {
            int v = 0;
            unsigned ours;
            memcpy(&ours, (const char *)a + constants[c].field, sizeof ours);
            assert_int_equal(constants[c].header(&v, &p), CUDA_OCC_SUCCESS);
            if ((unsigned)v != ours)
                fail_msg("%s: %s %d in the header, %u in the table", a->name, constants[c].what, v, ours);
        }
        /* The largest configuration must be one the header knows. */
        size_t sz = a->smem_per_sm;
        if (p.computeMajor >= 7) {
            assert_int_equal(cudaOccAlignUpShmemSizeVoltaPlus(&sz, &p), CUDA_OCC_SUCCESS);
            if (sz != a->smem_per_sm)
                fail_msg("%s: %u B shared per SM is no configuration of the header (next %zu)", a->name,
                         a->smem_per_sm, sz);
        }
        /* Reserved shared memory: 1 KB from cc 8.0, none before. */
        assert_int_equal(a->smem_reserved, p.computeMajor >= 8 ? 1024u : 0u);
    }
}

/* Compares one architecture over block sizes x the given shared-memory sizes
 * x every register count; returns the number of configurations compared. */
static unsigned long long sweep(const occ_arch *a, const unsigned *smems, size_t nsmem, unsigned long long *mismatches)
{
    cudaOccDeviceProp p;
    cudaOccDeviceState s;
    fill_prop(a, &p);
    fill_state(&s);
    unsigned long long compared = 0;
    for (size_t b = 0; b < sizeof block_sizes / sizeof block_sizes[0]; ++b) {
        unsigned threads = block_sizes[b];
        if (threads > a->max_threads_per_block)
            continue;
        for (size_t m = 0; m < nsmem; ++m) {
            unsigned smem = smems[m] ? smems[m] : a->smem_per_block;
            if (smem > a->smem_per_block)
                continue;
            for (unsigned r = 1; r <= 255 && r <= a->max_regs_per_thread; ++r) {
                occ_kernel k = {threads, smem, r};
                occ_result ours;
                char err[128];
                if (occ_compute(a, &k, OCC_RULE_PER_WARP, &ours, err, sizeof err) != 0)
                    fail_msg("%s: %s", a->name, err);
                cudaOccFuncAttributes f;
                fill_func(a, r, smem, &f);
                cudaOccResult theirs;
                memset(&theirs, 0, sizeof theirs);
                cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&theirs, &p, &f, &s, (int)threads, 0);
                if (e != CUDA_OCC_SUCCESS)
                    fail_msg("%s threads %u smem %u regs %u: cuda_occupancy.h error %d", a->name, threads, smem, r,
                             (int)e);
                ++compared;
                if ((int)ours.blocks_per_sm != theirs.activeBlocksPerMultiprocessor) {
                    if (*mismatches < 20)
                        print_error("%s threads %u smem %u regs %u: ours %u, NVIDIA %d (regs %d smem %d warps %d "
                                    "blocks %d)\n",
                                    a->name, threads, smem, r, ours.blocks_per_sm,
                                    theirs.activeBlocksPerMultiprocessor, theirs.blockLimitRegs,
                                    theirs.blockLimitSharedMem, theirs.blockLimitWarps, theirs.blockLimitBlocks);
                    ++*mismatches;
                }
            }
        }
    }
    return compared;
}

static void test_per_warp_rule_matches_nvidia(void **state)
{
    (void)state;
    unsigned long long compared = 0, mismatches = 0;
    size_t archs = 0;
    for (size_t i = 0; i < occ_arch_count; ++i) {
        if (!header_supports(&occ_archs[i]))
            continue;
        ++archs;
        compared += sweep(&occ_archs[i], smem_sizes, sizeof smem_sizes / sizeof smem_sizes[0], &mismatches);
    }
    print_message("compared %llu configurations on %zu architectures\n", compared, archs);
    assert_true(archs >= 13); /* cc 3.0 to 7.5 at least */
    assert_true(compared >= archs * 10000); /* about 14700 per architecture */
    assert_int_equal(mismatches, 0);
}

/* Opted-in shared memory above 48 KB, up to each architecture's maximum,
 * with the 1 KB per-block reserve from cc 8.0. */
static void test_opt_in_shared_memory_matches_nvidia(void **state)
{
    (void)state;
    unsigned long long compared = 0, mismatches = 0;
    for (size_t i = 0; i < occ_arch_count; ++i) {
        int major, minor;
        cc_of(&occ_archs[i], &major, &minor);
        if (major < 7 || !header_supports(&occ_archs[i]))
            continue;
        compared += sweep(&occ_archs[i], optin_sizes, sizeof optin_sizes / sizeof optin_sizes[0], &mismatches);
    }
    print_message("compared %llu opt-in configurations\n", compared);
    assert_true(compared >= 10000); /* about 7000 per cc 7.0+ architecture */
    assert_int_equal(mismatches, 0);
}

TEST_MAIN(NULL, NULL, test_default_carveout_is_the_largest_configuration, test_table_matches_header_constants,
          test_per_warp_rule_matches_nvidia, test_opt_in_shared_memory_matches_nvidia)
