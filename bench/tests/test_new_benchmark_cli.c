/* A benchmark is its folders: a copy of this tree with one more benchmark,
 * toy (tests/data/toy: bench/toy/ with its descriptor, design and figure,
 * opencl/toy/ with its backend; one kernel, one row, verified), and no
 * other file changed, builds it with the Makefile, runs it under
 * run_all.sh, draws its figure, shows it in the report and in the results
 * database; a wrong line in its descriptor fails the build in one line.
 * The copy's build starts from the one under test (its objects copied), so
 * that only what the new benchmark changes is built. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <libgen.h>
#include <limits.h>

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

/* The parts of the tree a copy holds: all that builds and runs. */
#define TREE_PARTS "Makefile run_all.sh common bench opencl cuda tools plot"

static char tree[PATH_MAX];   /* TMP/tree: the copy */
static char variant[16];      /* "build" or "build/san": where the executables under test were built */
static char scratch_run[PATH_MAX + 16];

/* The build the executables under test come from: BIN/.. (build, or the
 * sanitizers' build/san, whose generated sources are build's). */
static void seed_build(void)
{
    char bin[PATH_MAX], parent[PATH_MAX];
    assert_non_null(realpath(bin_dir, bin));
    snprintf(parent, sizeof parent, "%s", dirname(bin));
    bool san = strcmp(basename(parent), "san") == 0;
    snprintf(variant, sizeof variant, "%s", san ? "build/san" : "build");
    char root[PATH_MAX];
    snprintf(root, sizeof root, "%s", parent);
    if (san)
        snprintf(root, sizeof root, "%s", dirname(parent));
    sh("mkdir -p '%s/build/gen' && cp -Rp '%s/obj' '%s/lib' '%s/build/' && "
       "for f in '%s'/gen/*.c '%s'/gen/*.h '%s'/gen/*.mk; do [ ! -f \"$f\" ] || cp -p \"$f\" '%s/build/gen/'; done",
       tree, root, root, tree, root, root, root, tree);
    if (san)
        sh("mkdir -p '%s/build/san' && cp -Rp '%s/obj' '%s/lib' '%s/build/san/'", tree, parent, parent, tree);
}

/* make TARGETS in the copy, as CI builds (warnings are errors), outside
 * the make that may be running this test. */
static run_result make_in_copy(const char *targets)
{
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C '%s' -s -j2 CI=true %s", tree,
             targets);
    return run_shell(cmd);
}

static void make_toy(void)
{
    char targets[512];
    snprintf(targets, sizeof targets,
             "%s/bin/toy-opencl %s/tools/report %s/tools/energy-levels %s/tools/reproduce %s/tools/crossroof-db",
             variant, variant, variant, variant, variant);
    run_result r = make_in_copy(targets);
    if (r.status != 0)
        fail_msg("make: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    run_free(&r);
}

static int setup_tree(void **state)
{
    if (setup(state) != 0)
        return -1;
    snprintf(tree, sizeof tree, "%s/tree", tmp);
    snprintf(scratch_run, sizeof scratch_run, "%s/run", tmp);
    return 0;
}

/* The copy, toy's folders added, builds toy-opencl and the tools that read
 * its results; no file of the tree outside those folders differs. */
static void test_a_benchmark_is_its_folders(void **state)
{
    (void)state;
    sh("mkdir -p '%s/results' && cd '%s' && cp -Rp " TREE_PARTS " '%s/' && cp -Rp results/reference '%s/results/' && "
       "cp -Rp bench/tests/data/toy/. '%s/'",
       tree, CR_SOURCE_DIR, tree, tree, tree);
    seed_build();
    make_toy();
    char cmd[4 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "(cd '%s' && for p in " TREE_PARTS " results/reference; do diff -rq -x toy \"$p\" '%s/'\"$p\" || exit 1; "
             "done)",
             CR_SOURCE_DIR, tree);
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("the copy differs outside toy's folders:\n%s%s", r.out, r.err);
    run_free(&r);
    sh("[ -x '%s/%s/bin/toy-opencl' ] && [ ! -e '%s/%s/bin/stream-opencl' ]", tree, variant, tree, variant);
}

/* run_all.sh --only toy runs it, as every benchmark: one verified row. */
static void test_run_all_runs_it(void **state)
{
    (void)state;
    char cmd[4 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "CROSSROOF_BIN='%s/%s/bin' '%s/run_all.sh' --quick --only toy --out '%s'", tree, variant,
             tree, scratch_run);
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("run_all.sh: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_all_in(r.out, "crossroof: 1 benchmark run(s) on 1 device(s)", "toy-opencl on ", ": passed in ",
                  "Report: ");
    run_free(&r);
    sh("cp '%s'/*/toy-opencl.csv '%s/toy.csv'", scratch_run, tmp);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/toy.csv", tmp);
    table t = read_table(path);
    assert_int_equal(t.nrows, 1);
    assert_true(cell_is(&t, 0, "benchmark", "toy") && cell_is(&t, 0, "variant", "fill"));
    expect_all_valid(&t);
    assert_true(strtod(cell(&t, 0, "figure"), NULL) > 0);
    table_free(&t);
}

/* The report lists its CSV and shows its figure (drawn where gnuplot is). */
static void test_the_report_shows_it(void **state)
{
    (void)state;
    char *md = slurp_tmp("run/report.md");
    expect_all_in(md, "[toy-opencl.csv](", "toy-opencl | passed");
    if (system("command -v gnuplot >/dev/null 2>&1") == 0)
        expect_in(md, "toy-opencl-bar.png");
    free(md);
}

/* The database imports its rows and knows its headline, from its descriptor. */
static void test_the_database_has_it(void **state)
{
    (void)state;
    char cmd[4 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "(db='%s/%s/tools/crossroof-db' && \"$db\" --db '%s/toy.db' import '%s' && "
             "\"$db\" --db '%s/toy.db' query figure-across-devices toy fill uint32)",
             tree, variant, tmp, scratch_run, tmp);
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("crossroof-db: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_all_in(r.out, "imported 1 run(s)", "node,device,backend,dtype,figure,unit", ",opencl,uint32,", ",GB/s,");
    run_free(&r);
}

/* A wrong line in the descriptor is one line naming it, and the build
 * fails; run_all.sh refuses to run on it, in the same line. */
static void expect_refused_descriptor(const char *line, const char *says)
{
    sh("cd '%s/bench/toy' && cp descriptor descriptor.good && printf '%%s\\n' '%s' >>descriptor", tree, line);
    run_result r = make_in_copy("build/gen/descriptors.mk");
    if (r.status == 0 || count_lines(r.err) > 2 || strstr(r.err, says) == NULL)
        fail_msg("make with '%s': status %d, want an error saying '%s'\nstderr:\n%s", line, r.status, says, r.err);
    run_free(&r);
    char cmd[4 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "CROSSROOF_BIN='%s/%s/bin' '%s/run_all.sh' --quick --only toy --out '%s/refused'", tree,
             variant, tree, tmp);
    r = run_shell(cmd);
    expect_error_line(&r, "run_all.sh", "(a wrong descriptor)", 1, says);
    run_free(&r);
    sh("cd '%s/bench/toy' && mv descriptor.good descriptor", tree);
}

static void test_a_wrong_descriptor_fails_the_build(void **state)
{
    (void)state;
    expect_refused_descriptor("colour=blue", "bench/toy/descriptor:17: unknown key 'colour'");
    expect_refused_descriptor("quick_seconds=2", "bench/toy/descriptor:17: quick_seconds is given twice");
    expect_refused_descriptor("full_seconds=1.5",
                              "bench/toy/descriptor:17: full_seconds: '1.5' is not a whole number of seconds");
    expect_refused_descriptor("cuda_full_seconds=3", "bench/toy/descriptor: cuda_full_seconds: toy has no cuda backend");
    expect_refused_descriptor("figure=bars", "bench/toy/descriptor:17: figure bars: there is no bench/toy/figures/bars.gp");
    expect_refused_descriptor("xmodel_sweep=concurrency", "bench/toy/descriptor: xmodel_sweep without xmodel");
    expect_refused_descriptor("xmodel=memory", "bench/toy/descriptor: xmodel=memory without xmodel_sweep");
    expect_refused_descriptor("xmodel=application", "bench/toy/descriptor: xmodel=application without xmodel_sweep");
    expect_refused_descriptor("xmodel_accesses=0",
                              "bench/toy/descriptor:17: xmodel_accesses: '0' is not a whole number from 1 to 99");
}

TEST_MAIN(setup_tree, teardown, test_a_benchmark_is_its_folders, test_run_all_runs_it, test_the_report_shows_it,
          test_the_database_has_it, test_a_wrong_descriptor_fails_the_build)
