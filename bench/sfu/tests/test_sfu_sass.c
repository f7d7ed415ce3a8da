/* The SFU benchmark's fast CUDA kernels as the GPU runs them: the machine
 * code of every architecture built (sm_80 and sm_90 by default), as
 * cuobjdump lists the objects the executable links (bench/sfu/build.mk). Every intrinsic and
 * ptx-approx chain kernel must call the SFU inside its iteration loop:
 * every loop it has (a backward branch and the instructions from its
 * target on) holds the MUFU instruction of each approximate PTX
 * instruction the kernel is made of (kernel_expect.h, what test_sfu_ptx.c
 * finds in the PTX). Where an operand looks the same in every iteration
 * the compiler computes the SFU's part once before the loop: x/y with y as
 * loaded became 1/y (one MUFU.RCP) before it and a multiply in it, and the
 * division rows timed the FMA pipe. A partition kernel must have such
 * loops too: its fast path's. Needs no GPU; skips, saying so, where there
 * is no cuobjdump (common/deps.sh installs it from PyPI). */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sfu/tests/kernel_expect.h"
#include "tests/sass_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if !defined(CUOBJDUMP) || !defined(SFU_SASS_DIR)
#error "build with -DCUOBJDUMP='\"<cuobjdump or empty>\"' -DSFU_SASS_DIR='\"<dir of the listings>\"' (bench/sfu/build.mk)"
#endif

#define MAX_ARCHS 8
#define MAX_UNITS MAX_LIST

/* The SFU instruction each approximate PTX instruction of a fast kernel
 * compiles to (ptxas, sm_80 and sm_90): a division is x times the
 * reciprocal, and double precision has only the reciprocal and its square
 * root, on the high word. */
static const struct {
    const char *ptx, *mufu;
} sfu_units[] = {
    {"rcp.approx.ftz.f32", "MUFU.RCP"},     {"div.approx.ftz.f32", "MUFU.RCP"},
    {"sqrt.approx.ftz.f32", "MUFU.SQRT"},   {"rsqrt.approx.ftz.f32", "MUFU.RSQ"},
    {"ex2.approx.ftz.f32", "MUFU.EX2"},     {"lg2.approx.ftz.f32", "MUFU.LG2"},
    {"sin.approx.ftz.f32", "MUFU.SIN"},     {"cos.approx.ftz.f32", "MUFU.COS"},
    {"rcp.approx.ftz.f64", "MUFU.RCP64H"},  {"rsqrt.approx.ftz.f64", "MUFU.RSQ64H"},
};

/* The MUFU instructions of x's fast versions, NULL-terminated; the test
 * fails on a PTX instruction this table does not know. */
static void units_of(const sfu_expect *x, const char *units[MAX_UNITS + 1])
{
    size_t n = 0;
    for (size_t i = 0; i < MAX_LIST && x->fast[i]; ++i) {
        const char *mufu = NULL;
        for (size_t k = 0; k < sizeof sfu_units / sizeof sfu_units[0]; ++k)
            if (strcmp(sfu_units[k].ptx, x->fast[i]) == 0)
                mufu = sfu_units[k].mufu;
        if (mufu == NULL)
            fail_msg("%s %s: no SFU instruction known for %s", x->func, x->type, x->fast[i]);
        bool seen = false;
        for (size_t k = 0; k < n; ++k)
            seen = seen || strcmp(units[k], mufu) == 0;
        if (!seen)
            units[n++] = mufu;
    }
    assert_true(n > 0);
    units[n] = NULL;
}

/* ---- the machine code ---- */

static const char *const listings[] = {"sfu_kernels_plain.sass", "sfu_kernels_partition.sass", "sfu_kernels_intrinsic.sass"};
static sass_listing listing;
static char archs[MAX_ARCHS][sizeof ((sass_function *)0)->arch];
static size_t narchs;

static int read_objects(void **state)
{
    (void)state;
    if (CUOBJDUMP[0] == '\0')
        return 0;
    for (size_t i = 0; i < sizeof listings / sizeof listings[0]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SFU_SASS_DIR, listings[i]);
        FILE *f = fopen(path, "r");
        bool read = f != NULL && sass_read(f, &listing, NULL);
        if (f != NULL)
            fclose(f);
        if (!read) {
            fprintf(stderr, "%s: %s\n", path, f == NULL ? "cannot open it" : "cannot read it");
            return -1;
        }
    }
    for (size_t i = 0; i < listing.n; ++i) {
        bool seen = false;
        for (size_t k = 0; k < narchs; ++k)
            seen = seen || strcmp(archs[k], listing.fns[i].arch) == 0;
        if (!seen && narchs < MAX_ARCHS)
            memcpy(archs[narchs++], listing.fns[i].arch, sizeof archs[0]);
    }
    return 0;
}

static int free_objects(void **state)
{
    (void)state;
    sass_free(&listing);
    narchs = 0;
    return 0;
}

#define SKIP_WITHOUT_CUOBJDUMP()                                                                                   \
    do {                                                                                                           \
        if (CUOBJDUMP[0] == '\0') {                                                                                \
            print_message("skipped: no cuobjdump (beside nvcc, on PATH, or pip install nvidia-cuda-cuobjdump)\n"); \
            skip();                                                                                                \
        }                                                                                                          \
    } while (0)

/* ---- checks ---- */

static bool range_has_units(const sass_function *fn, size_t first, size_t last, const char *const *units)
{
    for (size_t u = 0; units[u]; ++u)
        if (!sass_range_has_opcode(fn, first, last, units[u]))
            return false;
    return true;
}

/* How many loops fn has, and how many of them hold every unit. */
static void count_loops(const sass_function *fn, const char *const *units, size_t *loops, size_t *with_units)
{
    *loops = *with_units = 0;
    for (size_t at = 0, first, last; sass_next_loop(fn, &at, &first, &last);) {
        ++*loops;
        *with_units += range_has_units(fn, first, last, units);
    }
}

static const sass_function *must_find(const char *name, const char *arch)
{
    const sass_function *fn = sass_function_named(&listing, name, arch);
    if (fn == NULL)
        fail_msg("%s has no machine code for %s", name, arch);
    return fn;
}

static void print_shortfall(const char *name, const char *arch, size_t with_units, size_t loops, size_t want,
                            const char *const *units)
{
    char list[128] = "";
    for (size_t u = 0; units[u]; ++u)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", u ? " " : "", units[u]);
    print_error("%s (%s): %zu of its %zu loops hold %s, not %zu\n", name, arch, with_units, loops, list, want);
}

/* Whether every loop of the kernel name holds the units, in every
 * architecture, and it has one; says why not. */
static bool loops_call_units(const char *name, const char *const *units)
{
    bool ok = true;
    for (size_t a = 0; a < narchs; ++a) {
        size_t loops, with_units;
        count_loops(must_find(name, archs[a]), units, &loops, &with_units);
        if (loops == 0 || with_units < loops) {
            print_shortfall(name, archs[a], with_units, loops, loops ? loops : 1, units);
            ok = false;
        }
    }
    return ok;
}

static void test_fast_kernels_call_the_sfu_in_their_loops(void **state)
{
    (void)state;
    SKIP_WITHOUT_CUOBJDUMP();
    assert_true(narchs > 0);
    for (size_t a = 0; a < narchs; ++a)
        print_message("machine code for %s\n", archs[a]);
    size_t checked = 0, failed = 0;
    char name[96];
    for (size_t i = 0; i < NEXPECTS; ++i) {
        const sfu_expect *x = &expects[i];
        const char *units[MAX_UNITS + 1];
        units_of(x, units);
        const char *vers[] = {"ptx", x->has_intrinsic ? "intrinsic" : NULL};
        for (size_t v = 0; v < 2 && vers[v]; ++v)
            for (int ilp = 1; ilp <= MAX_ILP; ++ilp) {
                kernel_name(name, sizeof name, vers[v], x, ilp);
                failed += !loops_call_units(name, units);
                ++checked;
            }
    }
    /* 16 ptx-approx functions and 10 intrinsic ones, 8 chain kernels each. */
    assert_int_equal(checked, (16 + 10) * 8);
    if (failed)
        fail_msg("%zu of %zu fast kernels compute an SFU operation outside a loop they time", failed, checked);
}

/* A partition kernel holds the precise kernel's loops and the ptx
 * kernel's: as many loops with the units as the precise kernel has (a
 * precise division's own algorithm starts with MUFU.RCP) plus one for
 * every loop of the ptx kernel, its fast path. */
static bool partition_calls_units(const sfu_expect *x, int ilp, const char *const *units)
{
    char part[96], precise[96], fast[96];
    kernel_name(part, sizeof part, "partition", x, ilp);
    kernel_name(precise, sizeof precise, "precise", x, ilp);
    kernel_name(fast, sizeof fast, "ptx", x, ilp);
    bool ok = true;
    for (size_t a = 0; a < narchs; ++a) {
        size_t loops, with_units, precise_loops, precise_with, fast_loops, fast_with;
        count_loops(must_find(part, archs[a]), units, &loops, &with_units);
        count_loops(must_find(precise, archs[a]), units, &precise_loops, &precise_with);
        count_loops(must_find(fast, archs[a]), units, &fast_loops, &fast_with);
        if (fast_loops == 0 || with_units < precise_with + fast_loops) {
            print_shortfall(part, archs[a], with_units, loops, precise_with + (fast_loops ? fast_loops : 1), units);
            ok = false;
        }
    }
    return ok;
}

static void test_partition_kernels_call_the_sfu_in_their_fast_loops(void **state)
{
    (void)state;
    SKIP_WITHOUT_CUOBJDUMP();
    size_t failed = 0;
    for (size_t i = 0; i < NEXPECTS; ++i) {
        const char *units[MAX_UNITS + 1];
        units_of(&expects[i], units);
        for (int ilp = 1; ilp <= MAX_ILP; ++ilp)
            failed += !partition_calls_units(&expects[i], ilp, units);
    }
    if (failed)
        fail_msg("%zu of %zu partition kernels compute an SFU operation outside a loop they time", failed,
                 NEXPECTS * MAX_ILP);
}

static const sfu_expect *expect_of(const char *func, const char *type)
{
    for (size_t i = 0; i < NEXPECTS; ++i)
        if (strcmp(expects[i].func, func) == 0 && strcmp(expects[i].type, type) == 0)
            return &expects[i];
    fail_msg("no %s in %s", func, type);
    return NULL;
}

/* The mapping knows every approximate instruction of every fast kernel,
 * and a division, x^y and tan call the units their PTX says; needs no
 * cuobjdump. */
static void test_every_fast_instruction_has_its_unit(void **state)
{
    (void)state;
    const char *units[MAX_UNITS + 1];
    for (size_t i = 0; i < NEXPECTS; ++i)
        units_of(&expects[i], units);
    units_of(expect_of("div", "f32"), units);
    assert_string_equal(units[0], "MUFU.RCP");
    assert_null(units[1]);
    units_of(expect_of("pow", "f32"), units);
    assert_string_equal(units[0], "MUFU.LG2");
    assert_string_equal(units[1], "MUFU.EX2");
    assert_null(units[2]);
    units_of(expect_of("tan", "f32"), units); /* sin, cos and their quotient */
    assert_string_equal(units[2], "MUFU.RCP");
    units_of(expect_of("sqrt", "f64"), units);
    assert_string_equal(units[0], "MUFU.RSQ64H");
    assert_string_equal(units[1], "MUFU.RCP64H");
}

/* The reader on a hand-written listing: two architectures, a function
 * left out, an encoding line that is no instruction. */
static bool not_k_b(const char *name) { return strcmp(name, "k_b") != 0; }

static void test_reader_on_a_known_listing(void **state)
{
    (void)state;
    static char text[] = "\tcode for sm_80\n\t\tFunction : k_a\n"
                         "        /*0000*/                   MUFU.RCP R6, R3 ;   /* 0x0000000300067308 */\n"
                         "                                                       /* 0x0210620000001000 */\n"
                         "        /*0010*/               @P1 BRA 0x0 ;\n"
                         "\t\tFunction : k_b\n        /*0000*/                   EXIT ;\n"
                         "\tcode for sm_90\n\t\tFunction : k_a\n        /*0000*/                   EXIT ;\n";
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_non_null(f);
    sass_listing l = {0};
    assert_true(sass_read(f, &l, not_k_b));
    fclose(f);
    assert_int_equal(l.n, 2);
    const sass_function *a80 = sass_function_named(&l, "k_a", "sm_80"), *a90 = sass_function_named(&l, "k_a", "sm_90");
    assert_non_null(a80);
    assert_non_null(a90);
    assert_null(sass_function_named(&l, "k_b", "sm_80"));
    assert_int_equal(a80->n, 2);
    assert_int_equal(a80->code[1].addr, 0x10);
    assert_string_equal(a80->code[1].text, "@P1 BRA 0x0 ");
    assert_int_equal(a90->n, 1);
    sass_free(&l);
}

/* The checks on a hand-written function: the reciprocal before the loop
 * (what nvcc made of x/y with y as loaded) and inside it, in the main loop
 * of an unrolled chain and in its remainder loop. */
static void test_loop_checks_on_known_code(void **state)
{
    (void)state;
    sass_instr code[] = {
        {0x180, "MUFU.RCP R6, R3 "}, {0x1c0, "FMUL.FTZ R10, R6, R9 "}, {0x1d0, "MUFU.RCP64H R7, R4 "},
        {0x1e0, "@P1 BRA 0x1c0 "},   {0x1f0, "LOP3.LUT R6, R4, c[0x0][0x190], R7, 0xf8, !PT "},
        {0x200, "MUFU.RCP R9, R6 "}, {0x210, "@P0 BRA 0x1f0 "},
        {0x220, "EXIT "},            {0x230, "BRA 0x230"},
    };
    sass_function fn = {.name = "k", .arch = "sm_80", .code = code, .n = sizeof code / sizeof code[0]};
    const char *rcp[] = {"MUFU.RCP", NULL}, *rcp64[] = {"MUFU.RCP64H", NULL};
    const char *both[] = {"MUFU.RCP", "MUFU.RCP64H", NULL};
    size_t loops, with_units;
    count_loops(&fn, rcp, &loops, &with_units);
    assert_int_equal(loops, 2); /* the branch to itself after EXIT is no loop */
    assert_int_equal(with_units, 1); /* the first loop's MUFU.RCP64H is not MUFU.RCP */
    count_loops(&fn, rcp64, &loops, &with_units);
    assert_int_equal(with_units, 1);
    count_loops(&fn, both, &loops, &with_units);
    assert_int_equal(with_units, 0);
    char op[32];
    sass_opcode(&code[3], op, sizeof op);
    assert_string_equal(op, "BRA");
    unsigned long target;
    assert_true(sass_branch_target(&code[6], &target));
    assert_int_equal(target, 0x1f0);
    assert_false(sass_branch_target(&code[4], &target)); /* 0xf8 is an operand, not a branch */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fast_instruction_has_its_unit),
        cmocka_unit_test(test_reader_on_a_known_listing),
        cmocka_unit_test(test_loop_checks_on_known_code),
        cmocka_unit_test(test_fast_kernels_call_the_sfu_in_their_loops),
        cmocka_unit_test(test_partition_kernels_call_the_sfu_in_their_fast_loops),
    };
    return cmocka_run_group_tests(tests, read_objects, free_objects);
}
