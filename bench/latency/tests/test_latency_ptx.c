/* Static check of the CUDA pointer chase: reads the PTX nvcc makes of
 * cuda/chase/walker.cu and checks that the chase kernel measures what
 * the benchmark claims, one load's latency per step:
 *  - every load of the walk is a plain ld.global.u64 (weak, no cache
 *    operator: on sm_70 and later .ca and .cg are strong loads, .cg and
 *    .volatile skip L1), addressed by a register with no offset;
 *  - the address of each load comes straight from a load before it: no
 *    instruction but a load (or a register copy) writes an address
 *    register inside the walk, so no shift, multiply or add lies on the
 *    chain of dependent loads, as an index chase would put there;
 *  - every value loaded is the address of a load: the loads form one chain;
 *  - two reads of %clock64 bracket every load, the SM's own cycle count.
 * The checker is also run on PTX as the index chase compiled to, which it
 * must refuse. It needs no GPU; without nvcc there is no PTX and the check
 * of the built kernel skips, saying so. */
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

#ifndef LATENCY_PTX
#error "build with -DLATENCY_PTX='\"<path of latency_backend.ptx>\"' (bench/latency/build.mk)"
#endif

#define MAX_INSNS 512
#define MAX_OPERANDS 4
#define MAX_REGS 64

typedef struct {
    char text[128];
    char op[48];
    char operand[MAX_OPERANDS][48];
    int operands;
} ptx_insn;

/* The instructions of a kernel body, one a line (ptx_instruction). */
static int parse_insns(ptx_span body, ptx_insn *out, int max)
{
    int n = 0;
    ptx_span insn;
    for (const char *at = body.begin; n < max && ptx_next_instruction(body, &at, &insn);) {
        char s[256];
        int len = (int)(insn.end - insn.begin);
        snprintf(s, sizeof s, "%.*s", len, insn.begin);
        ptx_insn *in = &out[n++];
        memset(in, 0, sizeof *in);
        snprintf(in->text, sizeof in->text, "%.*s", len, insn.begin);
        size_t oplen = strcspn(s, " \t");
        snprintf(in->op, sizeof in->op, "%.*s", (int)oplen, s);
        for (char *o = strtok(s + oplen, ","); o && in->operands < MAX_OPERANDS; o = strtok(NULL, ",")) {
            o += strspn(o, " \t");
            size_t olen = strlen(o);
            while (olen && (o[olen - 1] == ' ' || o[olen - 1] == '\t'))
                --olen;
            snprintf(in->operand[in->operands++], sizeof in->operand[0], "%.*s", (int)olen, o);
        }
    }
    return n;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static bool is_clock_read(const ptx_insn *in)
{
    return strcmp(in->op, "mov.u64") == 0 && in->operands == 2 && strcmp(in->operand[1], "%clock64") == 0;
}

typedef struct {
    char name[MAX_REGS][48];
    int n;
} reg_set;

static bool reg_in(const reg_set *s, const char *r)
{
    for (int i = 0; i < s->n; ++i)
        if (strcmp(s->name[i], r) == 0)
            return true;
    return false;
}

static bool reg_add(reg_set *s, const char *r)
{
    if (reg_in(s, r) || s->n == MAX_REGS)
        return false;
    snprintf(s->name[s->n++], sizeof s->name[0], "%s", r);
    return true;
}

/* Whether the chase kernel's body is a pointer chase bracketed by clock
 * reads (the header's list); why says what is not, where it is not. */
static bool check_chase(ptx_span body, char *why, size_t len)
{
    static ptx_insn in[MAX_INSNS];
    int n = parse_insns(body, in, MAX_INSNS), clocks[3], nclocks = 0, loads = 0;
    for (int i = 0; i < n; ++i)
        if (is_clock_read(&in[i]) && nclocks < 3)
            clocks[nclocks++] = i;
    if (nclocks != 2)
        return snprintf(why, len, "%d reads of %%clock64, want 2 around the walk", nclocks), false;
    reg_set addr = {.n = 0};
    for (int i = 0; i < n; ++i) {
        if (!starts(in[i].op, "ld.global"))
            continue;
        if (i < clocks[0] || i > clocks[1])
            return snprintf(why, len, "`%s` lies outside the clock reads", in[i].text), false;
        if (strcmp(in[i].op, "ld.global.u64") != 0)
            return snprintf(why, len, "`%s` is not a plain ld.global.u64", in[i].text), false;
        const char *a = in[i].operand[1];
        if (in[i].operands != 2 || a[0] != '[' || a[1] != '%' || strcspn(a, "+-") != strlen(a))
            return snprintf(why, len, "`%s` is not addressed by a register alone", in[i].text), false;
        char reg[48];
        snprintf(reg, sizeof reg, "%.*s", (int)strcspn(a + 1, "]"), a + 1);
        reg_add(&addr, reg);
        ++loads;
    }
    if (loads == 0)
        return snprintf(why, len, "no ld.global between the clock reads"), false;
    /* The address registers and every register copied into one. */
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = clocks[0] + 1; i < clocks[1]; ++i) {
            if (in[i].operands < 2 || !reg_in(&addr, in[i].operand[0]) || starts(in[i].op, "ld.global"))
                continue;
            if (!starts(in[i].op, "mov.") || in[i].operands != 2 || in[i].operand[1][0] != '%')
                return snprintf(why, len, "`%s` computes the address of a load of the walk", in[i].text), false;
            grew |= reg_add(&addr, in[i].operand[1]);
        }
    }
    for (int i = clocks[0] + 1; i < clocks[1]; ++i)
        if (starts(in[i].op, "ld.global") && !reg_in(&addr, in[i].operand[0]))
            return snprintf(why, len, "the value of `%s` is the address of no load", in[i].text), false;
    return true;
}

/* ---- the built kernel ---- */

static void test_built_chase_is_a_pointer_chase(void **state)
{
    (void)state;
    char *ptx = cuda_built_ptx_read(LATENCY_PTX);
    ptx_module m = {0};
    const ptx_entry *chase = ptx_parse(ptx, &m) ? ptx_entry_prefixed(&m, "_Z5chase") : NULL;
    if (!chase)
        fail_msg("%s: no .entry _Z5chase...", LATENCY_PTX);
    char why[256] = "";
    if (!check_chase(chase->body, why, sizeof why))
        fail_msg("%s: %s", LATENCY_PTX, why);
    free(m.entries);
    free(ptx);
}

/* ---- the checker on known PTX ---- */

/* The loop of the index chase the pointer chase replaced (idx = next[idx],
 * nvcc 13, compute_75, -O3, unrolled by 4), here with clock reads around
 * it so that only the address arithmetic stands between it and a pass. */
static const char index_chase[] = "\tmov.u64 \t%rd19, %clock64;\n"
                                  "$L__BB0_3:\n"
                                  "\tshl.b64 \t%rd22, %rd42, 3;\n"
                                  "\tadd.s64 \t%rd23, %rd1, %rd22;\n"
                                  "\tld.global.u64 \t%rd24, [%rd23];\n"
                                  "\tshl.b64 \t%rd25, %rd24, 3;\n"
                                  "\tadd.s64 \t%rd26, %rd1, %rd25;\n"
                                  "\tld.global.u64 \t%rd42, [%rd26];\n"
                                  "\tadd.s64 \t%rd36, %rd36, 4;\n"
                                  "\tsetp.ne.s64 \t%p3, %rd36, 0;\n"
                                  "\t@%p3 bra \t$L__BB0_3;\n"
                                  "\tmov.u64 \t%rd32, %clock64;\n";

/* The same loop chasing pointers, as the kernel compiles to. */
static const char pointer_chase[] = "\tmov.u64 \t%rd19, %clock64;\n"
                                    "$L__BB0_3:\n"
                                    "\t// begin inline asm\n"
                                    "\tld.global.u64 %rd22, [%rd41];\n"
                                    "\t// end inline asm\n"
                                    "\tld.global.u64 %rd41, [%rd22];\n"
                                    "\tadd.s64 \t%rd35, %rd35, 4;\n"
                                    "\tsetp.ne.s64 \t%p3, %rd35, 0;\n"
                                    "\t@%p3 bra \t$L__BB0_3;\n"
                                    "\tmov.u64 \t%rd32, %clock64;\n";

/* pointer_chase with `from` replaced by `to`, checked; why is returned. */
static bool check_edited(const char *from, const char *to, char *why, size_t len)
{
    char body[sizeof pointer_chase + 256];
    const char *at = strstr(pointer_chase, from);
    assert_non_null(at);
    snprintf(body, sizeof body, "%.*s%s%s", (int)(at - pointer_chase), pointer_chase, to, at + strlen(from));
    return check_chase(ptx_span_of(body), why, len);
}

static void test_checker_passes_a_pointer_chase(void **state)
{
    (void)state;
    char why[256] = "";
    if (!check_chase(ptx_span_of(pointer_chase), why, sizeof why))
        fail_msg("%s", why);
}

static void test_checker_refuses_the_index_chase(void **state)
{
    (void)state;
    char why[256] = "";
    assert_false(check_chase(ptx_span_of(index_chase), why, sizeof why));
    assert_non_null(strstr(why, "add.s64 \t%rd23, %rd1, %rd22"));
    assert_non_null(strstr(why, "computes the address"));
}

/* An edit of pointer_chase the checker must refuse, and a part of the
 * reason it must give. */
typedef struct {
    const char *from, *to, *why;
} refused_edit;

static void expect_refused(const refused_edit *edits, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        char why[256] = "";
        if (check_edited(edits[i].from, edits[i].to, why, sizeof why))
            fail_msg("passed with `%s` made `%s`", edits[i].from, edits[i].to);
        if (strstr(why, edits[i].why) == NULL)
            fail_msg("`%s` made `%s`: refused for \"%s\", not \"%s\"", edits[i].from, edits[i].to, why,
                     edits[i].why);
    }
}

static void test_checker_wants_clock_reads_around_the_loads(void **state)
{
    (void)state;
    static const refused_edit edits[] = {
        /* no clock after the loop */
        {"\tmov.u64 \t%rd32, %clock64;\n", "", "1 reads of %clock64"},
        /* a load after the second read */
        {"\tmov.u64 \t%rd32, %clock64;\n", "\tmov.u64 \t%rd32, %clock64;\n\tld.global.u64 %rd41, [%rd41];\n",
         "outside the clock reads"},
    };
    expect_refused(edits, sizeof edits / sizeof edits[0]);
}

static void test_checker_wants_plain_register_addressed_loads(void **state)
{
    (void)state;
    static const refused_edit edits[] = {
        /* .cg skips L1; a volatile load is strong and skips it too */
        {"ld.global.u64 %rd41", "ld.global.cg.u64 %rd41", "not a plain ld.global.u64"},
        /* an offset is an add on the chain */
        {"[%rd22]", "[%rd22+8]", "register alone"},
        /* a loaded value nothing chases: two chains, not one */
        {"ld.global.u64 %rd41, [%rd22]", "ld.global.u64 %rd41, [%rd41]", "is the address of no load"},
    };
    expect_refused(edits, sizeof edits / sizeof edits[0]);
    /* a copy of a loaded value is still that value */
    char why[256] = "";
    assert_true(check_edited("[%rd22];\n", "[%rd50];\n\tmov.u64 \t%rd50, %rd22;\n", why, sizeof why));
}

TEST_MAIN(NULL, NULL, test_built_chase_is_a_pointer_chase, test_checker_passes_a_pointer_chase,
          test_checker_refuses_the_index_chase, test_checker_wants_clock_reads_around_the_loads,
          test_checker_wants_plain_register_addressed_loads)
