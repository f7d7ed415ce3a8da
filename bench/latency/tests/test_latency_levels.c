/* Which footprint stands for each cache level and for main memory, and the
 * host's levels from hwloc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "latency/levels.h"

#include <math.h>
#include <string.h>

#define KiB(x) ((uint64_t)(x) << 10)
#define MiB(x) ((uint64_t)(x) << 20)

/* 4 KiB .. 256 MiB doubling: 17 footprints. */
static size_t doubling(uint64_t *f)
{
    size_t n = 0;
    for (uint64_t v = KiB(4); v <= MiB(256); v *= 2)
        f[n++] = v;
    return n;
}

static void test_level_is_the_largest_footprint_in_half_of_it(void **state)
{
    (void)state;
    uint64_t f[32];
    size_t n = doubling(f);
    assert_int_equal(n, 17);
    /* L1 32 KiB: 16 KiB (index 2). L2 1 MiB above 32 KiB: 512 KiB (index 7).
     * L3 32 MiB above 1 MiB: 16 MiB (index 12). */
    assert_int_equal(lt_level_pick(f, n, KiB(32), 0), 2);
    assert_int_equal(lt_level_pick(f, n, MiB(1), KiB(32)), 7);
    assert_int_equal(lt_level_pick(f, n, MiB(32), MiB(1)), 12);
    /* A level that is not a power of two: 48 KiB L1d holds 24 KiB, so 16 KiB. */
    assert_int_equal(lt_level_pick(f, n, KiB(48), 0), 2);
    /* 1.25 MiB L2 above 48 KiB: half is 640 KiB, so 512 KiB. */
    assert_int_equal(lt_level_pick(f, n, KiB(1280), KiB(48)), 7);
}

static void test_level_without_a_footprint(void **state)
{
    (void)state;
    /* 4 KiB .. 1 MiB in steps of 4: nothing above 1 MiB and within 16 MiB. */
    uint64_t f[] = {KiB(4), KiB(16), KiB(64), KiB(256), MiB(1)};
    assert_int_equal(lt_level_pick(f, 5, MiB(32), MiB(1)), -1);
    /* Nothing at or below half of an 8 KiB level but 4 KiB. */
    assert_int_equal(lt_level_pick(f, 5, KiB(8), 0), 0);
    assert_int_equal(lt_level_pick(f, 5, KiB(7), 0), -1);
    /* Two levels of one size leave nothing between them. */
    assert_int_equal(lt_level_pick(f, 5, MiB(1), MiB(1)), -1);
    assert_int_equal(lt_level_pick(f, 0, MiB(1), 0), -1);
}

static void test_memory_needs_four_times_the_last_level(void **state)
{
    (void)state;
    uint64_t f[32];
    size_t n = doubling(f);
    assert_int_equal(lt_memory_pick(f, n, MiB(32)), 16);  /* 256 MiB = 8x */
    assert_int_equal(lt_memory_pick(f, n, MiB(64)), 16);  /* exactly 4x */
    assert_int_equal(lt_memory_pick(f, n, MiB(65)), -1);  /* just under 4x */
    assert_int_equal(lt_memory_pick(f, n, 0), -1);        /* no cache size: unknown */
    assert_int_equal(lt_memory_pick(f, 0, MiB(1)), -1);
}

/* The host's levels come from hwloc in order, each named by its level. */
static void test_caches_from_the_topology(void **state)
{
    (void)state;
    lt_caches c = {.line_bytes = 99};
    lt_caches_from_topology(NULL, &c); /* no topology: left alone */
    assert_int_equal(c.line_bytes, 99);
    assert_int_equal(c.count, 0);
    cr_topology *t = cr_topo_open();
    if (t == NULL)
        skip();
    lt_caches_from_topology(t, &c);
    for (unsigned i = 0; i < c.count; ++i) {
        unsigned line;
        char name[8];
        uint64_t want = 0;
        /* Level i of the list is the i-th level hwloc has. */
        for (unsigned level = 1, seen = 0; level <= LT_MAX_LEVELS; ++level)
            if (cr_topo_cache_bytes(t, level, &line) && seen++ == i) {
                want = cr_topo_cache_bytes(t, level, &line);
                snprintf(name, sizeof name, "L%u", level);
            }
        assert_int_equal(c.level[i].bytes, want);
        assert_string_equal(c.level[i].name, name);
        assert_non_null(strstr(c.level[i].source, "hwloc"));
        if (i)
            assert_true(c.level[i].bytes >= c.level[i - 1].bytes);
    }
    if (c.count && cr_topo_cache_bytes(t, 1, NULL) && c.line_bytes != 99) {
        unsigned line;
        cr_topo_cache_bytes(t, 1, &line);
        assert_int_equal(c.line_bytes, line);
    }
    assert_int_equal(cr_topo_cache_bytes(t, 0, NULL), 0);
    assert_int_equal(cr_topo_cache_bytes(t, 6, NULL), 0);
    cr_topo_close(t);
}

/* A level within 1.5 x of main memory's latency is memory's: the 16 MiB
 * "L3" of a shared cache read at 146 ns beside memory's 188 ns is; L2's
 * 4 ns is not; without either figure nothing is judged. */
static void test_a_level_as_slow_as_memory_is_memory(void **state)
{
    (void)state;
    assert_true(lt_level_is_memory(146, 188));
    assert_true(lt_level_is_memory(125.4, 188));
    assert_false(lt_level_is_memory(125, 188));
    assert_false(lt_level_is_memory(4, 188));
    assert_false(lt_level_is_memory(146, 0));
    assert_false(lt_level_is_memory(NAN, 188));
}

/* A shared L3 of 32 MiB that serves this process 6 MiB: half of it (16
 * MiB) and 8 MiB read memory's 150-188 ns, 4 MiB the level's 15 ns: the
 * level is read at 4 MiB. Never at or below twice the smaller level (2 MiB
 * over a 1 MiB L2), where the L2 still serves half the walk; a level
 * read where it is whole stays where it was. */
static void test_a_level_is_read_where_it_serves_the_walk_whole(void **state)
{
    (void)state;
    uint64_t f[32];
    size_t n = doubling(f); /* index 9: 2 MiB, 10: 4 MiB, 11: 8 MiB, 12: 16 MiB */
    double ns[32];
    for (size_t i = 0; i < n; ++i)
        ns[i] = f[i] <= MiB(1) ? 4 : f[i] <= MiB(4) ? 15 : f[i] <= MiB(8) ? 150 : 180;
    long pick = lt_level_pick(f, n, MiB(32), MiB(1));
    assert_int_equal(pick, 12);
    assert_int_equal(lt_level_pick_served(f, ns, pick, MiB(1), 32768, 188), 10);
    ns[10] = 170; /* 4 MiB is memory's too: only 2 MiB is left, not above twice the L2 */
    assert_int_equal(lt_level_pick_served(f, ns, pick, MiB(1), 32768, 188), pick);
    ns[12] = 15; /* served whole at 16 MiB */
    assert_int_equal(lt_level_pick_served(f, ns, pick, MiB(1), 32768, 188), pick);
    assert_int_equal(lt_level_pick_served(f, ns, -1, MiB(1), 32768, 188), -1);
    ns[12] = 180;
    assert_int_equal(lt_level_pick_served(f, ns, pick, MiB(1), 32768, NAN), pick); /* no memory latency known */
}

/* A shared L3 of 260 MiB that serves this process some 10 MiB, on a host
 * whose memory latency climbs with the TLB's misses (a 2-core Emerald
 * Rapids VM, ns per load of two runs of its footprint sweep): the memory
 * row, at 4 GiB, reads 382 and 521 ns, so the L3's half-size point (128
 * MiB, 169 and 202 ns) is not within 1.5x of it, yet lies past the L3's
 * step. In the first run the L2 is read before its own step (512 KiB),
 * and the L3's step, from 4 to 8 MiB, comes at twice the L2: no footprint
 * is left that the L3 serves whole. In the second the L2's step is at
 * 1 -> 2 MiB, inside it, so the step from 2 MiB, the L2's size, is the
 * L3's. Either way the L3's point stays, past the level's end, and the row
 * says so. */
static void test_a_level_past_its_step_is_read_before_it(void **state)
{
    (void)state;
    uint64_t f[32];
    size_t n = 21;
    double ns[] = {1.85, 1.71, 1.64, 1.98, 5.43, 6.63, 5.58, 6.28, 29.2, 29.5, 38.4,
                   132, 143, 155, 174, 169, 189, 200, 250, 327, 382};
    for (size_t i = 0; i < n; ++i)
        f[i] = (uint64_t)4096 << i; /* 4 KiB .. 4 GiB */
    const uint64_t l1 = 48 * 1024, l2 = MiB(2);
    long p1 = lt_level_pick(f, n, l1, 0), p2 = lt_level_pick(f, n, l2, l1), p3 = lt_level_pick(f, n, MiB(260), l2);
    assert_int_equal(f[p1], 16384);
    assert_int_equal(lt_level_end(f, ns, p1, 0, 0), -1);
    assert_int_equal(lt_level_pick_served(f, ns, p1, 0, 0, 382), p1);
    assert_int_equal(f[p2], MiB(1));
    assert_int_equal(f[lt_level_end(f, ns, p2, l1, 0)], 512 * 1024);
    assert_int_equal(f[lt_level_pick_served(f, ns, p2, l1, 0, 382)], 512 * 1024);
    assert_int_equal(f[p3], MiB(128));
    assert_false(lt_level_is_memory(ns[p3], 382));
    assert_int_equal(f[lt_level_end(f, ns, p3, l2, l1)], MiB(4));
    assert_true(lt_level_past_end(f, ns, p3, l2, l1));
    assert_int_equal(lt_level_pick_served(f, ns, p3, l2, l1, 382), p3);
    /* With the step one footprint later the L3 is read at 8 MiB. */
    ns[11] = 40;
    assert_int_equal(f[lt_level_pick_served(f, ns, p3, l2, l1, 382)], MiB(8));

    double second[] = {1.64, 1.66, 1.70, 2.21, 5.21, 5.59, 6.62, 6.68, 9.22, 35.3, 118,
                       146, 156, 169, 172, 202, 236, 268, 355, 596, 521};
    assert_int_equal(lt_level_end(f, second, p2, l1, 0), -1); /* the L2's step comes after its point */
    assert_int_equal(lt_level_pick_served(f, second, p2, l1, 0, 521), p2);
    assert_int_equal(f[lt_level_end(f, second, p3, l2, l1)], MiB(2));
    assert_true(lt_level_past_end(f, second, p3, l2, l1));
    assert_int_equal(lt_level_pick_served(f, second, p3, l2, l1, 521), p3);
    /* Without the L2's own step below its size, the step from 2 MiB is the
     * L2's end, and the L3 has none. */
    second[9] = 9.5;
    assert_false(lt_level_past_end(f, second, p3, l2, l1));
}

TEST_MAIN(NULL, NULL, test_a_level_past_its_step_is_read_before_it, test_a_level_is_read_where_it_serves_the_walk_whole,
          test_level_is_the_largest_footprint_in_half_of_it, test_level_without_a_footprint,
          test_memory_needs_four_times_the_last_level, test_caches_from_the_topology,
          test_a_level_as_slow_as_memory_is_memory)
