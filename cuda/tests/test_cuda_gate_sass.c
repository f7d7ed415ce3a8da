/* The timing gate (cuda/cuda_timer.cu) as the GPU runs it: the machine
 * code of every architecture built, read with cuobjdump. Its loop must load
 * the flag from host memory on every pass (LDG.E.STRONG.SYS: volatile, seen
 * by the whole system, never a cached copy) and read the global timer, or
 * the gate would never open or never give up. Needs no GPU; skips, saying
 * so, where there is no cuobjdump (common/deps.sh installs it from PyPI). */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/sass_text.h"

#include <stdbool.h>
#include <stdio.h>

#if !defined(CUOBJDUMP) || !defined(CUDA_TIMER_OBJ)
#error "build with -DCUOBJDUMP='\"<cuobjdump or empty>\"' -DCUDA_TIMER_OBJ='\"<cuda_timer.o>\"' (Makefile)"
#endif

static void test_gate_loop_in_machine_code(void **state)
{
    (void)state;
    if (CUOBJDUMP[0] == '\0') {
        print_message("skipped: no cuobjdump (beside nvcc, on PATH, or pip install nvidia-cuda-cuobjdump)\n");
        skip();
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -sass -fun cr_cuda_gate '%s' 2>&1", CUOBJDUMP, CUDA_TIMER_OBJ);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    sass_listing fns = {0};
    bool read = sass_read(p, &fns, NULL);
    int status = pclose(p);
    if (!read || status != 0)
        fail_msg("%s: %s", cmd, read ? "failed" : "out of memory");
    assert_true(fns.n >= 1); /* one per architecture with machine code */
    for (size_t k = 0; k < fns.n; ++k) {
        const sass_function *fn = &fns.fns[k];
        size_t at = 0, first, last;
        if (!sass_next_loop(fn, &at, &first, &last))
            fail_msg("the gate's code for %s has no loop", fn->arch);
        if (!sass_range_has(fn, first, last, "LDG.E.STRONG.SYS"))
            fail_msg("the gate's loop for %s does not reload the flag from host memory (LDG.E.STRONG.SYS)", fn->arch);
        if (!sass_range_has(fn, first, last, "SR_GLOBALTIMER"))
            fail_msg("the gate's loop for %s does not read the global timer", fn->arch);
    }
    sass_free(&fns);
}

/* The reader on known lines. */
static void test_reader_on_known_lines(void **state)
{
    (void)state;
    sass_instr in;
    assert_true(sass_parse_line("        /*0050*/                   LDG.E.STRONG.SYS R0, [R2.64] ;   /* 0x0000 */", &in));
    assert_int_equal(in.addr, 0x50);
    assert_string_equal(in.text, "LDG.E.STRONG.SYS R0, [R2.64] ");
    assert_false(sass_parse_line("                                                            /* 0x000fca */", &in));
    sass_instr code[] = {{0x40, "CS2R R6, SR_GLOBALTIMERLO "},
                         {0x50, "LDG.E.STRONG.GPU R0, [R2.64] "},
                         {0x60, "@!P0 BRA 0x40 "}};
    sass_function fn = {.code = code, .n = 3};
    size_t at = 0, first, last;
    assert_true(sass_next_loop(&fn, &at, &first, &last));
    assert_int_equal(first, 0);
    assert_int_equal(last, 2);
    assert_false(sass_range_has(&fn, first, last, "LDG.E.STRONG.SYS"));
    assert_true(sass_range_has(&fn, first, last, "SR_GLOBALTIMER"));
    assert_false(sass_next_loop(&fn, &at, &first, &last));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_on_known_lines),
        cmocka_unit_test(test_gate_loop_in_machine_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
