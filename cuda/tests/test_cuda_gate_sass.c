/* The timing gate (cuda/cuda_timer.cu) as the GPU runs it: the machine
 * code of every architecture built, read with cuobjdump. Its loop must load
 * the flag from host memory on every pass (LDG.E.STRONG.SYS: volatile, seen
 * by the whole system, never a cached copy) and read the global timer, or
 * the gate would never open or never give up. Needs no GPU; skips, saying
 * so, where there is no cuobjdump (common/deps.sh installs it from PyPI). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(CUOBJDUMP) || !defined(CUDA_TIMER_OBJ)
#error "build with -DCUOBJDUMP='\"<cuobjdump or empty>\"' -DCUDA_TIMER_OBJ='\"<cuda_timer.o>\"' (Makefile)"
#endif

#define MAX_INSTR 256

typedef struct {
    unsigned long addr;
    char text[96];
} instr;

/* One architecture's code of the gate: its instructions in order. */
typedef struct {
    instr code[MAX_INSTR];
    size_t n;
} function;

/* "/ *0050* /   LDG.E.STRONG.SYS R0, [R2.64] ;" (without the spaces inside
 * the comment marks): the address and the instruction, or false. */
static bool parse_line(const char *line, instr *out)
{
    const char *open = strstr(line, "/*");
    char *end;
    if (open == NULL)
        return false;
    out->addr = strtoul(open + 2, &end, 16);
    if (end == open + 2 || strncmp(end, "*/", 2) != 0)
        return false;
    const char *text = end + 2;
    text += strspn(text, " \t");
    size_t len = strcspn(text, ";");
    if (len == 0 || text[len] != ';' || len >= sizeof out->text)
        return false;
    memcpy(out->text, text, len);
    out->text[len] = '\0';
    return true;
}

/* The gate of each architecture in cuobjdump's output. */
static size_t read_functions(FILE *f, function *fns, size_t max)
{
    char line[512];
    size_t n = 0;
    function *cur = NULL;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strstr(line, "Function : ") != NULL) {
            cur = n < max ? &fns[n++] : NULL;
            if (cur)
                cur->n = 0;
        } else if (cur && cur->n < MAX_INSTR && parse_line(line, &cur->code[cur->n])) {
            cur->n++;
        }
    }
    return n;
}

/* The instructions from a backward branch's target to the branch. */
static bool find_loop(const function *fn, size_t *first, size_t *last)
{
    for (size_t i = 0; i < fn->n; ++i) {
        const char *bra = strstr(fn->code[i].text, "BRA 0x");
        if (bra == NULL)
            continue;
        unsigned long target = strtoul(bra + 4, NULL, 16);
        if (target >= fn->code[i].addr)
            continue;
        for (size_t j = 0; j < i; ++j)
            if (fn->code[j].addr == target) {
                *first = j;
                *last = i;
                return true;
            }
    }
    return false;
}

static bool loop_has(const function *fn, size_t first, size_t last, const char *what)
{
    for (size_t i = first; i <= last; ++i)
        if (strstr(fn->code[i].text, what) != NULL)
            return true;
    return false;
}

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
    static function fns[8];
    size_t n = read_functions(p, fns, 8);
    int status = pclose(p);
    if (status != 0)
        fail_msg("%s: exit status %d", cmd, status);
    assert_true(n >= 1); /* one per architecture with machine code */
    for (size_t k = 0; k < n; ++k) {
        size_t first, last;
        if (!find_loop(&fns[k], &first, &last))
            fail_msg("the gate's code #%zu has no loop", k);
        if (!loop_has(&fns[k], first, last, "LDG.E.STRONG.SYS"))
            fail_msg("the gate's loop #%zu does not reload the flag from host memory (LDG.E.STRONG.SYS)", k);
        if (!loop_has(&fns[k], first, last, "SR_GLOBALTIMER"))
            fail_msg("the gate's loop #%zu does not read the global timer", k);
    }
}

/* The reader on known lines. */
static void test_reader_on_known_lines(void **state)
{
    (void)state;
    instr in;
    assert_true(parse_line("        /*0050*/                   LDG.E.STRONG.SYS R0, [R2.64] ;   /* 0x0000 */", &in));
    assert_int_equal(in.addr, 0x50);
    assert_string_equal(in.text, "LDG.E.STRONG.SYS R0, [R2.64] ");
    assert_false(parse_line("                                                            /* 0x000fca */", &in));
    function fn = {.n = 3};
    fn.code[0] = (instr){0x40, "CS2R R6, SR_GLOBALTIMERLO "};
    fn.code[1] = (instr){0x50, "LDG.E.STRONG.GPU R0, [R2.64] "};
    fn.code[2] = (instr){0x60, "@!P0 BRA 0x40 "};
    size_t first, last;
    assert_true(find_loop(&fn, &first, &last));
    assert_int_equal(first, 0);
    assert_int_equal(last, 2);
    assert_false(loop_has(&fn, first, last, "LDG.E.STRONG.SYS"));
    assert_true(loop_has(&fn, first, last, "SR_GLOBALTIMER"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_on_known_lines),
        cmocka_unit_test(test_gate_loop_in_machine_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
