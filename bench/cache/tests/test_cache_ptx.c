/* Static check of the CUDA load variants (cuda/cache/loads.cu): the PTX
 * nvcc makes of them, read without a GPU. Each chase_kind<K> kernel loads
 * with its own cache operator only (.ca: L1 and L2; .cg: L2 only; .nc:
 * the read-only path), never with another kind or a plain ld.global, and
 * nothing spills to local memory (a local load on the chain would be
 * measured as latency). The store pass stores volatile words. The checker
 * is also run on edited text, which it must refuse. Without nvcc there is
 * no PTX and the check of the built kernels skips, saying so. And the
 * sources (read from the top of the tree, where tests run): every kernel
 * the cache and latency backends launch to measure gets the L1 carve-out
 * of the latency chase, through the device layer's one function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/ptx_text.h"
#include "tests/test_main.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CACHE_PTX
#error "build with -DCACHE_PTX='\"<path of cache_loads.ptx>\"' (bench/cache/build.mk)"
#endif

static const char *const kinds[] = {"ld.global.ca.u64", "ld.global.cg.u64", "ld.global.nc.u64"};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* Whether body loads with kinds[kind] only and uses no local memory; why
 * not in why. */
static bool check_variant(ptx_span body, unsigned kind, char *why, size_t len)
{
    if (ptx_count_in(body, kinds[kind]) == 0) {
        snprintf(why, len, "no %s", kinds[kind]);
        return false;
    }
    for (unsigned k = 0; k < NKINDS; ++k)
        if (k != kind && ptx_count_in(body, kinds[k])) {
            snprintf(why, len, "a %s among the %s loads", kinds[k], kinds[kind]);
            return false;
        }
    if (ptx_count_in(body, "ld.global.u64")) {
        snprintf(why, len, "a plain ld.global.u64 among the %s loads", kinds[kind]);
        return false;
    }
    if (ptx_count_in(body, ".local")) {
        snprintf(why, len, "local memory");
        return false;
    }
    return true;
}

static void test_built_variants_load_their_own_kind(void **state)
{
    (void)state;
    char *ptx = cuda_built_ptx_read(CACHE_PTX);
    ptx_module m = {0};
    assert_true(ptx_parse(ptx, &m));
    for (unsigned k = 0; k < NKINDS; ++k) {
        char name[32], why[256] = "";
        snprintf(name, sizeof name, "_Z10chase_kindILi%uE", k);
        const ptx_entry *e = ptx_entry_prefixed(&m, name);
        if (!e)
            fail_msg("%s: no .entry %s...", CACHE_PTX, name);
        if (!check_variant(e->body, k, why, sizeof why))
            fail_msg("%s: %s: %s", CACHE_PTX, e->name, why);
    }
    const ptx_entry *store = ptx_entry_prefixed(&m, "_Z10store_pass");
    if (!store)
        fail_msg("%s: no .entry _Z10store_pass...", CACHE_PTX);
    assert_true(ptx_count_in(store->body, "st.volatile.global.u64") >= 1);
    assert_int_equal(ptx_count_in(store->body, ".local"), 0);
    free(m.entries);
    free(ptx);
}

/* A loop of .ca loads as nvcc writes it. */
static const char ca_loop[] = "{\n"
                              "$L__BB0_2:\n"
                              "\tld.global.ca.u64 \t%rd9, [%rd9];\n"
                              "\tadd.s64 \t%rd8, %rd8, -1;\n"
                              "\tsetp.ne.s64 \t%p2, %rd8, 0;\n"
                              "\t@%p2 bra \t$L__BB0_2;\n"
                              "}\n";

static bool check_edited(const char *from, const char *to, unsigned kind, char *why, size_t len)
{
    char body[1024];
    const char *at = strstr(ca_loop, from);
    assert_non_null(at);
    snprintf(body, sizeof body, "%.*s%s%s", (int)(at - ca_loop), ca_loop, to, at + strlen(from));
    return check_variant(ptx_span_of(body), kind, why, len);
}

static void test_checker_refuses_other_loads(void **state)
{
    (void)state;
    char why[256] = "";
    assert_true(check_variant(ptx_span_of(ca_loop), 0, why, sizeof why));
    /* the .ca loop is not a .cg one */
    assert_false(check_variant(ptx_span_of(ca_loop), 1, why, sizeof why));
    assert_non_null(strstr(why, "no ld.global.cg.u64"));
    /* a plain load (L1 by default on sm_70+) slipped in */
    assert_false(check_edited("\tadd.s64", "\tld.global.u64 \t%rd9, [%rd9];\n\tadd.s64", 0, why, sizeof why));
    assert_non_null(strstr(why, "plain"));
    /* another kind */
    assert_false(check_edited("\tadd.s64", "\tld.global.nc.u64 \t%rd9, [%rd9];\n\tadd.s64", 0, why, sizeof why));
    assert_non_null(strstr(why, "ld.global.nc.u64"));
    /* a spill */
    assert_false(check_edited("\tadd.s64", "\tst.local.u64 \t[%rd1], %rd9;\n\tadd.s64", 0, why, sizeof why));
    assert_non_null(strstr(why, "local memory"));
}

/* The sources whose kernels measure the caches, and the one kernel among
 * them launched only to prepare a chain, untimed. */
static const char *const measuring_sources[] = {"cuda/cache/loads.cu", "cuda/cache/patterns.cu",
                                                "cuda/chase/walker.cu"};
#define PREPARING "to_addresses"

/* The kernel a launch at `at` (its "<<<") names, template arguments and all. */
static void launched_name(const char *text, const char *at, char *name, size_t len)
{
    const char *begin = at;
    while (begin > text && (isalnum((unsigned char)begin[-1]) || strchr("_<>:", begin[-1])))
        --begin;
    snprintf(name, len, "%.*s", (int)(at - begin), begin);
}

static void test_every_chase_has_the_l1_carve_out(void **state)
{
    (void)state;
    char seen[1024] = ";"; /* the kernels met, ";a;b;" (an error message may name one again) */
    int launched = 0;
    for (size_t i = 0; i < sizeof measuring_sources / sizeof measuring_sources[0]; ++i) {
        char *src = cuda_source_must_read(measuring_sources[i]);
        for (const char *at = strstr(src, "<<<"); at; at = strstr(at + 3, "<<<")) {
            char name[96], needle[128];
            launched_name(src, at, name, sizeof name);
            snprintf(needle, sizeof needle, ";%s;", name);
            if (strcmp(name, PREPARING) == 0 || strstr(seen, needle))
                continue;
            ++launched;
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s;", name);
            snprintf(needle, sizeof needle, "CR_CUDA_PREFER_L1(%s,", name);
            if (strstr(src, needle) == NULL)
                fail_msg("%s launches %s without giving it the L1 carve-out (%s...)", measuring_sources[i], name,
                         needle);
        }
        /* One function of the device layer sets it, for all alike. */
        assert_null(strstr(src, "cudaFuncAttributePreferredSharedMemoryCarveout"));
        free(src);
    }
    /* The latency chase, three load kinds, the store pass, the pattern. */
    assert_int_equal(launched, 6);
}

TEST_MAIN(NULL, NULL, test_built_variants_load_their_own_kind, test_checker_refuses_other_loads,
          test_every_chase_has_the_l1_carve_out)
