/* Static check of the timing gate (cuda/cuda_timer.cu, cr_cuda_timer_start)
 * in the PTX nvcc makes of it; it needs no GPU. The gate holds a stream
 * until the host opens it, so its loop must load the flag from memory on
 * every iteration (a load hoisted out of the loop would spin forever on the
 * first value), and must read the clock inside the loop, or the timeout
 * that keeps a blocked host from hanging the device could never fire. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/ptx_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUDA_TIMER_PTX
#error "build with -DCUDA_TIMER_PTX='\"<path of cuda_timer.ptx>\"' (Makefile)"
#endif

static char *ptx;
static ptx_module module;

/* The body of entry name of m, read from path. */
static ptx_span entry_body(const ptx_module *m, const char *name, const char *path)
{
    const ptx_entry *e = ptx_entry_named(m, name);
    if (e == NULL)
        fail_msg("no .entry %s in %s", name, path);
    return e->body;
}

/* The gate's loop: its first, from a label to the last branch back to it. */
static ptx_span loop_of(ptx_span body)
{
    ptx_span loop;
    const char *at = body.begin;
    if (!ptx_next_loop(body, &at, &loop))
        fail_msg("the gate kernel has no loop");
    return loop;
}

static ptx_span gate_body(void) { return entry_body(&module, "cr_cuda_gate", CUDA_TIMER_PTX); }

static int load(void **state)
{
    (void)state;
    ptx = cuda_source_read(CUDA_TIMER_PTX);
    if (ptx == NULL) {
        fprintf(stderr, "%s not found: it is made by nvcc -ptx (Makefile)\n", CUDA_TIMER_PTX);
        return -1;
    }
    if (!ptx_parse(ptx, &module)) {
        fprintf(stderr, "%s: no well-formed .entry found\n", CUDA_TIMER_PTX);
        return -1;
    }
    return 0;
}

static int unload(void **state)
{
    (void)state;
    free(module.entries);
    free(ptx);
    return 0;
}

/* Every iteration loads the open word from memory, bypassing the caches
 * that would keep an old value: ld.volatile, or its memory-model form
 * ld.relaxed.sys, of the gate's first word. */
static void test_gate_reloads_the_flag_in_its_loop(void **state)
{
    (void)state;
    ptx_span loop = loop_of(gate_body());
    const char *ld = ptx_find_in(loop, "ld.volatile.global.u32");
    if (ld == NULL)
        ld = ptx_find_in(loop, "ld.relaxed.sys.global.u32");
    if (ld == NULL)
        fail_msg("the gate's loop loads no flag with ld.volatile / ld.relaxed.sys:\n%.*s", (int)(loop.end - loop.begin),
                 loop.begin);
    const char *addr = strchr(ld, '[');
    assert_non_null(addr);
    assert_true(strcspn(addr, "]+") == strcspn(addr, "]")); /* [%rdN]: the first word, no offset */
}

/* The clock is read once before the loop (its start) and again inside it. */
static void test_gate_reads_the_clock_in_its_loop(void **state)
{
    (void)state;
    ptx_span body = gate_body(), loop = loop_of(body);
    assert_true(ptx_count_in(loop, "%globaltimer") >= 1);
    assert_true(ptx_count_in((ptx_span){body.begin, loop.begin}, "%globaltimer") >= 1);
}

/* Giving up says so in the second word (4 bytes on), with a store that
 * reaches host memory rather than staying in a cache. */
static void test_gate_reports_its_timeout(void **state)
{
    (void)state;
    const char *st = ptx_find_in(gate_body(), "st.volatile.global.u32");
    if (st == NULL)
        st = ptx_find_in(gate_body(), "st.relaxed.sys.global.u32");
    assert_non_null(st);
    const char *addr = strchr(st, '[');
    assert_non_null(addr);
    assert_true(strncmp(addr + strcspn(addr, "+]"), "+4]", 3) == 0);
}

/* The reader on a hand-written kernel whose loop reloads nothing: the check
 * that it does must find no load. */
static void test_reader_on_a_known_body(void **state)
{
    (void)state;
    static const char text[] = ".visible .entry k(\n)\n{\n\tld.volatile.global.u32 \t%r1, [%rd1];\n"
                               "$L__BB0_1:\n\tmov.u64 %rd4, %globaltimer;\n\t@%p1 bra \t$L__BB0_1;\n"
                               "\tret;\n\n}\n";
    ptx_module m = {0};
    assert_true(ptx_parse(text, &m));
    ptx_span body = entry_body(&m, "k", "the known body"), loop = loop_of(body);
    assert_null(ptx_find_in(loop, "ld.volatile"));
    assert_non_null(ptx_find_in(body, "ld.volatile"));
    assert_int_equal(ptx_count_in(loop, "%globaltimer"), 1);
    free(m.entries);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_on_a_known_body),
        cmocka_unit_test(test_gate_reloads_the_flag_in_its_loop),
        cmocka_unit_test(test_gate_reads_the_clock_in_its_loop),
        cmocka_unit_test(test_gate_reports_its_timeout),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
