/* The analysis on latencies made by a small model of a known hierarchy
 * (L1 32 KiB 8-way, L2 1 MiB 16-way, 64-B lines, memory beyond; or an L2
 * shared with a co-tenant), with
 * noise: the levels, capacities and latencies, the line from the pairs and
 * the grid, the ways and replacement from the set-conflict chase, the
 * write verdicts; and the cases where nothing can be told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/analysis.h"
#include "random.h"
#include "tests/test_main.h"

#include <math.h>

#define L1 (32.0 * 1024)
#define L2 (1024.0 * 1024)
#define L1_NS 1.3
#define L2_NS 4.0
#define MEM_NS 100.0

/* Deterministic noise of +-amp, relative. */
static double noisy(double ns, double amp, uint64_t *state)
{
    double u = (double)(cr_splitmix64(state) >> 11) / 9007199254740992.0;
    return ns * (1 + amp * (2 * u - 1));
}

/* A random chase over footprint f through private levels with an LRU-like
 * replacement: a cyclic walk over more lines than a level holds misses it
 * on every load. */
static double model_ns(double f)
{
    if (f <= L1)
        return L1_NS;
    return f <= L2 ? L2_NS : MEM_NS;
}

/* The same L2 shared with a co-tenant: misses begin at a quarter of it and
 * grow with the footprint, 47% of the loads missing at L2 itself and all
 * beyond 1.85 L2. */
static double shared_l2_ns(double f)
{
    if (f <= L1)
        return L1_NS;
    double miss = fmin(fmax((f - L2 / 4) / (1.6 * L2), 0), 1);
    return L2_NS + miss * (MEM_NS - L2_NS);
}

/* The capacity sweep's footprints, 1 KiB up in quarter octaves, to 16 MiB,
 * over a model of the hierarchy. */
static size_t sweep_of(double (*model)(double), cc_point *p, double amp, uint64_t seed)
{
    size_t n = 0;
    for (double oct = 1024; oct <= 16.0 * 1024 * 1024; oct *= 2)
        for (int q = 0; q < 4; ++q) {
            double f = oct * (4 + q) / 4;
            p[n] = (cc_point){f, noisy(model(f), amp, &seed), true};
            ++n;
        }
    return n;
}

static size_t capacity_sweep(cc_point *p, double amp, uint64_t seed) { return sweep_of(model_ns, p, amp, seed); }

/* The levels found in a capacity sweep over the model, noise amp, its
 * points in p (128); returns how many. */
static size_t levels_of(double (*model)(double), cc_point *p, double amp, uint64_t seed, cc_levels *lv)
{
    size_t n = sweep_of(model, p, amp, seed);
    cc_find_levels(p, n, lv);
    return n;
}

/* The levels of a sweep over a model (points in p, 128), count of them. */
static cc_levels expect_levels(double (*model)(double), cc_point *p, double amp, uint64_t seed, unsigned count)
{
    cc_levels lv;
    levels_of(model, p, amp, seed, &lv);
    assert_int_equal(lv.count, count);
    return lv;
}

/* Level k of the count levels found in a sweep over a model. */
static cc_boundary level_of(double (*model)(double), double amp, uint64_t seed, unsigned count, unsigned k)
{
    cc_point p[128];
    return expect_levels(model, p, amp, seed, count).level[k];
}

static void test_levels_of_a_known_hierarchy(void **state)
{
    (void)state;
    cc_point p[128];
    cc_levels lv;
    size_t n = levels_of(model_ns, p, 0.01, 1, &lv);
    assert_int_equal(lv.count, 2);
    assert_true(lv.level[0].capacity == L1);
    assert_true(lv.level[1].capacity == L2);
    assert_true(lv.level[0].onset == L1);
    assert_true(lv.level[1].onset == L2);
    assert_true(fabs(lv.level[0].ns - L1_NS) < 0.05);
    assert_true(lv.level[1].ns > 3 && lv.level[1].ns < L2_NS * 1.02);
    assert_true(lv.has_memory);
    assert_true(lv.memory_ns > 80);
    assert_int_equal(lv.level[0].conf, CC_CONF_HIGH);
    double swept[128];
    for (size_t i = 0; i < n; ++i)
        swept[i] = p[i].x;
    assert_true(cc_within_one_step(swept, n, lv.level[1].capacity, L2));
    assert_true(cc_within_one_step(swept, n, 1.25 * L2, L2));
    assert_false(cc_within_one_step(swept, n, 1.5 * L2, L2));
    assert_false(cc_within_one_step(swept, n, L2 / 2, L2));
}

/* A level others hold part of: its flat stretch ends at a quarter of it,
 * where misses begin, and its capacity is read where half the loads miss,
 * within one step of the level's size; the private L1 before it steps
 * whole. */
static void test_a_shared_level_reads_where_half_the_loads_miss(void **state)
{
    (void)state;
    cc_point p[128];
    cc_levels lv = expect_levels(shared_l2_ns, p, 0.005, 5, 2);
    assert_true(lv.level[0].onset == L1 && lv.level[0].capacity == L1);
    assert_true(lv.level[1].onset == L2 / 4);
    assert_true(lv.level[1].capacity == L2);
    assert_true(lv.has_memory && fabs(lv.memory_ns - MEM_NS) < 1);
}

/* A point disturbed by the scheduler is not a level's end; invalid points
 * are left out. */
static void test_a_spike_is_no_level(void **state)
{
    (void)state;
    cc_point p[128];
    size_t n = capacity_sweep(p, 0.005, 2);
    p[8].ns *= 1.6;     /* 4 KiB */
    p[12].valid = false; /* 8 KiB */
    cc_levels lv;
    cc_find_levels(p, n, &lv);
    assert_int_equal(lv.count, 2);
    assert_true(lv.level[0].capacity == L1);
}

/* A short flat stretch hardly slower than the level before (a cache
 * shared with a neighbour for part of its size) is a pause in the
 * transition, not a level of its own. */
static void test_a_pause_is_no_level(void **state)
{
    (void)state;
    cc_point p[64];
    size_t n = 0;
    for (double oct = 1024; oct <= 8.0 * 1024 * 1024; oct *= 2)
        for (int q = 0; q < 4; ++q) {
            double f = oct * (4 + q) / 4;
            double ns = f <= L1 ? L1_NS : f <= 256.0 * 1024 ? L2_NS : f <= 512.0 * 1024 ? 1.25 * L2_NS
                        : f <= L2 ? 9.0 : MEM_NS;
            p[n] = (cc_point){f, ns, true};
            ++n;
        }
    cc_levels lv;
    cc_find_levels(p, n, &lv);
    assert_int_equal(lv.count, 3);
    assert_true(lv.level[0].capacity == L1);
    /* The pause belongs to the transition: the 4-ns level is whole up to
     * 256 KiB, and half its loads go further only beyond 512 KiB. */
    assert_true(lv.level[1].onset == 256.0 * 1024);
    assert_true(lv.level[1].capacity == 512.0 * 1024);
    assert_true(lv.level[2].capacity == L2);
    assert_true(lv.has_memory && lv.memory_ns == MEM_NS);
}

/* The swept point at footprint f (one of the sweep's). */
static cc_point *at_footprint(cc_point *p, size_t n, double f)
{
    for (size_t i = 0; i < n; ++i)
        if (p[i].x == f)
            return &p[i];
    fail_msg("no point at %.0f B", f);
    return NULL;
}

/* One point of the transition slowed past halfway by another process: the
 * last footprint below halfway would be 768 KiB, two steps short; on the
 * lower envelope the crossing stays just beyond 1 MiB. */
static void test_a_disturbed_transition_point_does_not_end_the_level_early(void **state)
{
    (void)state;
    cc_point p[128];
    size_t n = sweep_of(shared_l2_ns, p, 0.005, 6);
    at_footprint(p, n, 0.875 * L2)->ns = 0.7 * MEM_NS;
    cc_levels lv;
    cc_find_levels(p, n, &lv);
    assert_int_equal(lv.count, 2);
    assert_true(lv.level[1].capacity == L2);
    assert_true(lv.level[1].half_miss > L2 && lv.level[1].half_miss < 1.1 * L2);
}

/* Misses rising from none at 704 KiB to all at 1304 KiB: 32% at 896 KiB,
 * 53% at 1 MiB. */
static double late_crossing_ns(double f)
{
    if (f <= L1)
        return L1_NS;
    double miss = fmin(fmax((f - 704.0 * 1024) / (600.0 * 1024), 0), 1);
    return L2_NS + miss * (MEM_NS - L2_NS);
}

/* Half the loads miss just before 1 MiB: the capacity is the footprint
 * nearest that crossing, not the last one below it. */
static void test_the_capacity_is_the_footprint_nearest_the_half_miss_crossing(void **state)
{
    (void)state;
    cc_boundary b = level_of(late_crossing_ns, 0.005, 7, 2, 1);
    assert_true(b.onset == 640.0 * 1024);
    assert_true(b.half_miss > 0.95 * L2 && b.half_miss < L2);
    assert_true(b.capacity == L2);
}

/* A private level's sharp step whose first point beyond it still hits in
 * part (60% of the way to the next level): the crossing lies nearer that
 * point, but the level holds what it served whole. */
static double partly_missing_ns(double f)
{
    if (f <= L1)
        return L1_NS;
    if (f <= 1.25 * L1)
        return L1_NS + 0.6 * (L2_NS - L1_NS);
    return model_ns(f);
}

static void test_a_sharp_step_is_read_where_the_level_is_still_whole(void **state)
{
    (void)state;
    cc_boundary b = level_of(partly_missing_ns, 0.002, 8, 2, 0);
    assert_true(b.onset == L1);
    assert_true(b.half_miss > 1.1 * L1);
    assert_true(b.capacity == L1);
}

/* A level that climbs 10% a step from 384 KiB (each step under CC_RISE)
 * serves whole only the footprints still at its latency. */
static double climbing_ns(double f)
{
    if (f <= L1)
        return L1_NS;
    if (f <= 384.0 * 1024)
        return L2_NS;
    if (f <= 896.0 * 1024)
        return L2_NS * pow(1.1, round(log2(f / (384.0 * 1024)) * 4));
    return MEM_NS;
}

static void test_a_climbing_level_is_whole_only_where_it_is_flat(void **state)
{
    (void)state;
    cc_boundary b = level_of(climbing_ns, 0.002, 9, 2, 1);
    assert_true(b.onset == 448.0 * 1024);
    assert_true(b.capacity == 896.0 * 1024);
}

/* A transition that pauses on three points twice as slow as the level
 * before (+4% then +13%, as a KVM guest's L2 showed), still the transition;
 * and a step of a quarter in memory's latency (the TLB's reach), no level
 * of its own. */
static double paused_transition_ns(double f)
{
    static const double kib[] = {640, 768, 896, 1024, 1280, 1536, 1792, 2048};
    static const double ns[] = {6.0, 8.0, 8.3, 9.4, 11.5, 14.0, 16.5, 19.0};
    if (f <= L1)
        return L1_NS;
    if (f <= 512.0 * 1024)
        return L2_NS;
    for (size_t i = 0; i < sizeof kib / sizeof kib[0]; ++i)
        if (f <= kib[i] * 1024)
            return ns[i];
    if (f <= 8.0 * 1024 * 1024)
        return 20.0;
    return f <= 16.0 * 1024 * 1024 ? MEM_NS : 1.25 * MEM_NS;
}

static void test_a_climbing_pause_and_a_step_in_memory_are_no_levels(void **state)
{
    (void)state;
    cc_point p[128];
    cc_levels lv = expect_levels(paused_transition_ns, p, 0.002, 10, 3);
    assert_true(fabs(lv.level[2].ns - 20) < 0.5);
    assert_true(lv.has_memory);
    assert_true(p[lv.memory_first].x == 10.0 * 1024 * 1024);
    assert_true(lv.memory_ns > MEM_NS);
}

/* A flat sweep (everything fits) has no level: detection says undetermined. */
static void test_flat_sweep_has_no_level(void **state)
{
    (void)state;
    cc_point p[40];
    uint64_t seed = 3;
    for (int i = 0; i < 40; ++i)
        p[i] = (cc_point){1024.0 * (i + 1), noisy(L1_NS, 0.02, &seed), true};
    cc_levels lv;
    cc_find_levels(p, 40, &lv);
    assert_int_equal(lv.count, 0);
    assert_false(lv.has_memory);
}

/* Noise of 20% buries the L2 step's confidence, not the L1's (3x jump). */
static void test_noise_lowers_confidence(void **state)
{
    (void)state;
    cc_point p[128];
    cc_levels quiet;
    levels_of(model_ns, p, 0.0, 4, &quiet);
    assert_int_equal(quiet.level[0].conf, CC_CONF_HIGH);
    assert_int_equal(cc_confidence_of(0.5, 0.01), CC_CONF_HIGH);
    assert_int_equal(cc_confidence_of(0.5, 0.1), CC_CONF_MEDIUM);
    assert_int_equal(cc_confidence_of(0.2, 0.1), CC_CONF_LOW);
}

/* Pairs at offset d: the second load hits while d < 64. */
static void test_line_from_pairs(void **state)
{
    (void)state;
    cc_point p[7];
    uint64_t seed = 5;
    for (int i = 0; i < 7; ++i) {
        double d = 8 << i;
        p[i] = (cc_point){d, noisy(d < 64 ? (L1_NS + L2_NS) / 2 : L2_NS, 0.03, &seed), true};
    }
    cc_step s;
    cc_fill_unit(p, 7, &s);
    assert_true(s.found);
    assert_true(s.x == 64);
    assert_true(s.rise > 0.3);
    /* A neighbour slowing the first offsets does not move the step. */
    p[0].ns *= 1.3;
    p[1].ns *= 1.25;
    cc_fill_unit(p, 7, &s);
    assert_true(s.found && s.x == 64);
    /* No step at all: every offset hits (a level of 512-B lines). */
    for (int i = 0; i < 7; ++i)
        p[i].ns = L1_NS;
    cc_find_step(p, 7, L1_NS * 1.2, &s);
    assert_false(s.found);
}

/* The grid: per power-of-two stride, the boundary of an 8-way L1 of 64
 * sets of 64 B: at the capacity up to the way size (4 KiB), growing with
 * the stride beyond. */
/* Offsets 8 B doubling to 512 B, with these ns per load. */
static void pair_points(cc_point *p, const double *ns)
{
    for (int i = 0; i < 7; ++i)
        p[i] = (cc_point){8 << i, ns[i], true};
}

/* The pairs of a first level step by most of what a second load's miss
 * adds; a last level's, measured on a KVM guest's L3 over DRAM, by a DRAM
 * row's few ns out of the 67 a miss would add, noise putting the step at
 * 256 B: not its fill. */
static void test_a_small_pair_step_is_not_the_fill(void **state)
{
    (void)state;
    cc_point p[7];
    cc_step s;
    pair_points(p, (const double[]){3.41, 3.41, 3.41, 4.45, 4.46, 4.49, 4.87});
    cc_fill_unit(p, 7, &s);
    assert_true(s.found && s.x == 64);
    assert_true(cc_fill_step_plausible(p, 7, &s, 1.355, 4.08));
    /* Unknown next level: nothing to judge against. */
    assert_true(cc_fill_step_plausible(p, 7, &s, 1.355, NAN));
    pair_points(p, (const double[]){79.5, 81.0, 78.6, 86.1, 83.9, 87.3, 147.6});
    cc_fill_unit(p, 7, &s);
    assert_true(s.found && s.x == 256);
    assert_false(cc_fill_step_plausible(p, 7, &s, 13.9, 147.5));
    /* The same step against a next level 20 ns away is a fill. */
    assert_true(cc_fill_step_plausible(p, 7, &s, 13.9, 33.9));
    /* The guest's L2 (4.08 ns, L3 14.7): its second lines cost what an L2
     * hit costs over an L1 hit, (4.08 - 1.355) / 2 a load, not a miss's
     * 5.3: prefetched with the first, so the step is L1's line. */
    pair_points(p, (const double[]){10.19, 10.05, 10.09, 11.32, 11.63, 11.81, 17.34});
    cc_fill_unit(p, 7, &s);
    assert_true(s.found && s.x == 64);
    assert_false(cc_fill_step_plausible(p, 7, &s, 4.08, 14.67));
}

static void test_way_size_from_the_grid(void **state)
{
    (void)state;
    double strides[11], bound[11];
    for (int i = 0; i < 11; ++i) {
        strides[i] = 8 << i;
        bound[i] = strides[i] <= 4096 ? L1 : 8 * strides[i];
    }
    assert_true(cc_grid_way_size(strides, bound, 11) == 4096);
    /* A boundary that never moves (the grid too short) tells nothing. */
    for (int i = 0; i < 11; ++i)
        bound[i] = L1;
    assert_true(cc_grid_way_size(strides, bound, 11) == 0);
    bound[0] = 0;
    assert_true(cc_grid_way_size(strides, bound, 11) == 0);
}

/* The odd-stride chase at 3 units: 64-B lines filled whole fit three times
 * the capacity; 128-B lines of 64-B sectors one and a half; 256-B lines
 * only the capacity, which bounds the line from below. */
static void odd_points(cc_point *p, double fits, uint64_t seed)
{
    const double q[] = {1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4};
    for (int i = 0; i < 9; ++i)
        p[i] = (cc_point){L1 * q[i], noisy(L1 * q[i] <= fits * L1 ? L1_NS : 2.5, 0.01, &seed), true};
}

static void test_tag_line_from_the_odd_stride(void **state)
{
    (void)state;
    cc_point p[9];
    cc_tag_line t;
    double thr = cc_between(L1_NS, L2_NS);
    odd_points(p, 3, 9);
    cc_tag_line_of(p, 9, L1, thr, 64, 3, &t);
    assert_true(t.found && !t.at_least && t.line == 64);
    odd_points(p, 1.5, 10);
    cc_tag_line_of(p, 9, L1, thr, 64, 3, &t);
    assert_true(t.found && !t.at_least && t.line == 128);
    odd_points(p, 1, 11);
    cc_tag_line_of(p, 9, L1, thr, 64, 3, &t);
    assert_true(t.found && t.at_least && t.line == 256);
    /* One point slowed by a neighbour does not cut the boundary short. */
    odd_points(p, 3, 13);
    p[2].ns *= 2;
    cc_tag_line_of(p, 9, L1, thr, 64, 3, &t);
    assert_true(t.found && !t.at_least && t.line == 64);
    /* Already missing at the capacity: nothing to tell. */
    odd_points(p, 0.5, 12);
    cc_tag_line_of(p, 9, L1, thr, 64, 3, &t);
    assert_false(t.found);
}

/* N addresses in one set of an 8-way LRU level: hits up to 8, all misses
 * from 9; replacement LRU-like. A random-replacement level misses only
 * part of the time at 9. */
static void conflict_points(cc_point *p, int n, double at_nine, uint64_t seed)
{
    for (int i = 0; i < n; ++i) {
        int a = i + 1;
        double ns = a <= 8 ? L1_NS : a == 9 ? at_nine : L2_NS;
        p[i] = (cc_point){a, noisy(ns, 0.01, &seed), true};
    }
}

static void test_ways_and_lru(void **state)
{
    (void)state;
    cc_point p[24];
    conflict_points(p, 24, L2_NS, 6);
    cc_step w;
    cc_find_step(p, 24, cc_between(L1_NS, L2_NS), &w);
    assert_true(w.found);
    assert_true(w.x - 1 == 8);
    cc_replacement r;
    cc_find_replacement(p, 24, &w, &r);
    assert_true(r.found);
    assert_true(r.miss_share >= CC_LRU_SHARE);
    /* Half the loads at ways + 1 hit: the jump is still at 9 (above the
     * threshold), the share says not LRU. */
    conflict_points(p, 24, 0.5 * L1_NS + 0.5 * L2_NS + 0.3, 7);
    cc_find_step(p, 24, cc_between(L1_NS, L2_NS), &w);
    assert_true(w.found && w.x == 9);
    cc_find_replacement(p, 24, &w, &r);
    assert_true(r.found);
    assert_true(r.miss_share < CC_LRU_SHARE && r.miss_share > 0.3);
    /* ways + 1 slower than the misses beyond it: all of its loads miss,
     * not 207% of them; the measured share is kept to say so. */
    conflict_points(p, 24, 2.07 * L2_NS - 1.07 * L1_NS, 7);
    cc_find_step(p, 24, cc_between(L1_NS, L2_NS), &w);
    cc_find_replacement(p, 24, &w, &r);
    assert_true(r.found);
    assert_true(r.miss_share == 1.0 && r.measured_share > 1.5);
}

/* 4 KiB pages under a physically indexed level: the addresses spread over
 * sets, no jump within the addresses swept: undetermined. */
static void test_ways_without_huge_pages_are_undetermined(void **state)
{
    (void)state;
    cc_point p[24];
    uint64_t seed = 8;
    for (int i = 0; i < 24; ++i)
        p[i] = (cc_point){i + 1, noisy(i < 8 ? L1_NS : L2_NS, 0.01, &seed), true};
    cc_step w;
    /* the L2 test's threshold lies between L2 and memory: never crossed */
    cc_find_step(p, 24, cc_between(L2_NS, MEM_NS), &w);
    assert_false(w.found);
    cc_replacement r;
    cc_find_replacement(p, 24, &w, &r);
    assert_false(r.found);
}

static void test_write_verdicts(void **state)
{
    (void)state;
    cc_verdict_alloc a;
    cc_write_allocate(1.3, 1.4, 100, 0.02, &a);
    assert_true(a.known && a.allocate);
    cc_write_allocate(1.3, 98, 100, 0.02, &a);
    assert_true(a.known && !a.allocate);
    cc_write_allocate(1.3, 50, 100, 0.02, &a); /* halfway: neither */
    assert_false(a.known);
    cc_write_allocate(1.3, 1.3, 1.31, 0.5, &a); /* no gap to tell by */
    assert_false(a.known);
    /* A load pass below the one-load overhead is a hit that costs nothing
     * measurable, not a reason to give up: from 0 the stores decide. */
    cc_write_allocate(-0.2, 0.3, 40, 0.02, &a);
    assert_true(a.known && a.allocate && a.load_at_zero);
    assert_true(a.share > 0.007 && a.share < 0.008); /* 0.3 / 40 */
    cc_write_allocate(-0.2, 39, 40, 0.02, &a);
    assert_true(a.known && !a.allocate && a.load_at_zero);
    cc_write_allocate(-0.2, 5, -0.1, 0.02, &a); /* nothing to measure against */
    assert_false(a.known);
    cc_verdict_back b;
    cc_write_back(1.0, 3.0, 0.02, &b);
    assert_true(b.known && b.write_back);
    /* As fast beyond the level as within: write-through, or prefetched
     * write-back; no verdict. */
    cc_write_back(1.0, 1.05, 0.02, &b);
    assert_false(b.known);
    cc_write_back(1.0, 1.2, 0.02, &b);
    assert_false(b.known);
}

/* A shared level found at a quarter of its nominal size is said to be what
 * this process has of it, with the CPUs the system lists; within a step,
 * above the nominal, or on a level listed for one CPU, nothing is said. */
static void test_a_shared_level_found_smaller_is_what_this_process_has(void **state)
{
    (void)state;
    double swept[17];
    for (size_t i = 0; i < 17; ++i)
        swept[i] = (double)(UINT64_C(1024) << i); /* 1 KiB .. 64 MiB */
    char note[240] = "";
    double share = cc_share_available(swept, 17, 8 << 20, 32 << 20, "0-1", note, sizeof note);
    assert_float_equal(share, 0.25, 1e-12);
    assert_non_null(strstr(note, "8388608 B of the nominal 33554432 B (25%) is what this process has"));
    assert_non_null(strstr(note, "the system lists CPUs 0-1"));
    share = cc_share_available(swept, 17, 8 << 20, 32 << 20, "", note, sizeof note);
    assert_float_equal(share, 0.25, 1e-12);
    assert_non_null(strstr(note, "no list of the CPUs sharing it"));
    assert_true(isnan(cc_share_available(swept, 17, 16 << 20, 32 << 20, "0-1", note, sizeof note)));
    assert_true(isnan(cc_share_available(swept, 17, 64 << 20, 32 << 20, "0-1", note, sizeof note)));
    assert_true(isnan(cc_share_available(swept, 17, 256 << 10, 1 << 20, "0", note, sizeof note)));
    assert_true(isnan(cc_share_available(swept, 17, 256 << 10, 1 << 20, "0,2", note, sizeof note)) == false);
}

TEST_MAIN(NULL, NULL, test_levels_of_a_known_hierarchy, test_a_shared_level_reads_where_half_the_loads_miss,
          test_a_spike_is_no_level, test_a_disturbed_transition_point_does_not_end_the_level_early,
          test_the_capacity_is_the_footprint_nearest_the_half_miss_crossing,
          test_a_sharp_step_is_read_where_the_level_is_still_whole,
          test_a_climbing_level_is_whole_only_where_it_is_flat,
          test_a_climbing_pause_and_a_step_in_memory_are_no_levels, test_a_pause_is_no_level,
          test_flat_sweep_has_no_level, test_noise_lowers_confidence, test_line_from_pairs,
          test_a_small_pair_step_is_not_the_fill, test_way_size_from_the_grid, test_tag_line_from_the_odd_stride,
          test_ways_and_lru, test_ways_without_huge_pages_are_undetermined, test_write_verdicts,
          test_a_shared_level_found_smaller_is_what_this_process_has)
