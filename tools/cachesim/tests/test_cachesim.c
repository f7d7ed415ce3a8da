/* The cache model against traces whose counts are worked out by hand in
 * the comments: each replacement policy, both write policies, conflict
 * against capacity, Crawford's Fermi L1, sectors, two levels, the warp
 * scheduler and coalescing, and the trace reader's refusals. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cachesim/geometry.h"
#include "cachesim/replacement.h"
#include "cachesim/report.h"
#include "cachesim/prefetch.h"
#include "cachesim/reuse.h"
#include "cachesim/simulate.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <string.h>

static cs_cache_geometry level(unsigned size_kb, unsigned line_bytes, unsigned ways, cs_replacement_policy policy,
                            cs_write_policy write)
{
    return (cs_cache_geometry){size_kb, line_bytes, ways, line_bytes, policy, write};
}

static cs_sim_options one_level(cs_cache_geometry g)
{
    return (cs_sim_options){.levels = {g}, .level_count = 1, .seed = 1, .warp_size = 1};
}

static void read_text(const char *text, cs_trace *t)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    char err[256] = "";
    *t = (cs_trace){0};
    if (cs_trace_read(in, "test.trace", t, err, sizeof err) != 0)
        fail_msg("%s", err);
    fclose(in);
}

/* Runs text through o; the caller frees h. */
static void run_text(const char *text, const cs_sim_options *o, cs_hierarchy *h, cs_sim_summary *summary)
{
    cs_trace t;
    read_text(text, &t);
    assert_int_equal(cs_simulate(&t, o, h, summary), 0);
    cs_trace_free(&t);
}

static void expect_stats(const cs_cache_stats *got, cs_cache_stats want)
{
    static const char *const names[] = {"reads",    "read misses", "writes",   "write misses", "write-backs",
                                        "cold",     "capacity",    "conflict", "sector misses"};
    const uint64_t *g = &got->reads, *w = &want.reads;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (g[i] != w[i])
            fail_msg("%s: %llu, want %llu", names[i], (unsigned long long)g[i], (unsigned long long)w[i]);
}

/* The statistics of L1 after text under o. */
static cs_cache_stats l1_under(const char *text, const cs_sim_options *o)
{
    cs_hierarchy h;
    cs_sim_summary summary;
    run_text(text, o, &h, &summary);
    cs_cache_stats s = *cs_cache_statistics(h.level[0]);
    cs_hierarchy_free(&h);
    return s;
}

/* The statistics of L1 after text, with one level g. */
static cs_cache_stats l1_after(const char *text, cs_cache_geometry g, uint64_t seed)
{
    cs_sim_options o = one_level(g);
    o.seed = seed;
    return l1_under(text, &o);
}

/* One set of two 512 B ways (1 KB), lines A = 0, B = 512, C = 1024, all
 * reads: A A A B C B A C. The reuse distance counts the distinct other
 * lines since a line's previous touch; with 2 lines in the cache, 2 or more
 * is a capacity miss, less a conflict miss (here: a miss the policy caused
 * that a fully associative LRU cache would not have had). */
static const char policy_trace[] = "0 R\n0 R\n0 R\n512 R\n1024 R\n512 R\n0 R\n1024 R\n";

/* LRU: A miss (cold), hit, hit; B miss (cold); C miss (cold) evicts A, the
 * least recent; B hit; A miss, distance 2 (B, C): capacity, evicts C (B was
 * used later); C miss, distance 2 (B, A): capacity. 5 misses: 3 cold, 2 capacity. */
static void test_lru(void **state)
{
    (void)state;
    cs_cache_stats s = l1_after(policy_trace, level(1, 512, 2, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    expect_stats(&s, (cs_cache_stats){.reads = 8, .read_misses = 5, .cold = 3, .capacity = 2});
}

/* MFU: A filled then hit twice (3 uses); B (1 use); C evicts A, the most
 * used; B hit (2 uses); A miss (capacity, distance 2) evicts B, now the most
 * used of B (2) and C (1); C hit. 4 misses: 3 cold, 1 capacity. */
static void test_mfu(void **state)
{
    (void)state;
    cs_cache_stats s = l1_after(policy_trace, level(1, 512, 2, CS_POLICY_MFU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    expect_stats(&s, (cs_cache_stats){.reads = 8, .read_misses = 4, .cold = 3, .capacity = 1});
}

/* LFU: A (3 uses) stays; C evicts B (1 use); B miss, distance 1 (C): a
 * conflict, evicts C (1 use against A's 3); A hit (4 uses); C miss, distance 2
 * (B, A): capacity, evicts B. 5 misses: 3 cold, 1 conflict, 1 capacity. */
static void test_lfu(void **state)
{
    (void)state;
    cs_cache_stats s = l1_after(policy_trace, level(1, 512, 2, CS_POLICY_LFU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    expect_stats(&s, (cs_cache_stats){.reads = 8, .read_misses = 5, .cold = 3, .conflict = 1, .capacity = 1});
}

/* A tie in use counts goes to the least recently used: A and B, one use
 * each, B touched last; C evicts A under both MFU and LFU, so B then hits. */
static void test_ties_go_to_the_least_recent(void **state)
{
    (void)state;
    static const char tie[] = "0 R\n512 R\n1024 R\n512 R\n";
    cs_cache_stats want = {.reads = 4, .read_misses = 3, .cold = 3};
    cs_cache_stats mfu = l1_after(tie, level(1, 512, 2, CS_POLICY_MFU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    cs_cache_stats lfu = l1_after(tie, level(1, 512, 2, CS_POLICY_LFU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    expect_stats(&mfu, want);
    expect_stats(&lfu, want);
}

/* xorshift64 (13, 7, 17) from state 3: 3246809283, 3458978961873255618,
 * 12475830192055012923, 10373433882910765159 (odd, even, odd, odd: ways
 * 1, 0, 1, 1 of 2). Rand with seed 3: A in way 0, B in way 1; C evicts way 1
 * (B); B miss, distance 1: conflict, evicts way 0 (A); A miss, distance 2:
 * capacity, evicts way 1 (C); C miss, distance 2: capacity, evicts way 1 (A).
 * 6 misses: 3 cold, 1 conflict, 2 capacity. */
static void test_random_is_reproducible_from_its_seed(void **state)
{
    (void)state;
    uint64_t rng = 3;
    assert_true(cs_xorshift64_next(&rng) == UINT64_C(3246809283));
    assert_true(cs_xorshift64_next(&rng) == UINT64_C(3458978961873255618));
    cs_cache_stats s = l1_after(policy_trace, level(1, 512, 2, CS_POLICY_RANDOM, CS_WRITE_THROUGH_NO_ALLOCATE), 3);
    expect_stats(&s, (cs_cache_stats){.reads = 8, .read_misses = 6, .cold = 3, .conflict = 1, .capacity = 2});
    cs_cache_stats again = l1_after(policy_trace, level(1, 512, 2, CS_POLICY_RANDOM, CS_WRITE_THROUGH_NO_ALLOCATE), 3);
    expect_stats(&again, s);
}

/* One set of two 512 B ways; A = 0, B = 512, C = 1024:
 * R A, W A, W B, R B, R C, R A. */
static const char write_trace[] = "0 R\n0 W\n512 W\n512 R\n1024 R\n0 R\n";

/* WTNA: R A miss (cold), filled; W A hit, written through; W B miss
 * (cold), not filled; R B miss, distance 0 (nothing since the write): a
 * conflict, for the stream touched B but the cache never took it; filled;
 * R C miss (cold), evicts A; R A miss, distance 2 (B, C): capacity. No line
 * is ever dirty: no write-backs. */
static void test_write_through_no_allocate(void **state)
{
    (void)state;
    cs_cache_stats s = l1_after(write_trace, level(1, 512, 2, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    expect_stats(&s, (cs_cache_stats){.reads = 4, .read_misses = 4, .writes = 2, .write_misses = 1, .cold = 3,
                                   .conflict = 1, .capacity = 1});
}

/* WBWA: R A miss (cold); W A hit, A dirty; W B miss (cold), filled dirty;
 * R B hit; R C miss (cold) evicts A (least recent), dirty: write-back 1;
 * R A miss, distance 2: capacity, evicts dirty B: write-back 2. */
static void test_write_back_allocate(void **state)
{
    (void)state;
    cs_cache_stats s = l1_after(write_trace, level(1, 512, 2, CS_POLICY_LRU, CS_WRITE_BACK_ALLOCATE), 1);
    expect_stats(&s, (cs_cache_stats){.reads = 4, .read_misses = 3, .writes = 2, .write_misses = 1, .write_backs = 2,
                                   .cold = 3, .capacity = 1});
}

/* 1 KB, 256 B lines, 2 ways: 4 lines in 2 sets; line n = address / 256
 * goes to set n mod 2.
 *   t1 0    L0 set 0  cold                    set 0: L0
 *   t2 512  L2 set 0  cold                    set 0: L0 L2
 *   t3 1024 L4 set 0  cold, evicts L0         set 0: L4 L2
 *   t4 0    L0 set 0  miss; since t1 only L2 and L4 were touched: distance
 *                     2 < 4 lines, so a fully associative cache would still
 *                     hold L0; only the set mapping lost it: CONFLICT;
 *                     evicts L2                set 0: L4 L0
 *   t5 256  L1 set 1  cold;  t6 768 L3 set 1 cold;  t7 1280 L5 set 1 cold,
 *                     evicts L1
 *   t8 2048 L8 set 0  cold, evicts L4          set 0: L8 L0
 *   t9 1024 L4 set 0  miss; since t3: L0 L1 L3 L5 L8, distance 5 >= 4
 *                     lines: no cache of this size would have kept it:
 *                     CAPACITY.
 * 9 misses: 7 cold, 1 conflict, 1 capacity. */
static void test_conflict_against_capacity(void **state)
{
    (void)state;
    static const char text[] = "0 R\n512 R\n1024 R\n0 R\n256 R\n768 R\n1280 R\n2048 R\n1024 R\n";
    cs_cache_stats s = l1_after(text, level(1, 256, 2, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE), 1);
    expect_stats(&s, (cs_cache_stats){.reads = 9, .read_misses = 9, .cold = 7, .conflict = 1, .capacity = 1});
}

/* Crawford's Fermi L1: 16 KB, 128 B lines, 4-way, LRU, WTNA: 128 lines,
 * 32 sets; line n = address / 128 goes to set n mod 32, so addresses
 * 4096 B apart share a set.
 *   t1  R 0x0     L0   set 0 cold            t2 R 0x4, t3 R 0x7c: hits (same line)
 *   t4  R 0x80    L1   set 1 cold
 *   t5..t7 R 0x1000 0x2000 0x3000: L32 L64 L96, set 0, cold (set 0 full)
 *   t8  R 0x4000  L128 set 0 cold, evicts L0 (last used t3)
 *   t9  R 0x10    L0   miss, distance 5 (L1 L32 L64 L96 L128) < 128: conflict;
 *                      evicts L32
 *   t10 W 0x84    L1   write hit, written through
 *   t11 W 0x5000  L160 write miss, cold, not allocated (write-through, no allocate)
 *   t12 R 0x5000  L160 read miss, distance 0: conflict; evicts L64
 *   t13 R 0x3004  L96  hit
 * Reads 11, read misses 8; writes 2, write misses 1; no write-backs;
 * cold 7 (L0 L1 L32 L64 L96 L128 L160), conflict 2, capacity 0; hit rate 4/13. */
static const char fermi_trace[] = "# Crawford's L1, worked by hand\n"
                                  "0x0 R\n0x4 R\n0x7c R\n0x80 R\n0x1000 R\n0x2000 R\n0x3000 R\n0x4000 R\n"
                                  "0x10 R\n0x84 W\n0x5000 W\n0x5000 R\n0x3004 R\n";

static void test_crawford_fermi_l1(void **state)
{
    (void)state;
    cs_cache_geometry g = level(16, 128, 4, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE);
    assert_int_equal(cs_geometry_sets(&g), 32);
    cs_cache_stats s = l1_after(fermi_trace, g, 1);
    expect_stats(&s, (cs_cache_stats){.reads = 11, .read_misses = 8, .writes = 2, .write_misses = 1, .cold = 7,
                                   .conflict = 2});
    assert_float_equal(cs_report_hit_rate(&s), 4.0 / 13.0, 1e-12);
}

/* 1 KB, 128 B lines of four 32 B sectors, 2-way: R 0x0 misses the line
 * (cold) and fetches sector 0; R 0x10 hits it; R 0x20 and R 0x60 find the
 * line without their sectors: sector misses; R 0x24 hits. */
static void test_sectors(void **state)
{
    (void)state;
    cs_cache_geometry g = level(1, 128, 2, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE);
    g.sector_bytes = 32;
    cs_cache_stats s = l1_after("0x0 R\n0x10 R\n0x20 R\n0x60 R\n0x24 R\n", g, 1);
    expect_stats(&s, (cs_cache_stats){.reads = 5, .read_misses = 3, .cold = 1, .sector_misses = 2});
}

/* The WBWA trace above into an L2 of 4 KB, 512 B lines, 4 ways (2 sets),
 * LRU, WBWA. What L1 sends: R A fills A (R 0); W B fills B (R 512); R C
 * writes back A (W 0) and fills C (R 1024); R A writes back B (W 512) and
 * fills A (R 0). At L2: R 0 cold, R 512 cold, W 0 hit, R 1024 cold,
 * W 512 hit, R 0 hit. */
static void test_two_levels(void **state)
{
    (void)state;
    cs_sim_options o = one_level(level(1, 512, 2, CS_POLICY_LRU, CS_WRITE_BACK_ALLOCATE));
    o.levels[1] = level(4, 512, 4, CS_POLICY_LRU, CS_WRITE_BACK_ALLOCATE);
    o.level_count = 2;
    cs_hierarchy h;
    cs_sim_summary summary;
    run_text(write_trace, &o, &h, &summary);
    assert_int_equal(h.count, 2);
    expect_stats(cs_cache_statistics(h.level[1]), (cs_cache_stats){.reads = 4, .read_misses = 3, .writes = 2, .cold = 3});
    cs_hierarchy_free(&h);
}

/* Four work-items (WARP field 0..3) of work-group 0, instruction 7 in a
 * loop of two iterations, dumped one work-item after the other; with warp
 * size 2, items 0 and 1 form warp 0, items 2 and 3 warp 1. Iteration 1
 * reads 1 KB above iteration 0. */
static const char warp_trace[] = "0x000 R 0 0 7\n0x400 R 0 0 7\n"
                                 "0x004 R 0 1 7\n0x404 R 0 1 7\n"
                                 "0x080 R 0 2 7\n0x480 R 0 2 7\n"
                                 "0x084 R 0 3 7\n0x484 R 0 3 7\n";

/* Warp order: round 0 issues warp 0's (instruction 7, iteration 0) = trace
 * lines 1 and 3, then warp 1's = lines 5 and 7; round 1 the iteration-1
 * instructions, lines 2 4 6 8. */
static void test_warp_order(void **state)
{
    (void)state;
    cs_trace t;
    read_text(warp_trace, &t);
    cs_schedule s;
    assert_int_equal(cs_schedule_build(&t, CS_SCHEDULE_WARP, 2, &s), 0);
    static const size_t want[] = {0, 2, 4, 6, 1, 3, 5, 7};
    for (size_t k = 0; k < 8; ++k)
        assert_int_equal(s.order[k], want[k]);
    /* Each warp instruction is named by its first access in the trace. */
    static const uint64_t instruction[] = {0, 0, 4, 4, 1, 1, 5, 5};
    for (size_t k = 0; k < 8; ++k)
        assert_int_equal(s.instruction[k], instruction[k]);
    cs_schedule_free(&s);
    cs_trace_free(&t);
}

/* A direct-mapped 1 KB cache of 128 B lines: 0x000 and 0x400 share set 0,
 * 0x080 and 0x480 set 1.
 * Trace order: every access evicts the line the next one needs (0x000,
 * 0x400, 0x004, 0x404...): 8 misses, 4 cold and 4 conflict (distance 1).
 * Warp order: 0x000 0x004 0x080 0x084 0x400 0x404 0x480 0x484: 4 cold
 * misses, 4 hits. Coalesced in warp order: each warp instruction's two
 * accesses share a line and count once: 4 reads, 4 misses. In trace order
 * an instruction's accesses are not back to back: nothing coalesces. */
static void test_warp_schedule_and_coalescing(void **state)
{
    (void)state;
    cs_sim_options o = one_level(level(1, 128, 1, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE));
    o.warp_size = 2;
    struct {
        cs_schedule_kind kind;
        bool coalesce;
        size_t coalesced;
        cs_cache_stats want;
    } cases[] = {
        {CS_SCHEDULE_TRACE, false, 0, {.reads = 8, .read_misses = 8, .cold = 4, .conflict = 4}},
        {CS_SCHEDULE_WARP, false, 0, {.reads = 8, .read_misses = 4, .cold = 4}},
        {CS_SCHEDULE_WARP, true, 4, {.reads = 4, .read_misses = 4, .cold = 4}},
        {CS_SCHEDULE_TRACE, true, 0, {.reads = 8, .read_misses = 8, .cold = 4, .conflict = 4}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        o.schedule = cases[i].kind;
        o.coalesce = cases[i].coalesce;
        cs_hierarchy h;
        cs_sim_summary summary;
        run_text(warp_trace, &o, &h, &summary);
        assert_int_equal(summary.coalesced, cases[i].coalesced);
        expect_stats(cs_cache_statistics(h.level[0]), cases[i].want);
        cs_hierarchy_free(&h);
    }
}

/* Every malformed line is refused with the trace's name and the line. */
typedef struct {
    const char *text;  /* the trace */
    const char *error; /* how its refusal begins */
} trace_refusal;

static void test_malformed_traces(void **state)
{
    (void)state;
    static const trace_refusal cases[] = {
        {"0x0 R\nzz R\n", "t.trace:2: address 'zz'"},
        {"0x0 X\n", "t.trace:1: access kind 'X' is neither R nor W"},
        {"# header\n\n0x0 R 1 2\n", "t.trace:3: 4 fields"},
        {"0x0 R extra\n", "t.trace:1: 3 fields"},
        {"0x10000000000000000 R\n", "t.trace:1: address '0x10000000000000000'"},
        {"18446744073709551616 R\n", "t.trace:1: address"},
        {"-5 R\n", "t.trace:1: address '-5'"},
        {"12abc R\n", "t.trace:1: address '12abc'"},
        {"0x R\n", "t.trace:1: address '0x'"},
        {"0x0 R 0 -1 3\n", "t.trace:1: warp '-1'"},
        {"0x0 R 0 1 0x3\n", "t.trace:1: instruction '0x3'"},
        {"0x0 R x 1 3\n", "t.trace:1: work-group 'x'"},
        {"0x0 R 0 0 0 0\n", "t.trace:1: more than 5 fields"},
        {"0x0 R\n0x4 R 0 0 1\n", "t.trace:2: 5 fields, but the first access has 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        FILE *in = fmemopen((void *)cases[i].text, strlen(cases[i].text), "r");
        cs_trace t = {0};
        char err[256] = "";
        int status = cs_trace_read(in, "t.trace", &t, err, sizeof err);
        fclose(in);
        cs_trace_free(&t);
        if (status != -1 || strncmp(err, cases[i].error, strlen(cases[i].error)) != 0)
            fail_msg("'%s': status %d, error '%s' (want '%s...')", cases[i].text, status, err, cases[i].error);
    }
}

/* Comments, blank lines, hex and decimal, the largest address. */
static void test_trace_forms(void **state)
{
    (void)state;
    cs_trace t;
    read_text("# c\n\n  0xFFFFFFFFFFFFFFFF W   # end\n4096 R\n", &t);
    assert_int_equal(t.count, 2);
    assert_true(t.items[0].address == UINT64_MAX && t.items[0].write);
    assert_true(t.items[1].address == 4096 && !t.items[1].write);
    cs_trace_free(&t);
}

/* The distances agree with a plain LRU stack (the line's depth in it) over
 * 5000 touches of 900 lines, past the first growth of both the time slots
 * and the line table. */
static void test_reuse_distance_matches_a_stack(void **state)
{
    (void)state;
    enum { LINES = 900, TOUCHES = 5000 };
    static uint64_t stack[LINES];
    size_t depth = 0;
    cs_reuse_stack *r = cs_reuse_new();
    assert_non_null(r);
    uint64_t rng = 12345;
    for (int i = 0; i < TOUCHES; ++i) {
        uint64_t line = cs_xorshift64_next(&rng) % LINES * 977; /* spread: collisions in the table */
        size_t at = 0;
        while (at < depth && stack[at] != line)
            ++at;
        uint64_t want = at == depth ? CS_REUSE_FIRST_TOUCH : at;
        if (at == depth)
            ++depth;
        memmove(&stack[1], &stack[0], at * sizeof stack[0]);
        stack[0] = line;
        uint64_t got = cs_reuse_touch(r, line);
        if (got != want)
            fail_msg("touch %d of line %llu: distance %llu, want %llu", i, (unsigned long long)line,
                     (unsigned long long)got, (unsigned long long)want);
    }
    cs_reuse_free(r);
}

/* Each refusal names the value at fault. */
static void test_bad_geometry(void **state)
{
    (void)state;
    static const struct {
        cs_cache_geometry g;
        const char *error;
    } cases[] = {
        {{0, 128, 4, 128, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "cache size 0 KB"},
        {{16, 0, 4, 128, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "line size 0 B"},
        {{16, 96, 4, 96, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "line size 96 B is not a power of two"},
        {{16, 128, 0, 128, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "associativity 0"},
        {{1, 128, 16, 128, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "cache size 1 KB (1024 B) is not a multiple of line x ways (128 B x 16 = 2048 B)"},
        {{48, 128, 4, 128, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "96 sets (48 KB / (128 B x 4 ways)) is not a power of two"},
        {{16, 128, 4, 48, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "sector size 48 B does not divide the line size 128 B"},
        {{16, 128, 4, 1, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE}, "128 sectors of 1 B"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char err[256] = "";
        if (cs_geometry_check(&cases[i].g, err, sizeof err) != -1 || strstr(err, cases[i].error) == NULL)
            fail_msg("case %zu: '%s' (want '%s')", i, err, cases[i].error);
    }
    /* Fermi's 48 KB L1 is 6-way: 64 sets, accepted. */
    cs_cache_geometry fermi48 = level(48, 128, 6, CS_POLICY_LRU, CS_WRITE_THROUGH_NO_ALLOCATE);
    char err[256];
    assert_int_equal(cs_geometry_check(&fermi48, err, sizeof err), 0);
    assert_int_equal(cs_geometry_sets(&fermi48), 64);
}

/* ---- the prefetcher, on traces worked by hand: 64 B lines, a 4 KB
 * cache that holds them all (no victim gets in the way) ---- */

/* Reads of lines 0..7, then of lines 0, 4, 8, ..., 20. */
static const char sequential_trace[] = "0 R\n64 R\n128 R\n192 R\n256 R\n320 R\n384 R\n448 R\n";
static const char stride_trace[] = "0 R\n256 R\n512 R\n768 R\n1024 R\n1280 R\n";

static cs_cache_stats l1_prefetching(const char *text, const char *spec)
{
    cs_sim_options o = one_level(level(4, 64, 4, CS_POLICY_LRU, CS_WRITE_BACK_ALLOCATE));
    char err[256];
    if (cs_prefetch_parse(spec, &o.prefetch, err, sizeof err) != 0)
        fail_msg("%s", err);
    return l1_under(text, &o);
}

/* Each trace worked by hand, the misses and the prefetches used:
 * - next-line on a miss: 0 misses and brings 1, which hits; 2 misses,
 *   brings 3; ...: 4 misses of 8, 4 fetched, all used. Degree 2: 0 brings 1
 *   and 2, 3 brings 4 and 5, 6 brings 7 and 8: misses at 0, 3 and 6, 5 of 6
 *   fetched lines used (8 never is). Off: every line misses. On the stride
 *   trace it brings only lines never read (6, none used).
 * - stride: 0 (nothing seen), 4 (a stride of 4, once), 8 (4 again: brings
 *   12), 12 hits and brings 16, 16 brings 20, 20 hits and brings 24: misses
 *   at 0, 4 and 8, 4 fetched, 3 used. Distance 2: 8 brings 16, 12 misses and
 *   brings 20, 16 brings 24, 20 brings 28: 4 misses, 2 of 4 used. Degree 2:
 *   8 brings 12 and 16, then each brings one more (the other is there):
 *   3 misses, 5 fetched, 3 used. Two reads of
 *   one line move no stride (0 0 4 8 still brings 12); a stride downwards
 *   works as well (20, 16, 12 brings 8, 8 brings 4). */
static void test_prefetchers_on_hand_worked_traces(void **state)
{
    (void)state;
    static const struct {
        const char *trace, *spec;
        uint64_t misses, fetched, used;
    } cases[] = {
        {sequential_trace, "off", 8, 0, 0},
        {sequential_trace, "next-line", 4, 4, 4},
        {sequential_trace, "next-line:2", 3, 6, 5},
        {stride_trace, "next-line", 6, 6, 0},
        {stride_trace, "stride", 3, 4, 3},
        {stride_trace, "stride:1:2", 4, 4, 2},
        {stride_trace, "stride:2", 3, 5, 3},
        {"0 R\n8 R\n256 R\n512 R\n768 R\n", "stride", 3, 2, 1},
        {"1280 R\n1024 R\n768 R\n512 R\n256 R\n", "stride", 3, 3, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        cs_cache_stats st = l1_prefetching(cases[i].trace, cases[i].spec);
        if (st.read_misses != cases[i].misses || st.prefetches != cases[i].fetched || st.prefetch_hits != cases[i].used)
            fail_msg("case %zu (%s): %llu misses, %llu fetched, %llu used; want %llu, %llu, %llu", i, cases[i].spec,
                     (unsigned long long)st.read_misses, (unsigned long long)st.prefetches,
                     (unsigned long long)st.prefetch_hits, (unsigned long long)cases[i].misses,
                     (unsigned long long)cases[i].fetched, (unsigned long long)cases[i].used);
        /* A prefetched line's first demand is a hit: only demand misses are classified. */
        assert_int_equal(st.cold + st.capacity + st.conflict, st.read_misses);
    }
}

static void test_prefetch_specs(void **state)
{
    (void)state;
    cs_prefetch_config c;
    char err[256];
    assert_int_equal(cs_prefetch_parse("stride:4:8", &c, err, sizeof err), 0);
    assert_true(c.kind == CS_PREFETCH_STRIDE && c.degree == 4 && c.distance == 8);
    assert_int_equal(cs_prefetch_parse("next-line", &c, err, sizeof err), 0);
    assert_true(c.kind == CS_PREFETCH_NEXT_LINE && c.degree == 1 && c.distance == 1);
    static const char *const bad[][2] = {
        {"stream", "'stream' is none of off, next-line, stride"},
        {"stride:0", "degree '0' is not a whole number from 1 to 16"},
        {"stride:17", "degree '17'"},
        {"stride:2:", "distance '' is not a whole number"},
        {"stride:2:65", "distance '65'"},
        {"off:2", "off takes no degree or distance"},
        {"next-line:x", "degree 'x'"},
        {"", "'' is none of"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        err[0] = '\0';
        assert_int_equal(cs_prefetch_parse(bad[i][0], &c, err, sizeof err), -1);
        if (strstr(err, bad[i][1]) == NULL)
            fail_msg("'%s': said '%s', want '%s'", bad[i][0], err, bad[i][1]);
    }
}

TEST_MAIN(NULL, NULL, test_lru, test_mfu, test_lfu, test_ties_go_to_the_least_recent,
          test_random_is_reproducible_from_its_seed, test_write_through_no_allocate, test_write_back_allocate,
          test_conflict_against_capacity, test_crawford_fermi_l1, test_sectors, test_two_levels, test_warp_order,
          test_warp_schedule_and_coalescing, test_malformed_traces, test_trace_forms,
          test_reuse_distance_matches_a_stack, test_bad_geometry, test_prefetchers_on_hand_worked_traces,
          test_prefetch_specs)
