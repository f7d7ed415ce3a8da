/* Static check of the CUDA pattern kernel (cuda/cache/patterns.cu): reads
 * the PTX nvcc makes of it and checks what the model's premise needs, that
 * each access is one load whose address waits for the load before:
 *  - the kernel's body holds exactly one ld.global, inside its loop, and
 *    nothing in local memory (no spilled cursor, no stack array);
 *  - the loaded value goes through an and.b64 (with the mask, 0 at run
 *    time) into a register that an add.s64 of the loop puts into the next
 *    address: the chain of dependent loads.
 * The checker is also run on the same PTX with each of those broken, which
 * it must refuse. It needs no GPU; without nvcc there is no PTX and the
 * test skips, saying so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/ptx_text.h"
#include "tests/test_main.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CACHE_PATTERNS_PTX
#error "build with -DCACHE_PATTERNS_PTX='\"<path of cache_patterns.ptx>\"' (bench/cache/build.mk)"
#endif

/* The first operand (the destination) of insn, or "" where none. */
static void first_operand(ptx_span insn, char *out, size_t size)
{
    const char *p = insn.begin;
    while (p < insn.end && *p != ' ' && *p != '\t')
        ++p;
    while (p < insn.end && (*p == ' ' || *p == '\t'))
        ++p;
    const char *e = p;
    while (e < insn.end && *e != ',' && *e != ' ')
        ++e;
    snprintf(out, size, "%.*s", (int)(e - p), p);
}

static bool has_operand(ptx_span insn, const char *reg)
{
    size_t len = strlen(reg);
    for (const char *p = insn.begin; p + len <= insn.end; ++p)
        if (strncmp(p, reg, len) == 0 && (p + len == insn.end || p[len] == ',' || p[len] == ';' || p[len] == ' ' ||
                                          p[len] == ']'))
            return true;
    return false;
}

static bool op_is(ptx_span insn, const char *op)
{
    char got[48];
    return ptx_opcode(insn, got, sizeof got) && strcmp(got, op) == 0;
}

/* NULL where the kernel is as it must be, else what is wrong. */
static const char *check_kernel(const char *ptx)
{
    static char why[160];
    ptx_module m = {0};
    if (!ptx_parse(ptx, &m))
        return "the PTX does not parse";
    const ptx_entry *e = ptx_entry_prefixed(&m, "_Z10cc_pattern");
    const char *result = NULL;
    ptx_span body = e ? e->body : (ptx_span){NULL, NULL};
    if (e == NULL)
        result = "no .entry _Z10cc_pattern...";
    else if (ptx_find_in(body, "local") != NULL)
        result = "the kernel uses local memory";
    else if (ptx_count_in(body, "ld.global") != 1) {
        snprintf(why, sizeof why, "%u ld.global in the kernel, not one", ptx_count_in(body, "ld.global"));
        result = why;
    }
    ptx_span loop = {NULL, NULL}, found;
    for (const char *at = body.begin; result == NULL && ptx_next_loop(body, &at, &found);)
        if (ptx_find_in(found, "ld.global") != NULL)
            loop = found;
    if (result == NULL && loop.begin == NULL)
        result = "the load is in no loop";
    char loaded[48] = "", carry[48] = "";
    ptx_span insn;
    for (const char *at = loop.begin; result == NULL && ptx_next_instruction(loop, &at, &insn);) {
        if (strncmp(insn.begin, "ld.global", 9) == 0)
            first_operand(insn, loaded, sizeof loaded);
        else if (loaded[0] && !carry[0] && op_is(insn, "and.b64") && has_operand(insn, loaded))
            first_operand(insn, carry, sizeof carry);
    }
    bool feeds = false;
    for (const char *at = loop.begin; result == NULL && carry[0] && ptx_next_instruction(loop, &at, &insn);)
        if (op_is(insn, "add.s64") && has_operand(insn, carry))
            feeds = true;
    if (result == NULL && !carry[0])
        result = "the loaded value is masked into no register";
    else if (result == NULL && !feeds)
        result = "the masked value is added to no address";
    free(m.entries);
    return result;
}

static char *read_ptx(void)
{
    char *ptx = cuda_source_read(CACHE_PATTERNS_PTX);
    if (ptx == NULL) {
        print_message("skipped: %s not found (it is made by nvcc -ptx; no nvcc, no PTX)\n", CACHE_PATTERNS_PTX);
        skip();
    }
    return ptx;
}

static void test_one_dependent_load_per_access(void **state)
{
    (void)state;
    char *ptx = read_ptx();
    const char *why = check_kernel(ptx);
    if (why)
        fail_msg("%s: %s", CACHE_PATTERNS_PTX, why);
    free(ptx);
}

/* The PTX with `from` (its first occurrence after the kernel's first
 * `after`) replaced by `to`. */
static char *edited(const char *ptx, const char *after, const char *from, const char *to)
{
    const char *at = strstr(strstr(strstr(ptx, ".entry _Z10cc_pattern"), after), from);
    assert_non_null(at);
    size_t head = (size_t)(at - ptx), len = strlen(ptx) - strlen(from) + strlen(to) + 1;
    char *out = malloc(len);
    assert_non_null(out);
    snprintf(out, len, "%.*s%s%s", (int)head, ptx, to, at + strlen(from));
    return out;
}

static void test_checker_refuses_broken_kernels(void **state)
{
    (void)state;
    char *ptx = read_ptx();
    struct {
        const char *after, *from, *to, *want;
    } cases[] = {
        {".entry", "ld.global.u64", "ld.local.u64", "the kernel uses local memory"},
        {"ld.global.u64", "and.b64", "or.b64", "the loaded value is masked into no register"},
        {".entry", "st.global.u64", "ld.global.u64", "2 ld.global in the kernel, not one"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *bad = edited(ptx, cases[i].after, cases[i].from, cases[i].to);
        const char *why = check_kernel(bad);
        if (why == NULL || strcmp(why, cases[i].want) != 0)
            fail_msg("%s -> %s: got '%s', expected '%s'", cases[i].from, cases[i].to, why ? why : "accepted",
                     cases[i].want);
        free(bad);
    }
    free(ptx);
}

TEST_MAIN(NULL, NULL, test_one_dependent_load_per_access, test_checker_refuses_broken_kernels)
