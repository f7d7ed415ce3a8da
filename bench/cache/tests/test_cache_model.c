/* The cache model (model.c) on small cases worked out by hand: which level
 * serves each access, the predicted time, eq. 7.1, and what the model
 * assumes where the geometry leaves a value undetermined. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/model.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static char scratch[64];
CR_SCRATCH_FIXTURES(scratch, "cache-model")

/* L1 1 KiB, 64 B lines, 2 ways (8 sets), 1 ns; L2 4 KiB, 4 ways (16 sets),
 * 10 ns; memory 100 ns. Write-back, write-allocate unless changed. */
static cc_geometry small_geometry(void)
{
    cc_geometry g = {.count = 2, .memory_ns = 100};
    g.level[0] = (cc_level){.name = "L1d", .capacity = 1024, .line = 64, .ways = 2, .latency_ns = 1,
                            .write_policy_known = true, .write_back = true, .write_allocate = true};
    g.level[1] = (cc_level){.name = "L2", .capacity = 4096, .line = 64, .ways = 4, .latency_ns = 10,
                            .write_policy_known = true, .write_back = true, .write_allocate = true};
    return g;
}

/* g's model, which must configure. */
static cc_model_config configured(const cc_geometry *g)
{
    cc_model_config c;
    char err[256] = "";
    if (cc_model_configure(g, NULL, &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    return c;
}

/* Every count of got as worked out by hand in want. */
static void assert_counts(const cc_model_counts *got, const cc_model_counts *want)
{
    assert_int_equal(got->accesses, want->accesses);
    assert_int_equal(got->reads, want->reads);
    assert_int_equal(got->writes, want->writes);
    for (unsigned l = 0; l < CC_MAX_LEVELS; ++l)
        assert_int_equal(got->hits[l], want->hits[l]);
    assert_int_equal(got->memory, want->memory);
    assert_int_equal(got->l1_read_misses, want->l1_read_misses);
    assert_int_equal(got->last_level_misses, want->last_level_misses);
}

/* Lines 0, 16 and 32 share L1 set 0 (8 sets) and L2 set 0 (16 sets):
 *   R 0x000  line 0:  cold everywhere            -> memory
 *   R 0x008  line 0:  L1 hit                     -> L1
 *   R 0x400  line 16: cold                       -> memory
 *   R 0x800  line 32: cold; L1 evicts line 0     -> memory
 *   R 0x000  line 0:  L1 miss (evicted), L2 hit  -> L2; L1 evicts 16
 *   R 0x400  line 16: L1 miss, L2 hit            -> L2
 * hits L1 1, L2 2, memory 3: (1 + 20 + 300) / 6 = 53.5 ns. */
static void test_hits_per_level_and_prediction(void **state)
{
    (void)state;
    cc_geometry g = small_geometry();
    cc_model_config c = configured(&g);
    assert_string_equal(c.assumed, "");
    cc_model *m = cc_model_new(&c);
    assert_non_null(m);
    const uint64_t addresses[] = {0x000, 0x008, 0x400, 0x800, 0x000, 0x400};
    const unsigned served[] = {2, 0, 2, 2, 1, 1};
    cc_model_counts n = {0};
    for (int i = 0; i < 6; ++i)
        assert_int_equal(cc_model_access(m, addresses[i], false, &n), served[i]);
    cc_model_free(m);
    assert_counts(&n, &(cc_model_counts){.accesses = 6, .reads = 6, .hits = {1, 2}, .memory = 3, .l1_read_misses = 5,
                                         .last_level_misses = 3});
    assert_float_equal(cc_model_predict_ns(&c, &n), 53.5, 1e-12);
    /* eq. 7.1: 100 |(60 - 53.5) / 60| */
    assert_float_equal(cc_error_pct(60, 53.5), 100.0 * 6.5 / 60, 1e-12);
    assert_true(isnan(cc_error_pct(0, 53.5)));
    assert_true(isnan(cc_error_pct(60, NAN)));
}

/* Reads two lines apart (lines 0, 2, ..., 10), with the stride prefetcher
 * at degree 1, distance 1: lines 0 and 2 miss and teach it the stride, 4
 * misses and confirms it (line 6 fetched), and 6, 8 and 10 then hit L1,
 * each fetching the next. Every fetch is cold in L2 too: a last-level miss
 * each (4) beside the demand's 3. (3 x 1 + 3 x 100) / 6 = 50.5 ns, where
 * the model without it has all six from memory. */
static void test_a_stride_prefetcher_turns_misses_into_hits(void **state)
{
    (void)state;
    cc_geometry g = small_geometry();
    cc_model_config c = configured(&g);
    const unsigned served_without[] = {2, 2, 2, 2, 2, 2}, served_with[] = {2, 2, 2, 0, 0, 0};
    for (int with = 0; with < 2; ++with) {
        c.prefetch = with ? (cs_prefetch_config){CS_PREFETCH_STRIDE, 1, 1} : (cs_prefetch_config){0};
        cc_model *m = cc_model_new(&c);
        assert_non_null(m);
        cc_model_counts n = {0};
        for (int i = 0; i < 6; ++i)
            assert_int_equal(cc_model_access(m, (uint64_t)i * 128, false, &n), (with ? served_with : served_without)[i]);
        cc_model_free(m);
        if (with) {
            assert_counts(&n, &(cc_model_counts){.accesses = 6, .reads = 6, .hits = {3, 0}, .memory = 3,
                                                 .l1_read_misses = 3, .last_level_misses = 7});
            assert_int_equal(n.prefetches, 4);
            /* Timed as a chain: accesses 0-2 wait 100 each (t = 300); the
             * prefetch asked at t = 200 is there at 300, access 3 takes the
             * L1's 1; the next, asked at 300, comes at 400, and access 4,
             * starting at 301, waits 99 for it; access 5's, asked at 301,
             * comes at 401: 1 again. 401 ns for six accesses, where hits
             * counted alone would say (3 x 100 + 3 x 1) / 6 = 50.5. */
            assert_int_equal(n.late_prefetches, 1);
            assert_float_equal(n.chain_ns, 401.0, 1e-12);
            assert_float_equal(cc_model_predict_ns(&c, &n), 401.0 / 6, 1e-12);
        } else {
            assert_counts(&n, &(cc_model_counts){.accesses = 6, .reads = 6, .memory = 6, .l1_read_misses = 6,
                                                 .last_level_misses = 6});
            assert_int_equal(n.prefetches, 0);
            assert_float_equal(cc_model_predict_ns(&c, &n), 100.0, 1e-12);
            assert_float_equal(n.chain_ns, 600.0, 1e-12); /* the same chain, access by access */
        }
    }
}

/* An L1 without write-allocate: the store misses L1, goes on to L2, which
 * allocates it (a write miss there, filled from memory: memory serves it);
 * the load after misses L1 again and hits L2. A dirty line evicted from
 * L2 by later loads is a write-back, which serves no access. */
static void test_stores_and_write_backs(void **state)
{
    (void)state;
    cc_geometry g = small_geometry();
    g.level[0].write_back = g.level[0].write_allocate = false;
    cc_model_config c = configured(&g);
    assert_int_equal(c.level[0].write, CS_WRITE_THROUGH_NO_ALLOCATE);
    assert_int_equal(c.level[1].write, CS_WRITE_BACK_ALLOCATE);
    cc_model *m = cc_model_new(&c);
    cc_model_counts n = {0};
    assert_int_equal(cc_model_access(m, 0x0, true, &n), 2);
    assert_int_equal(cc_model_access(m, 0x0, false, &n), 1);
    /* Four more lines of L2 set 0 (lines 16, 32, 48, 64): the fourth
     * evicts dirty line 0, a write-back past the last level. */
    const uint64_t more[] = {0x400, 0x800, 0xc00, 0x1000};
    for (int i = 0; i < 4; ++i)
        assert_int_equal(cc_model_access(m, more[i], false, &n), 2);
    cc_model_free(m);
    assert_counts(&n, &(cc_model_counts){.accesses = 6, .reads = 5, .writes = 1, .hits = {0, 1}, .memory = 5,
                                         .l1_read_misses = 5, .last_level_misses = 5});
}

/* A write-back serves no access: with a write-back L1, the store of line
 * 0 fills it dirty (from memory); lines 16 and 32 fill set 0 again, and the
 * second evicts line 0: its write-back hits L2, but the load of line 32
 * still comes from memory. */
static void test_write_back_serves_no_access(void **state)
{
    (void)state;
    cc_geometry g = small_geometry();
    cc_model_config c = configured(&g);
    cc_model *m = cc_model_new(&c);
    cc_model_counts n = {0};
    assert_int_equal(cc_model_access(m, 0x000, true, &n), 2);
    assert_int_equal(cc_model_access(m, 0x400, false, &n), 2);
    assert_int_equal(cc_model_access(m, 0x800, false, &n), 2);
    cc_model_free(m);
    assert_counts(&n, &(cc_model_counts){.accesses = 3, .reads = 2, .writes = 1, .memory = 3, .l1_read_misses = 2,
                                         .last_level_misses = 3});
}

static void test_undetermined_values_are_assumed_and_said(void **state)
{
    (void)state;
    cc_geometry g = small_geometry();
    char err[256] = "";
    cc_model_config c;
    /* ways undetermined: the host's value where there is one... */
    g.level[0].ways = 0;
    const unsigned host[CC_MAX_LEVELS] = {4, 0, 0, 0};
    assert_int_equal(cc_model_configure(&g, host, &c, err, sizeof err), 0);
    assert_int_equal(c.level[0].ways, 4);
    assert_int_equal(c.ways_source[0], CC_WAYS_SYSFS);
    assert_non_null(strstr(c.assumed, "L1d ways undetermined: 4 from the host's sysfs"));
    /* ...else fully associative... */
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.level[0].ways, 16);
    assert_int_equal(c.ways_source[0], CC_WAYS_FULL);
    /* ...unless that is too many lines to search. */
    g.level[1].ways = 0;
    g.level[1].capacity = UINT64_C(4) << 20;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.level[1].ways, CC_WAYS_FALLBACK);
    assert_int_equal(c.ways_source[1], CC_WAYS_ASSUMED);
    /* A capacity of 1.5 KiB, 2 ways: 12 sets, simulated as 8 (1 KiB). */
    g = small_geometry();
    g.level[0].capacity = 1536;
    g.level[1].write_policy_known = false;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.level[0].size_kb, 1);
    assert_string_equal(c.assumed, "L1d capacity 1536 B simulated as 1024 B (a power-of-two number of sets); "
                                   "L2 write policy undetermined: WBWA assumed");
    /* A line undetermined: the nearest level's, the one above first. */
    g = small_geometry();
    g.level[1].line = 0;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.level[1].line_bytes, 64);
    assert_string_equal(c.assumed, "L2 line undetermined: the L1d's 64 B assumed");
    g.level[1].line = 128;
    g.level[0].line = 0;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.level[0].line_bytes, 128);
}

static void test_nothing_to_simulate_is_refused(void **state)
{
    (void)state;
    char err[256] = "";
    cc_model_config c;
    cc_geometry g = small_geometry();
    g.level[0].line = g.level[1].line = 0;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), -1);
    assert_string_equal(err, "level L1d has no line size: nothing to simulate");
    g = small_geometry();
    g.level[1].latency_ns = 0;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), -1);
    assert_string_equal(err, "level L2 has no latency: nothing to simulate");
    g = small_geometry();
    g.memory_ns = 0;
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), -1);
    assert_string_equal(err, "no memory latency detected");
    g = (cc_geometry){0};
    assert_int_equal(cc_model_configure(&g, NULL, &c, err, sizeof err), -1);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void add_index(unsigned index, const char *type, const char *level, const char *ways)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s/cpu0/cache/index%u", scratch, index);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    write_file(dir, "type", type);
    write_file(dir, "level", level);
    write_file(dir, "ways_of_associativity", ways);
}

static void test_sysfs_ways_skip_instruction_caches(void **state)
{
    (void)state;
    add_index(0, "Data\n", "1\n", "12\n");
    add_index(1, "Instruction\n", "1\n", "8\n");
    add_index(2, "Unified\n", "2\n", "16\n");
    unsigned ways[CC_MAX_LEVELS];
    cc_sysfs_ways(scratch, ways);
    assert_int_equal(ways[0], 12);
    assert_int_equal(ways[1], 16);
    assert_int_equal(ways[2], 0);
}

/* L2 detected at 4 KiB but served whole only to 1 KiB (a gradual
 * transition): a prediction with a tenth or more of its accesses in L2
 * over more than 1 KiB rests on the simulator's full 4 KiB; a sharp L1
 * (served whole to its capacity), few L2 hits, or a span within what L2
 * serves whole do not. */
static void test_a_gradual_level_holding_the_accesses_fails_the_premise(void **state)
{
    (void)state;
    cc_geometry g = small_geometry();
    g.level[0].served_whole = 1024;
    g.level[1].served_whole = 1024;
    cc_model_counts n = {.accesses = 1000, .hits = {400, 500}, .memory = 100};
    assert_int_equal(cc_model_premise_fails(&g, &n, 3000), 1);
    assert_int_equal(cc_model_premise_fails(&g, &n, 1024), -1);
    n.hits[1] = 99;
    assert_int_equal(cc_model_premise_fails(&g, &n, 3000), -1);
    n.hits[1] = 500;
    g.level[1].served_whole = 4096;
    assert_int_equal(cc_model_premise_fails(&g, &n, 3000), -1);
    /* served whole unknown: nothing to judge by */
    g.level[1].served_whole = 0;
    assert_int_equal(cc_model_premise_fails(&g, &n, 3000), -1);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_hits_per_level_and_prediction,
          test_a_stride_prefetcher_turns_misses_into_hits, test_stores_and_write_backs,
          test_write_back_serves_no_access, test_undetermined_values_are_assumed_and_said,
          test_nothing_to_simulate_is_refused, test_sysfs_ways_skip_instruction_caches,
          test_a_gradual_level_holding_the_accesses_fails_the_premise)
