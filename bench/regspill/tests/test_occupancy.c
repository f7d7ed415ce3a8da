#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "regspill/occupancy.h"

#include <math.h>
#include <string.h>

static const occ_arch *arch(const char *name)
{
    const occ_arch *a = occ_arch_find(name);
    assert_non_null(a);
    return a;
}

static occ_result compute(const occ_arch *a, unsigned threads, unsigned smem, unsigned regs, occ_rule rule)
{
    occ_kernel k = {threads, smem, regs};
    occ_result r;
    char err[160] = "";
    if (occ_compute(a, &k, rule, &r, err, sizeof err) != 0)
        fail_msg("%s threads %u smem %u regs %u: %s", a->name, threads, smem, regs, err);
    return r;
}

/* The kernel gets blocks per SM on the architecture under the rule. */
static void expect_blocks(const char *name, unsigned threads, unsigned smem, unsigned regs, occ_rule rule,
                          unsigned blocks)
{
    occ_result r = compute(arch(name), threads, smem, regs, rule);
    if (r.blocks_per_sm != blocks)
        fail_msg("%s threads %u smem %u regs %u, %s: %u blocks, want %u", name, threads, smem, regs,
                 occ_rule_name(rule), r.blocks_per_sm, blocks);
}

/* The same kernel under NVIDIA's per-warp rule and Li's per-block one. */
static void expect_blocks_by_rule(const char *name, unsigned threads, unsigned smem, unsigned regs,
                                  unsigned per_warp, unsigned per_block)
{
    expect_blocks(name, threads, smem, regs, OCC_RULE_PER_WARP, per_warp);
    expect_blocks(name, threads, smem, regs, OCC_RULE_PER_BLOCK, per_block);
}

/* A level of the critical points: its register range and blocks per SM. */
typedef struct {
    unsigned r_lo, r_hi, blocks;
} level;

/* The critical points of a kernel over registers lo..hi are the n levels
 * want; lv receives them. */
static void expect_levels(const occ_arch *a, unsigned threads, unsigned smem, unsigned lo, unsigned hi, occ_rule rule,
                          const level *want, int n, occ_level lv[16])
{
    char err[160] = "";
    int got = occ_critical_points(a, threads, smem, lo, hi, rule, lv, 16, err, sizeof err);
    if (got != n)
        fail_msg("%s threads %u smem %u regs %u:%u, %s: %d levels, want %d %s", a->name, threads, smem, lo, hi,
                 occ_rule_name(rule), got, n, err);
    for (int i = 0; i < n; ++i)
        if (lv[i].r_lo != want[i].r_lo || lv[i].r_hi != want[i].r_hi || lv[i].at_cp.blocks_per_sm != want[i].blocks)
            fail_msg("level %d: registers %u..%u, %u blocks; want %u..%u, %u blocks", i, lv[i].r_lo, lv[i].r_hi,
                     lv[i].at_cp.blocks_per_sm, want[i].r_lo, want[i].r_hi, want[i].blocks);
}

/* Li's Fdtd3d on Maxwell: 16 warps per block, 3840 B shared memory. */
static void expect_fdtd3d_levels(occ_rule rule, unsigned lo, unsigned hi, const level *want, int n, occ_level lv[16])
{
    expect_levels(arch("sm_50"), 512, 3840, lo, hi, rule, want, n, lv);
}

static void test_fdtd3d_critical_points_per_block(void **state)
{
    (void)state;
    occ_level lv[16];
    static const level fdtd3d[] = {{16, 32, 4}, {33, 42, 3}, {43, 64, 2}};
    expect_fdtd3d_levels(OCC_RULE_PER_BLOCK, 16, 64, fdtd3d, 3, lv);
    assert_int_equal(lv[0].at_cp.warps_per_sm, 64);
    assert_true(lv[0].at_cp.occupancy == 1.0);
    assert_int_equal(lv[1].at_cp.limiter, OCC_LIMIT_REGISTERS);
    assert_true(lv[2].at_cp.occupancy == 0.5);
    /* At r = 32 registers and warp slots both allow 4: warps win the tie. */
    assert_int_equal(lv[0].at_cp.by_regs, 4);
    assert_int_equal(lv[0].at_cp.by_warps, 4);
    assert_int_equal(lv[0].at_cp.limiter, OCC_LIMIT_WARPS);
    assert_int_equal(lv[0].at_cp.by_smem, 17); /* 65536 / 3840 */

    /* The whole range adds one more level, 1 block up to 128 registers; at
     * 129 a block needs 512 * 129 = 66048 registers, more than the file. */
    static const level whole[] = {{1, 32, 4}, {33, 42, 3}, {43, 64, 2}, {65, 128, 1}};
    expect_fdtd3d_levels(OCC_RULE_PER_BLOCK, 1, 255, whole, 4, lv);
    occ_result r = compute(arch("sm_50"), 512, 3840, 129, OCC_RULE_PER_BLOCK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.by_regs, 0);
    assert_int_equal(r.limiter, OCC_LIMIT_NONE);
    assert_true(r.occupancy == 0.0);
    expect_blocks("sm_50", 512, 3840, 255, OCC_RULE_PER_BLOCK, 0);
}

static void test_fdtd3d_critical_points_per_warp(void **state)
{
    (void)state;
    occ_level lv[16];
    static const level fdtd3d[] = {{16, 32, 4}, {33, 40, 3}, {41, 64, 2}};
    expect_fdtd3d_levels(OCC_RULE_PER_WARP, 16, 64, fdtd3d, 3, lv);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(lv[i].at_cp.warps_per_sm, 16 * fdtd3d[i].blocks);
    /* Over the whole range the per-warp rule also ends at 128 registers:
     * 65..72 -> 1 block (7 warps per partition), up to 128 (4 per partition). */
    static const level whole[] = {{1, 32, 4}, {33, 40, 3}, {41, 64, 2}, {65, 128, 1}};
    expect_fdtd3d_levels(OCC_RULE_PER_WARP, 1, 255, whole, 4, lv);
}

static void test_li_kepler_cases(void **state)
{
    (void)state;
    const occ_arch *a = arch("sm_35");
    for (int rule = OCC_RULE_PER_BLOCK; rule <= OCC_RULE_PER_WARP; ++rule) {
        /* LEU: 10 warps, 14586 B -> 14592 B allocated, 49152 / 14592 = 3.
         * The registers (61 per thread) also allow exactly 3, so by the
         * tie rule the limiter reported is REGISTERS; shared memory is
         * what the thesis names, and it limits to 3 on its own. */
        occ_result r = compute(a, 320, 14586, 61, (occ_rule)rule);
        assert_int_equal(r.blocks_per_sm, 3);
        assert_int_equal(r.by_smem, 3);
        assert_int_equal(r.by_regs, 3);
        assert_int_equal(r.by_warps, 6);
        assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
        assert_int_equal(r.warps_per_sm, 30);
        assert_true(fabs(r.occupancy - 30.0 / 64.0) < 1e-15);
        /* With fewer registers shared memory alone limits it. */
        r = compute(a, 320, 14586, 32, (occ_rule)rule);
        assert_int_equal(r.blocks_per_sm, 3);
        assert_int_equal(r.limiter, OCC_LIMIT_SMEM);

        /* DCT: 3 warps, 3136 B -> 3328 B with the 256 B unit: 14 blocks, not
         * the 15 that 3136 B (or a 128 B unit) would give. */
        r = compute(a, 96, 3136, 33, (occ_rule)rule);
        assert_int_equal(r.blocks_per_sm, 14);
        assert_int_equal(r.by_smem, 14);
        assert_int_equal(r.limiter, OCC_LIMIT_SMEM);
        assert_int_equal(r.warps_per_sm, 42);

        /* MRG: 2 warps, 1536 B, 62 registers: the 16-block cap. */
        r = compute(a, 64, 1536, 62, (occ_rule)rule);
        assert_int_equal(r.blocks_per_sm, 16);
        assert_int_equal(r.by_blocks, 16);
        assert_int_equal(r.limiter, OCC_LIMIT_BLOCKS);
        assert_int_equal(r.warps_per_sm, 32);
        assert_true(r.occupancy == 0.5);
    }
}

/* CUDA C++ Best Practices Guide, "Calculating Occupancy" (cc 7.0). */
static void test_best_practices_guide_cases(void **state)
{
    (void)state;
    const occ_arch *a = arch("7.0");
    occ_result r = compute(a, 128, 0, 37, OCC_RULE_PER_WARP);
    assert_int_equal(r.blocks_per_sm, 12);
    assert_int_equal(r.warps_per_sm, 48);
    assert_true(r.occupancy == 0.75);
    assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
    r = compute(a, 320, 0, 37, OCC_RULE_PER_WARP);
    assert_int_equal(r.blocks_per_sm, 4);
    assert_int_equal(r.warps_per_sm, 40);
    assert_true(r.occupancy == 0.625);

    /* 32 registers per thread allow 100% occupancy on 7.0/7.2 (64 warps),
     * 33 do not; Turing (7.5) holds only 32 warps, so there the edge is
     * 64 registers. */
    const char *volta[] = {"sm_70", "sm_72"};
    for (int i = 0; i < 2; ++i) {
        a = arch(volta[i]);
        r = compute(a, 256, 0, 32, OCC_RULE_PER_WARP);
        assert_int_equal(r.warps_per_sm, 64);
        assert_true(r.occupancy == 1.0);
        r = compute(a, 256, 0, 33, OCC_RULE_PER_WARP);
        assert_true(r.occupancy < 1.0);
        assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
    }
    a = arch("sm_75");
    r = compute(a, 128, 0, 64, OCC_RULE_PER_WARP);
    assert_int_equal(r.blocks_per_sm, 8);
    assert_true(r.occupancy == 1.0);
    r = compute(a, 128, 0, 65, OCC_RULE_PER_WARP);
    assert_int_equal(r.blocks_per_sm, 7);
    assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
    r = compute(arch("sm_70"), 256, 0, 32, OCC_RULE_PER_WARP);
    assert_int_equal(r.blocks_per_sm, 8);
    assert_int_equal(r.warps_per_sm, 64);
    r = compute(arch("sm_70"), 256, 0, 33, OCC_RULE_PER_WARP);
    assert_int_equal(r.blocks_per_sm, 6);
    assert_int_equal(r.warps_per_sm, 48);
}

static void test_rules_agree_without_rounding_and_differ_with_it(void **state)
{
    (void)state;
    const occ_arch *a = arch("sm_50");
    /* Registers per warp a power of two that divides a partition: no
     * rounding anywhere, both rules give the same answer. */
    const unsigned regs[] = {8, 16, 32, 64, 128};
    for (unsigned t = 32; t <= 1024; t += 32)
        for (int i = 0; i < 5; ++i) {
            occ_result b = compute(a, t, 0, regs[i], OCC_RULE_PER_BLOCK);
            occ_result w = compute(a, t, 0, regs[i], OCC_RULE_PER_WARP);
            if (b.blocks_per_sm != w.blocks_per_sm || b.by_regs != w.by_regs)
                fail_msg("threads %u regs %u: per-block %u, per-warp %u", t, regs[i], b.blocks_per_sm,
                         w.blocks_per_sm);
        }
    /* Fdtd3d at 41 and 42 registers: per-block 512 * 42 = 21504 -> 3 blocks;
     * per-warp 32 * 41 = 1312 -> 1536 per warp, 10 warps per partition,
     * 40 warps -> 2 blocks. */
    for (unsigned r = 41; r <= 42; ++r) {
        expect_blocks_by_rule("sm_50", 512, 3840, r, 2, 3);
        assert_int_equal(compute(a, 512, 3840, r, OCC_RULE_PER_WARP).by_regs, 2);
    }
    /* Best Practices case under Li's rule: 128 * 37 = 4736 -> 4864 per
     * block, 13 blocks, where the hardware gives 12. */
    expect_blocks("sm_70", 128, 0, 37, OCC_RULE_PER_BLOCK, 13);
}

static void test_shared_memory_reserve_and_unlimited(void **state)
{
    (void)state;
    /* Ampere reserves 1 KB per block: 0 B still allocates 1024 B. */
    const occ_arch *a = arch("sm_80");
    occ_result r = compute(a, 32, 0, 16, OCC_RULE_PER_WARP);
    assert_int_equal(r.by_smem, 167936 / 1024);
    /* The opt-in maximum fits exactly once. */
    r = compute(a, 32, a->smem_per_block, 16, OCC_RULE_PER_WARP);
    assert_int_equal(r.by_smem, 1);
    assert_int_equal(r.blocks_per_sm, 1);
    assert_int_equal(r.limiter, OCC_LIMIT_SMEM);
    /* Before Ampere a block without shared memory is not limited by it. */
    r = compute(arch("sm_50"), 32, 0, 16, OCC_RULE_PER_WARP);
    assert_int_equal(r.by_smem, OCC_UNLIMITED);
    assert_int_equal(r.blocks_per_sm, 32);
    assert_int_equal(r.limiter, OCC_LIMIT_BLOCKS);
    /* 1 byte takes a whole unit. */
    r = compute(arch("sm_50"), 32, 1, 16, OCC_RULE_PER_WARP);
    assert_int_equal(r.by_smem, 65536 / 256);
}

static void test_pascal_gp100_forward_compatibility(void **state)
{
    (void)state;
    /* 10 warps of 185 registers: 6144 per warp; GP100's two partitions hold
     * 5 warps each (1 block), GP10x's four hold 2 each (0 blocks): NVIDIA
     * refuses it on sm_60 too. Li's per-block rule has no such check. */
    assert_int_equal(arch("sm_60")->partitions, 2);
    expect_blocks_by_rule("sm_60", 320, 0, 185, 0, 1);
    expect_blocks("sm_61", 320, 0, 185, OCC_RULE_PER_WARP, 0);
    /* Where GP10x fits, GP100's two partitions count: 1 warp of 255
     * registers (8192 per warp): 4 per partition, 8 blocks on both. */
    expect_blocks("sm_60", 32, 0, 255, OCC_RULE_PER_WARP, 8);
    /* 96 registers (3072 per warp): 10 per GP100 partition -> 20 warps,
     * 5 per GP10x partition -> 20 warps; with 4-warp blocks 5 blocks. */
    expect_blocks("sm_60", 128, 0, 96, OCC_RULE_PER_WARP, 5);
}

/* Where a block may hold less than the whole register file, the hardware
 * checks a block's registers as if its warps filled every partition. */
static void test_hardware_launch_check(void **state)
{
    (void)state;
    /* sm_37: 10 warps of 169 registers, 5632 per warp: 56320 fit the 64 K
     * per block, but 12 * 5632 = 67584 (10 warps rounded up to 4
     * partitions) do not. The 128 K file alone would hold 2 blocks. */
    expect_blocks_by_rule("sm_37", 320, 0, 169, 0, 2);
    assert_int_equal(compute(arch("sm_37"), 320, 0, 169, OCC_RULE_PER_WARP).limiter, OCC_LIMIT_NONE);
    expect_blocks("sm_37", 320, 0, 168, OCC_RULE_PER_WARP, 2); /* 5376 * 12 = 64512 */
    /* sm_53, 32 K per block: 6 warps of 129 registers (4352 per warp),
     * 8 * 4352 = 34816 > 32768. */
    expect_blocks_by_rule("sm_53", 192, 0, 129, 0, 2);
    expect_blocks("sm_53", 192, 0, 128, OCC_RULE_PER_WARP, 2);
}

static void test_bad_input(void **state)
{
    (void)state;
    const occ_arch *a = arch("sm_90");
    occ_result r;
    char err[160];
    const occ_kernel bad[] = {
        {0, 0, 32},                       /* no threads */
        {2048, 0, 32},                    /* above 1024 */
        {256, 0, 0},                      /* no registers */
        {256, 0, 256},                    /* above 255 */
        {256, a->smem_per_block + 1, 32}, /* above the opt-in maximum */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        err[0] = '\0';
        assert_int_equal(occ_compute(a, &bad[i], OCC_RULE_PER_WARP, &r, err, sizeof err), -1);
        assert_true(strlen(err) > 0);
        err[0] = '\0';
        assert_int_equal(occ_compute(a, &bad[i], OCC_RULE_PER_BLOCK, &r, err, sizeof err), -1);
        assert_true(strlen(err) > 0);
    }
    /* The per-thread maximum is per architecture: 64 is too many on Kepler sm_30. */
    occ_kernel k = {256, 0, 64};
    assert_int_equal(occ_compute(arch("sm_30"), &k, OCC_RULE_PER_WARP, &r, err, sizeof err), -1);
    k.regs_per_thread = 63;
    assert_int_equal(occ_compute(arch("sm_30"), &k, OCC_RULE_PER_WARP, &r, err, sizeof err), 0);
    /* No error buffer: still -1, no crash. */
    assert_int_equal(occ_compute(a, &bad[0], OCC_RULE_PER_WARP, &r, NULL, 0), -1);
    assert_int_equal(occ_compute(NULL, &k, OCC_RULE_PER_WARP, &r, err, sizeof err), -1);

    occ_level lv[8];
    err[0] = '\0';
    assert_int_equal(occ_critical_points(a, 256, 0, 40, 30, OCC_RULE_PER_WARP, lv, 8, err, sizeof err), -1);
    assert_true(strlen(err) > 0);
    err[0] = '\0';
    assert_int_equal(occ_critical_points(a, 256, 0, 1, 256, OCC_RULE_PER_WARP, lv, 8, err, sizeof err), -1);
    assert_true(strlen(err) > 0);
    assert_int_equal(occ_critical_points(a, 256, 0, 0, 10, OCC_RULE_PER_WARP, lv, 8, err, sizeof err), -1);
    assert_int_equal(occ_critical_points(a, 0, 0, 1, 10, OCC_RULE_PER_WARP, lv, 8, err, sizeof err), -1);
    assert_int_equal(occ_critical_points(a, 256, a->smem_per_block + 1, 1, 10, OCC_RULE_PER_WARP, lv, 8, err,
                                         sizeof err),
                     -1);

    assert_null(occ_arch_find("sm_1"));
    assert_null(occ_arch_find("pascalx"));
    assert_null(occ_arch_find(""));
    assert_null(occ_arch_find(NULL));
    assert_null(occ_arch_find("sm_"));
    assert_null(occ_arch_find("9."));
    assert_null(occ_arch_find(".0"));
    assert_null(occ_arch_find("sm_90a"));
    assert_null(occ_arch_find("99999999999999999999999"));
}

static void test_arch_find(void **state)
{
    (void)state;
    /* Spelling, then the architecture found. */
    static const struct {
        const char *query, *name;
    } cases[] = {
        {"sm_90", "sm_90"}, {"9.0", "sm_90"}, {"90", "sm_90"}, {"hopper", "sm_90"}, {"Hopper", "sm_90"},
        {"SM_90", "sm_90"}, {"compute_90", "sm_90"}, {"10.0", "sm_100"}, {"10.3", "sm_103"}, {"12.0", "sm_120"},
        {"3.5", "sm_35"},
        /* A family name gives its first architecture. */
        {"fermi", "sm_20"}, {"KEPLER", "sm_30"}, {"maxwell", "sm_50"}, {"pascal", "sm_60"}, {"volta", "sm_70"},
        {"turing", "sm_75"}, {"ampere", "sm_80"}, {"ada", "sm_89"}, {"blackwell", "sm_100"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const occ_arch *want = NULL;
        for (size_t j = 0; j < occ_arch_count; ++j)
            if (strcmp(occ_archs[j].name, cases[i].name) == 0)
                want = &occ_archs[j];
        assert_non_null(want);
        const occ_arch *got = occ_arch_find(cases[i].query);
        if (got != want)
            fail_msg("'%s' finds %s, want %s", cases[i].query, got ? got->name : "nothing", cases[i].name);
    }
}

static void test_table_is_self_consistent(void **state)
{
    (void)state;
    assert_true(occ_arch_count >= 23);
    for (size_t i = 0; i < occ_arch_count; ++i) {
        const occ_arch *a = &occ_archs[i];
        assert_true(strncmp(a->name, "sm_", 3) == 0);
        assert_non_null(a->family);
        assert_non_null(a->example);
        assert_ptr_equal(occ_arch_find(a->name), a); /* names are unique */
        assert_true(a->reg_unit > 0 && a->partitions > 0 && a->smem_unit > 0);
        assert_true(a->max_warps_per_sm > 0 && a->max_blocks_per_sm > 0);
        assert_true(a->max_warps_per_sm * 32 >= a->max_threads_per_block);
        assert_int_equal(a->max_threads_per_block % 32, 0);
        assert_int_equal(a->regs_per_sm % a->partitions, 0);
        assert_int_equal((a->regs_per_sm / a->partitions) % a->reg_unit, 0);
        assert_true(a->regs_per_block <= a->regs_per_sm);
        assert_int_equal(a->regs_per_block % a->reg_unit, 0);
        assert_true(a->max_regs_per_thread >= 63 && a->max_regs_per_thread <= 255);
        assert_true(a->smem_per_block <= a->smem_per_sm);
        assert_true(a->smem_per_block + a->smem_reserved <= a->smem_per_sm);
        assert_int_equal(a->smem_per_block % a->smem_unit, 0);
        assert_int_equal(a->smem_reserved % a->smem_unit, 0);
        assert_true(a->compat_partitions == 0 || a->regs_per_sm % a->compat_partitions == 0);
        /* The smallest kernel launches, and a full block of 1-register
         * threads reaches the block cap or the warp limit. */
        occ_result r = compute(a, 32, 0, 1, OCC_RULE_PER_WARP);
        assert_true(r.blocks_per_sm > 0);
        r = compute(a, a->max_threads_per_block, 0, 1, OCC_RULE_PER_BLOCK);
        assert_true(r.blocks_per_sm >= 1);
        /* The family name finds the first row of the family. */
        const occ_arch *f = occ_arch_find(a->family);
        assert_non_null(f);
        assert_true(f <= a);
        assert_string_equal(f->family, a->family);
        for (const occ_arch *p = occ_archs; p < f; ++p)
            assert_true(strcmp(p->family, a->family) != 0);
    }
}

static void test_levels_beyond_cap_are_counted(void **state)
{
    (void)state;
    const occ_arch *a = arch("sm_50");
    char err[160];
    occ_level one[1];
    int n = occ_critical_points(a, 512, 3840, 1, 255, OCC_RULE_PER_BLOCK, one, 1, err, sizeof err);
    assert_int_equal(n, 4);
    assert_int_equal(one[0].r_hi, 32);
    assert_int_equal(occ_critical_points(a, 512, 3840, 1, 255, OCC_RULE_PER_BLOCK, NULL, 0, err, sizeof err), 4);
    /* A range where nothing launches has no level. */
    assert_int_equal(occ_critical_points(a, 512, 3840, 129, 255, OCC_RULE_PER_BLOCK, NULL, 0, err, sizeof err), 0);
    /* A single register count gives one level of one value. */
    n = occ_critical_points(a, 512, 3840, 40, 40, OCC_RULE_PER_WARP, one, 1, err, sizeof err);
    assert_int_equal(n, 1);
    assert_int_equal(one[0].r_lo, 40);
    assert_int_equal(one[0].r_hi, 40);
    assert_int_equal(one[0].at_cp.blocks_per_sm, 3);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(occ_rule_name(OCC_RULE_PER_BLOCK), "per-block (Li Eq. 4.3)");
    assert_string_equal(occ_rule_name(OCC_RULE_PER_WARP), "per-warp (NVIDIA)");
    assert_string_equal(occ_limiter_name(OCC_LIMIT_NONE), "none");
    assert_string_equal(occ_limiter_name(OCC_LIMIT_BLOCKS), "blocks");
    assert_string_equal(occ_limiter_name(OCC_LIMIT_WARPS), "warps");
    assert_string_equal(occ_limiter_name(OCC_LIMIT_REGISTERS), "registers");
    assert_string_equal(occ_limiter_name(OCC_LIMIT_SMEM), "smem");
}

TEST_MAIN(NULL, NULL, test_fdtd3d_critical_points_per_block, test_fdtd3d_critical_points_per_warp, test_li_kepler_cases,
          test_best_practices_guide_cases, test_rules_agree_without_rounding_and_differ_with_it,
          test_shared_memory_reserve_and_unlimited, test_pascal_gp100_forward_compatibility, test_hardware_launch_check,
          test_bad_input, test_arch_find, test_table_is_self_consistent, test_levels_beyond_cap_are_counted, test_names)
