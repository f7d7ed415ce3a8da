/* common/tests/include_cycles.sh (make layout-check) end to end: the
 * include rule of each layer, on small trees made here and on a copy of
 * this source tree with one bad include planted, the include cycles it
 * finds, and the link cycles among a build's objects. Each include against
 * the rule is one line naming the file, the header and what the file's
 * layer may include; the exit status is 1. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#define CHECK CR_SOURCE_DIR "/common/tests/include_cycles.sh"

#include "tests/check_script.h"

/* A tree of each layer, every include allowed: benchmark x with a contract
 * that includes its element header, an OpenCL and a CUDA backend, a shared
 * OpenCL piece, the API helper layers and the harness. */
static void make_tree(void)
{
    sh("rm -rf %s/tree && mkdir -p %s/tree", tmp, tmp);
    put("common/cr.h", "#include <stdint.h>\n");
    put("common/session.h", "#include \"cr.h\"\n");
    put("bench/x/elements.h", "#define X_AT(a, i) ((a)[i])\n");
    put("bench/x/backend.h", "#include \"cr.h\"\n#include \"x/elements.h\"\n");
    put("bench/x/truth.h", "#include \"x/backend.h\"\n");
    put("bench/x/design.c", "#include \"x/backend.h\"\n#include \"x/truth.h\"\n#include \"session.h\"\n");
    put("bench/y/backend.h", "#include \"cr.h\"\n");
    put("opencl/cl_device.h", "#include \"cr.h\"\n");
    put("opencl/cl_device.c", "#include \"cl_device.h\"\n#include \"session.h\"\n");
    put("opencl/walk/walker.h", "#include \"cl_device.h\"\n#include \"y/backend.h\"\n");
    put("opencl/x/kernels.h", "#include \"x/elements.h\"\n");
    put("opencl/x/backend.c", "#include \"cl_device.h\"\n#include \"kernels.h\"\n#include \"walk/walker.h\"\n"
                              "#include \"x/backend.h\"\n#include \"x/elements.h\"\n#include <stdio.h>\n");
    put("opencl/y/backend.c", "#include \"cl_device.h\"\n#include \"y/backend.h\"\n");
    put("cuda/cuda_device.h", "#include \"cr.h\"\n#include \"cuda_timer.h\"\n");
    put("cuda/cuda_timer.h", "#include \"cr.h\"\n");
    put("cuda/x/backend.cu", "#include \"cuda_device.h\"\nextern \"C\" {\n#include \"x/backend.h\"\n}\n");
    put("cuda/tests/test_x.c", "#include \"../../bench/x/truth.h\"\n#include \"x/truth.h\"\n");
}

/* The check refuses the tree with exactly one line on stderr, which says
 * each of the texts. */
static void expect_one_refusal_(const char *const *texts, size_t n)
{
    run_result r = check_tree();
    if (r.status != 1 || count_lines(r.err) != 1)
        fail_msg("status %d (want 1), %d lines on stderr (want 1):\n%s", r.status, count_lines(r.err), r.err);
    expect_all_in_(r.err, texts, n);
    run_free(&r);
}
#define expect_one_refusal(...) expect_one_refusal_(TEXTS(__VA_ARGS__))

static void test_every_layer_within_its_rule_passes(void **state)
{
    (void)state;
    make_tree();
    expect_check_passes("include rule: 17 files, every include allowed", "include graph:", "no cycle");
}

static void test_a_backend_including_the_truth_is_refused(void **state)
{
    (void)state;
    make_tree();
    put("opencl/x/backend.c", "#include \"cl_device.h\"\n#include \"x/backend.h\"\n#include \"x/truth.h\"\n");
    expect_one_refusal("include rule: opencl/x/backend.c includes \"x/truth.h\" (bench/x/truth.h): a backend "
                       "includes only its own folder, its contract (bench/x/backend.h and what that includes)",
                       "the API helper layer (opencl/*.h)");
}

static void test_a_cuda_backend_reaching_into_a_design_is_refused(void **state)
{
    (void)state;
    make_tree();
    put("bench/x/window.h", "#include \"cr.h\"\n");
    put("cuda/x/backend.cu", "#include \"cuda_device.h\"\n  #  include \"x/window.h\"\n");
    expect_one_refusal("include rule: cuda/x/backend.cu includes \"x/window.h\" (bench/x/window.h)",
                       "(cuda/*.h)");
}

static void test_a_backend_including_another_benchmarks_backend_is_refused(void **state)
{
    (void)state;
    make_tree();
    put("opencl/y/backend.c", "#include \"cl_device.h\"\n#include \"y/backend.h\"\n#include \"x/kernels.h\"\n");
    expect_one_refusal("include rule: opencl/y/backend.c includes \"x/kernels.h\" (opencl/x/kernels.h): a backend",
                       "(bench/y/backend.h and what that includes)");
}

/* The harness, the designs, the API helper layer and the shared pieces
 * each have their own list. */
static void test_every_layer_has_its_rule(void **state)
{
    (void)state;
    make_tree();
    put("common/session.h", "#include \"cr.h\"\n#include \"x/backend.h\"\n");
    expect_one_refusal("include rule: common/session.h includes \"x/backend.h\" (bench/x/backend.h): the harness "
                       "(common/) includes only common/");
    make_tree();
    put("bench/x/design.c", "#include \"x/backend.h\"\n#include \"walk/walker.h\"\n");
    expect_one_refusal("include rule: bench/x/design.c includes \"walk/walker.h\" (opencl/walk/walker.h): a design or "
                       "a host tool includes no backend (opencl/, cuda/)");
    make_tree();
    put("opencl/cl_device.c", "#include \"cl_device.h\"\n#include \"x/backend.h\"\n");
    expect_one_refusal("include rule: opencl/cl_device.c includes \"x/backend.h\" (bench/x/backend.h): the API helper "
                       "layer (opencl/*) includes only common/ and opencl/*.h");
    make_tree();
    put("opencl/walk/walker.h", "#include \"cl_device.h\"\n#include \"x/truth.h\"\n");
    expect_one_refusal("include rule: opencl/walk/walker.h includes \"x/truth.h\" (bench/x/truth.h): a shared backend "
                       "piece includes only its own folder, the contracts");
}

static void test_an_include_cycle_is_found(void **state)
{
    (void)state;
    make_tree();
    put("common/cr.h", "#include \"session.h\"\n");
    run_result r = check_tree();
    assert_int_equal(r.status, 1);
    expect_all_in(r.err, "include graph: modules in a cycle:", "common/cr", "common/session");
    run_free(&r);
}

/* tmp/objs/obj/common/NAME.o compiled from source text. */
static void put_object(const char *name, const char *source)
{
    sh("mkdir -p %s/objs/obj/common %s/objs/obj/bench %s/objs/obj/tools %s/objs/obj/opencl && "
       "printf '%%s\\n' '%s' | cc -x c -c -o %s/objs/obj/common/%s.o -",
       tmp, tmp, tmp, tmp, source, tmp, name);
}

static run_result check_tree_and_objects(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --root %s/tree %s/objs", CHECK, tmp, tmp);
    return run_shell(cmd);
}

/* With a build directory, the modules' objects: one that needs what another
 * defines depends on it (a weak reference to nothing defined is no edge);
 * a loop of such needs is a link cycle, named. */
static void test_a_link_cycle_is_found(void **state)
{
    (void)state;
    make_tree();
    sh("rm -rf %s/objs", tmp);
    put_object("a", "int b(void); int a(void) { return b(); }");
    put_object("b", "int b(void) { return 1; }");
    put_object("c", "int a(void); extern int w(void) __attribute__((weak)); int c(void) { return a() + (w ? w() : 0); }");
    run_result r = check_tree_and_objects();
    if (r.status != 0)
        fail_msg("status %d, stderr:\n%s", r.status, r.err);
    expect_in(r.out, "link graph: 3 modules, no cycle");
    run_free(&r);
    put_object("b", "int c(void); int b(void) { return c(); }");
    r = check_tree_and_objects();
    assert_int_equal(r.status, 1);
    expect_all_in(r.err, "link graph: modules in a cycle:", "common/a", "common/b", "common/c");
    run_free(&r);
}

/* This tree passes; with the include that made the atomics backend call
 * into the host truth planted back, it does not, and that one line says
 * why. */
static void test_a_planted_include_in_this_tree_is_caught(void **state)
{
    (void)state;
    copy_this_tree("common bench tools opencl cuda");
    run_result r = check_tree();
    if (r.status != 0)
        fail_msg("this tree: status %d, stderr:\n%s", r.status, r.err);
    run_free(&r);
    sh("sed -i 's|^#include \"atomics/backend.h\"$|&\\n#include \"atomics/truth.h\"|' %s/tree/opencl/atomics/backend.c",
       tmp);
    expect_one_refusal("include rule: opencl/atomics/backend.c includes \"atomics/truth.h\" (bench/atomics/truth.h): "
                       "a backend includes only its own folder, its contract (bench/atomics/backend.h and what that "
                       "includes)");
}

CLI_TEST_MAIN(test_every_layer_within_its_rule_passes, test_a_backend_including_the_truth_is_refused,
              test_a_cuda_backend_reaching_into_a_design_is_refused,
              test_a_backend_including_another_benchmarks_backend_is_refused, test_every_layer_has_its_rule,
              test_an_include_cycle_is_found, test_a_link_cycle_is_found, test_a_planted_include_in_this_tree_is_caught,
              test_a_root_that_is_no_directory_is_refused)
