/* Static check of the SFU benchmark's CUDA kernels: reads the PTX that nvcc
 * makes of cuda/sfu/kernels_plain.cu and kernels_partition.cu (-ftz=false) and
 * cuda/sfu/kernels_intrinsic.cu (-ftz=true), splits it into kernel bodies and checks that each version
 * is what it claims to be: Li's SFU instructions (Tables 6.1 and 6.2) in the
 * fast kernels, the correctly rounded ones in the precise kernels, both in
 * the partition kernels. It needs no GPU; without nvcc there is no PTX and
 * it skips, saying so.
 *
 * The PTX is the one the executable carries: that of the lowest
 * architecture the build targets (compute_80 by default), kept from the
 * compile of the objects (bench/sfu/build.mk).
 *
 * Approximate instructions are compared as a set per kernel: exactly the
 * expected ones, .ftz or not, and no other. What nvcc 13 emits for CUDA's
 * precise functions (compute_75 and compute_80, -O3, -ftz=false) is written down here as
 * found, because some of them use the SFU themselves:
 *   - expf: ex2.approx.ftz.f32 on a reduced argument, after a two-constant
 *     (Cody-Waite) product with log2 e and before an exact scaling by 2^n;
 *   - powf and tanf: rcp.approx.ftz.f32 as the seed of a refined reciprocal;
 *   - exp2f: ex2.approx.f32 itself, without .ftz: CUDA's exp2f is the SFU
 *     instruction (2 ulp), keeping subnormals, and Li's version differs
 *     from it only by flushing;
 *   - logf, log2f, sinf, cosf and the divisions, reciprocals and square
 *     roots (div.rn, rcp.rn, sqrt.rn): none.
 * So a precise kernel passes when its approximate instructions are exactly
 * these, and a precise kernel with a flushing (.ftz) approximate step is
 * also longer than Li's version: the step sits inside a larger algorithm
 * rather than being the whole function. __fdividef is div.approx.ftz.f32
 * under -ftz=true (div.approx.f32 without; div.full.f32 is what x/y
 * becomes with -prec-div=false, which nothing here uses). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sfu/tests/kernel_expect.h"
#include "tests/cuda_source.h"
#include "tests/ptx_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SFU_PTX_DIR
#error "build with -DSFU_PTX_DIR='\"<dir of sfu_kernels_plain.ptx>\"' (bench/sfu/build.mk)"
#endif

#define MAX_APPROX 8

/* ---- reading the PTX ---- */

#define NMODULES 3
static char *texts[NMODULES];
static ptx_module modules[NMODULES]; /* the -ftz=false units, the intrinsic unit */
static const char *const module_files[NMODULES] = {"sfu_kernels_plain.ptx", "sfu_kernels_partition.ptx",
                                                   "sfu_kernels_intrinsic.ptx"};
static char missing[640];

static const ptx_entry *find_entry(const char *name)
{
    for (int i = 0; i < NMODULES; ++i) {
        const ptx_entry *e = ptx_entry_named(&modules[i], name);
        if (e != NULL)
            return e;
    }
    return NULL;
}

/* What a kernel body contains: its instruction count and the distinct
 * approximate instructions. */
typedef struct {
    unsigned instructions;
    char approx[MAX_APPROX][32];
    unsigned napprox;
} body_summary;

static bool is_approx(const char *op)
{
    return strstr(op, ".approx.") != NULL || strncmp(op, "div.full.", 9) == 0;
}

static void summarise(const ptx_entry *e, body_summary *s)
{
    memset(s, 0, sizeof *s);
    ptx_span insn;
    char op[32];
    for (const char *at = e->body.begin; ptx_next_instruction(e->body, &at, &insn);) {
        if (!ptx_opcode(insn, op, sizeof op))
            continue;
        ++s->instructions;
        bool seen = false;
        for (unsigned i = 0; i < s->napprox; ++i)
            seen = seen || strcmp(s->approx[i], op) == 0;
        if (is_approx(op) && !seen && s->napprox < MAX_APPROX)
            strcpy(s->approx[s->napprox++], op);
    }
}

/* As a whole opcode, not part of a longer one nor an operand. */
static bool body_has_op(const ptx_entry *e, const char *op)
{
    ptx_span insn;
    char have[32];
    for (const char *at = e->body.begin; ptx_next_instruction(e->body, &at, &insn);)
        if (ptx_opcode(insn, have, sizeof have) && strcmp(have, op) == 0)
            return true;
    return false;
}

/* ---- setup ---- */

static int load_modules(void **state)
{
    (void)state;
    for (int i = 0; i < NMODULES; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", SFU_PTX_DIR, module_files[i]);
        texts[i] = cuda_source_read(path);
        if (texts[i] == NULL) {
            snprintf(missing, sizeof missing, "%s not found (it is made by nvcc -ptx; no nvcc, no PTX)", path);
            return 0;
        }
        if (!ptx_parse(texts[i], &modules[i])) {
            fprintf(stderr, "%s: no well-formed .entry found\n", path);
            return -1;
        }
    }
    return 0;
}

static int free_modules(void **state)
{
    (void)state;
    for (int i = 0; i < NMODULES; ++i) {
        free(texts[i]);
        free(modules[i].entries);
        texts[i] = NULL;
        memset(&modules[i], 0, sizeof modules[i]);
    }
    return 0;
}

#define SKIP_WITHOUT_PTX()                                                                                         \
    do {                                                                                                           \
        if (missing[0]) {                                                                                          \
            print_message("skipped: %s\n", missing);                                                               \
            skip();                                                                                                \
        }                                                                                                          \
    } while (0)

/* ---- checks ---- */

static size_t list_len(const char *const *list)
{
    size_t n = 0;
    while (n < MAX_LIST && list[n])
        ++n;
    return n;
}

static bool in_list(const char *const *list, const char *op)
{
    for (size_t i = 0; i < list_len(list); ++i)
        if (strcmp(list[i], op) == 0)
            return true;
    return false;
}

static const ptx_entry *must_find(const char *name)
{
    const ptx_entry *e = find_entry(name);
    if (e == NULL)
        fail_msg("kernel %s is not in the PTX", name);
    return e;
}

/* The approximate instructions of name are exactly those of a and b (b may
 * be NULL), and it contains every instruction of the also lists. */
static void check_kernel(const char *name, const char *const *a, const char *const *b, const char *const *also_a,
                         const char *const *also_b, body_summary *out)
{
    const ptx_entry *e = must_find(name);
    summarise(e, out);
    for (unsigned i = 0; i < out->napprox; ++i)
        if (!in_list(a, out->approx[i]) && !(b && in_list(b, out->approx[i])))
            fail_msg("%s contains %s, which it should not", name, out->approx[i]);
    const char *const *lists[] = {a, b, also_a, also_b};
    for (size_t l = 0; l < 4; ++l)
        for (size_t i = 0; lists[l] && i < list_len(lists[l]); ++i)
            if (!body_has_op(e, lists[l][i]))
                fail_msg("%s lacks %s", name, lists[l][i]);
}

static void test_every_kernel_is_expected(void **state)
{
    (void)state;
    SKIP_WITHOUT_PTX();
    size_t expected = 0;
    char name[96];
    for (size_t i = 0; i < NEXPECTS; ++i) {
        const char *vers[] = {"precise", "ptx", "partition", expects[i].has_intrinsic ? "intrinsic" : NULL};
        for (size_t v = 0; v < 4 && vers[v]; ++v)
            for (int ilp = 1; ilp <= MAX_ILP; ++ilp) {
                kernel_name(name, sizeof name, vers[v], &expects[i], ilp);
                must_find(name);
                ++expected;
            }
    }
    /* Nothing in the PTX escapes the checks below. */
    assert_int_equal(modules[0].n + modules[1].n + modules[2].n, expected);
    /* 12 float functions and 4 double ones, precise, ptx and partition,
     * plus the 10 float intrinsics; each 8 chain kernels. */
    assert_int_equal(expected, (16 * 3 + 10) * 8);
}

/* Accuracy is measured on the chain kernels themselves (sfu/backend.h):
 * a kernel of its own for it would be code that is not timed, free to be
 * compiled differently, so there must be none. */
static void test_accuracy_has_no_kernel_of_its_own(void **state)
{
    (void)state;
    SKIP_WITHOUT_PTX();
    for (int i = 0; i < NMODULES; ++i)
        for (size_t j = 0; j < modules[i].n; ++j)
            if (strncmp(modules[i].entries[j].name, "sfu_chain_", strlen("sfu_chain_")) != 0)
                fail_msg("%s is not a chain kernel: its code is never timed", modules[i].entries[j].name);
}

static void test_fast_kernels_use_the_sfu(void **state)
{
    (void)state;
    SKIP_WITHOUT_PTX();
    char name[96];
    body_summary s;
    for (size_t i = 0; i < NEXPECTS; ++i) {
        const sfu_expect *x = &expects[i];
        const char *vers[] = {"ptx", x->has_intrinsic ? "intrinsic" : NULL};
        for (size_t v = 0; v < 2 && vers[v]; ++v)
            for (int ilp = 1; ilp <= MAX_ILP; ++ilp) {
                kernel_name(name, sizeof name, vers[v], x, ilp);
                check_kernel(name, x->fast, NULL, x->fast_also, NULL, &s);
                if (x->constant && !ptx_find_in(must_find(name)->body, x->constant))
                    fail_msg("%s does not use the constant %s", name, x->constant);
            }
    }
}

static void test_precise_kernels_are_precise(void **state)
{
    (void)state;
    SKIP_WITHOUT_PTX();
    char name[96], fast_name[96];
    body_summary s, fast;
    for (size_t i = 0; i < NEXPECTS; ++i) {
        const sfu_expect *x = &expects[i];
        for (int ilp = 1; ilp <= MAX_ILP; ++ilp) {
            kernel_name(name, sizeof name, "precise", x, ilp);
            check_kernel(name, x->precise, NULL, x->precise_also, NULL, &s);
            bool flushing_step = false;
            for (unsigned k = 0; k < s.napprox; ++k)
                flushing_step = flushing_step || strstr(s.approx[k], ".ftz.") != NULL;
            if (!flushing_step)
                continue;
            kernel_name(fast_name, sizeof fast_name, "ptx", x, ilp);
            summarise(must_find(fast_name), &fast);
            if (s.instructions <= fast.instructions)
                fail_msg("%s has a flushing SFU step but no more instructions (%u) than %s (%u)", name,
                         s.instructions, fast_name, fast.instructions);
        }
    }
}

static void test_partition_kernels_hold_both(void **state)
{
    (void)state;
    SKIP_WITHOUT_PTX();
    char name[96], part[96];
    body_summary s, precise, fast;
    for (size_t i = 0; i < NEXPECTS; ++i) {
        const sfu_expect *x = &expects[i];
        for (int ilp = 1; ilp <= MAX_ILP; ++ilp) {
            kernel_name(part, sizeof part, "partition", x, ilp);
            check_kernel(part, x->precise, x->fast, x->precise_also, x->fast_also, &s);
            kernel_name(name, sizeof name, "precise", x, ilp);
            summarise(must_find(name), &precise);
            kernel_name(name, sizeof name, "ptx", x, ilp);
            summarise(must_find(name), &fast);
            if (s.instructions <= precise.instructions || s.instructions <= fast.instructions)
                fail_msg("%s (%u instructions) cannot hold both the precise (%u) and the ptx (%u) bodies", part,
                         s.instructions, precise.instructions, fast.instructions);
        }
    }
}

/* The parser itself, on a hand-written module: a nested brace, a brace in
 * a comment, a guarded instruction, a label. */
static void test_parser_on_a_known_body(void **state)
{
    (void)state;
    static const char text[] = ".visible .entry k_a(\n\t.param .u64 p\n)\n{\n\t.reg .f32 %f<3>;\n"
                               "\t// { not a brace\n$L__BB0_1:\n\t{\n\tex2.approx.ftz.f32 %f1, %f2;\n\t}\n"
                               "\t@%p1 bra $L__BB0_1;\n\tmul.ftz.f32 %f2, %f1, 0f3FB8AA3B;\n\tret;\n}\n"
                               ".visible .entry k_b()\n{\n\tsin.approx.f32 %f1, %f1;\n}\n";
    ptx_module m = {0};
    assert_true(ptx_parse(text, &m));
    assert_int_equal(m.n, 2);
    assert_string_equal(m.entries[0].name, "k_a");
    assert_string_equal(m.entries[1].name, "k_b");
    body_summary s;
    summarise(&m.entries[0], &s);
    assert_int_equal(s.instructions, 4); /* ex2, bra, mul, ret */
    assert_int_equal(s.napprox, 1);
    assert_string_equal(s.approx[0], "ex2.approx.ftz.f32");
    assert_true(body_has_op(&m.entries[0], "mul.ftz.f32"));
    assert_false(body_has_op(&m.entries[0], "mul.f32"));
    assert_false(body_has_op(&m.entries[0], "sin.approx.f32")); /* k_b's, outside this body */
    summarise(&m.entries[1], &s);
    assert_int_equal(s.instructions, 1);
    assert_string_equal(s.approx[0], "sin.approx.f32");
    free(m.entries);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser_on_a_known_body),
        cmocka_unit_test(test_every_kernel_is_expected),
        cmocka_unit_test(test_accuracy_has_no_kernel_of_its_own),
        cmocka_unit_test(test_fast_kernels_use_the_sfu),
        cmocka_unit_test(test_precise_kernels_are_precise),
        cmocka_unit_test(test_partition_kernels_hold_both),
    };
    return cmocka_run_group_tests(tests, load_modules, free_modules);
}
