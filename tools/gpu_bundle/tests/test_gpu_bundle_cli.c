/* A GPU bundle end to end, assembled by tools/gpu_bundle/bundle.sh from the
 * executables under test: it holds run_all.sh and what that runs; every
 * library its ELF files need resolves inside it or is the machine's own;
 * its run_all.sh --gpu-check, on a PATH with no make, apt-get, compiler or
 * pip, installs and builds nothing and ends as the tree's does where there
 * is no GPU; without gnuplot a run says that the figures are skipped and
 * still writes its CSVs and report. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <dirent.h>
#include <limits.h>

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

static char real_bin[PATH_MAX]; /* the executables under test, absolute */
static char bundle[PATH_MAX];   /* TMP/bundle, assembled once */
static bool with_ptxas;         /* whether it carries nvcc's ptxas */

/* What run_all.sh and the scripts and tools it starts call; nothing that
 * installs or builds. Those not on this machine's PATH are left out. */
static const char *const commands[] = {"bash", "sh", "env", "dirname", "basename", "sed", "awk", "tr", "cut", "grep",
                                       "date", "hostname", "mkdir", "mv", "rm", "cat", "find", "sort", "tail",
                                       "head", "od", "setsid", "setpriv", "flock", "sleep", "tput", "uname", "wc",
                                       "nvidia-smi", "gnuplot"};

/* "--ptxas PATH" for the ptxas beside nvcc, where there is one. */
static const char *ptxas_option(void)
{
    static char opt[PATH_MAX + 16];
    run_result r = run_shell("p=$(command -v nvcc) && [ -x \"${p%/*}/ptxas\" ] && printf '%s' \"${p%/*}/ptxas\"");
    if (r.status == 0 && r.out[0] == '/')
        snprintf(opt, sizeof opt, "--ptxas %s", r.out);
    run_free(&r);
    return opt;
}

/* The bundle, assembled on the first call as make gpu-bundle does where
 * build/peers is absent, with the ptxas beside nvcc where there is one.
 * Sanitizer builds are larger than make gpu-bundle's 64 MiB: a limit of
 * their own. */
static const char *assembled(void)
{
    static bool done;
    if (done)
        return bundle;
    assert_non_null(realpath(bin_dir, real_bin));
    snprintf(bundle, sizeof bundle, "%s/bundle", tmp);
    const char *ptxas = ptxas_option();
    with_ptxas = ptxas[0] != '\0';
    char cmd[6 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "%s/tools/gpu_bundle/bundle.sh --bin %s --tools %s/../tools --peers %s/no-peers %s --max-mib 512 --out %s",
             CR_SOURCE_DIR, real_bin, real_bin, tmp, ptxas, bundle);
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("bundle.sh: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_in(r.out, "bundle.sh: no peers: ");
    expect_in(r.out, " MiB (limit 512 MiB)\n");
    run_free(&r);
    done = true;
    return bundle;
}

/* Whether the bundle holds the file REL. */
static bool in_bundle(const char *rel)
{
    char path[3 * PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", assembled(), rel);
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* TMP/NAME: a folder of links to the commands above, less hide (or none). */
static const char *stripped_path(const char *name, const char *hide)
{
    static char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    sh("rm -rf %s && mkdir %s", dir, dir);
    for (size_t i = 0; i < countof(commands); ++i)
        if (hide == NULL || strcmp(commands[i], hide) != 0)
            sh("p=$(command -v %s) && ln -s \"$p\" %s/ || true", commands[i], dir);
    sh("for c in make gcc cc nvcc apt-get pip pip3 python3 %s; do"
       "  env PATH=%s /bin/sh -c \"command -v $c\" >/dev/null && exit 1; done; exit 0",
       hide ? hide : "", dir);
    return dir;
}

/* A scratch copy of the bundle, TMP/NAME, and the list of its files. Its
 * folders are its own, its files hard links (ptxas alone is 36 MiB): a file
 * is replaced in it by removing it first. */
static void copy_bundle(const char *name)
{
    sh("rm -rf %s/%s && cp -al %s %s/%s && cd %s/%s && find . | sort >%s/%s.files", tmp, name, assembled(), tmp, name,
       tmp, name, tmp, name);
}

/* The copy's run_all.sh ARGS with nothing but PATH (and HOME) set. */
static run_result run_copy(const char *name, const char *path, const char *args)
{
    char cmd[6 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "env -i PATH=%s HOME=%s %s/%s/run_all.sh %s", path, tmp, tmp, name, args);
    return run_shell(cmd);
}

static void test_the_bundle_holds_what_run_all_runs(void **state)
{
    (void)state;
    static const char *const wanted[] = {"gpu-bundle.txt", "run_all.sh", "common/kv.sh", "common/run_args.sh",
                                         "common/csv_records.sh", "common/descriptor.sh", "plot/plot.sh",
                                         "bench/stream/descriptor", "bench/stream/figures/footprint.gp",
                                         "tools/peers.sh", "tools/peers/common.sh", "tools/peers/ratios.awk",
                                         "bench/stream/peers/babelstream_cuda.sh",
                                         "bench/bandwidth/peers/nvbandwidth.sh", "tools/slurm/crossroof-slurm.sh",
                                         "results/reference/lee2012-fig4.3.csv",
                                         "results/reference/ranasinghe2014-table5.1.csv", "build/tools/gpu-check",
                                         "build/tools/report", "build/tools/energy-levels", "build/lib/libhwloc.so.15",
                                         "build/lib/libgomp.so.1", "build/lib/libudev.so.1"};
    for (size_t i = 0; i < countof(wanted); ++i)
        if (!in_bundle(wanted[i]))
            fail_msg("%s is not in the bundle", wanted[i]);
    static const char *const scripts[] = {"run_all.sh", "plot/plot.sh", "tools/peers.sh"};
    for (size_t i = 0; i < countof(scripts); ++i) {
        char path[2 * PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", bundle, scripts[i]);
        if (access(path, X_OK) != 0)
            fail_msg("%s is not executable", path);
    }
    /* peers.sh finds its modes in the bundle as in the tree: those the GPU check runs are listed. */
    char cmd[2 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "env -i PATH=/usr/bin:/bin %s/tools/peers.sh --help", bundle);
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("the bundle's peers.sh --help: status %d\n%s", r.status, r.err);
    expect_in(r.out, "--babelstream-cuda PATH");
    expect_in(r.out, "--nvbandwidth PATH");
    run_free(&r);
    static const char *const machines[] = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1",
                                           "libcuda.so.1", "libnvidia-ml.so.1"};
    for (size_t i = 0; i < countof(machines); ++i) {
        char rel[64];
        snprintf(rel, sizeof rel, "build/lib/%s", machines[i]);
        if (in_bundle(rel))
            fail_msg("the machine's %s is in the bundle", machines[i]);
    }
    DIR *d = opendir(real_bin);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char rel[300];
        snprintf(rel, sizeof rel, "build/bin/%s", e->d_name);
        if (e->d_name[0] != '.' && !in_bundle(rel))
            fail_msg("%s/%s is not in the bundle", real_bin, e->d_name);
    }
    closedir(d);
    char *manifest = slurp_tmp("bundle/gpu-bundle.txt");
    expect_all_in(manifest, "needs: Linux ", ", glibc 2.", "benchmarks (build/bin): ", "libraries (build/lib): ",
                  "size: ");
    free(manifest);
}

static void test_every_library_resolves_inside_the_bundle(void **state)
{
    (void)state;
    char cmd[2 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "%s/tools/gpu_bundle/tests/resolves_inside.sh %s", CR_SOURCE_DIR, assembled());
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_in(r.out, " ELF files, ");
    run_free(&r);
    /* An executable as built, with no run path to the bundle's libraries,
     * finds the system's: the check names it. */
    copy_bundle("unpatched");
    sh("rm %s/unpatched/build/bin/stream-opencl && cp %s/stream-opencl %s/unpatched/build/bin/", tmp, real_bin, tmp);
    snprintf(cmd, sizeof cmd, "%s/tools/gpu_bundle/tests/resolves_inside.sh %s/unpatched", CR_SOURCE_DIR, tmp);
    r = run_shell(cmd);
    assert_int_equal(r.status, 1);
    expect_all_in(r.out, "build/bin/stream-opencl: libhwloc.so.15 from ", "outside the bundle");
    run_free(&r);
}

/* The executables at the top of a peers folder come in with their
 * libraries; what is not executable stays out. */
static void test_peers_come_in_with_their_libraries(void **state)
{
    (void)state;
    assembled();
    sh("mkdir -p %s/peers/sub && cp %s/../tools/crossroof-db %s/peers/nvbandwidth && echo notes >%s/peers/README "
       "&& cp %s/../tools/report %s/peers/sub/",
       tmp, real_bin, tmp, tmp, real_bin, tmp);
    char cmd[6 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "(%s/tools/gpu_bundle/bundle.sh --bin %s --tools %s/../tools --peers %s/peers --out %s/with-peers "
             "&& %s/tools/gpu_bundle/tests/resolves_inside.sh %s/with-peers)",
             CR_SOURCE_DIR, real_bin, real_bin, tmp, tmp, CR_SOURCE_DIR, tmp);
    run_result r = run_shell(cmd);
    if (r.status != 0)
        fail_msg("status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_in(r.out, " host tools, 1 peers, ");
    assert_null(strstr(r.out, "no peers"));
    char *manifest = slurp_tmp("with-peers/gpu-bundle.txt");
    expect_in(manifest, "peers (build/peers): nvbandwidth\n");
    free(manifest);
    free(slurp_tmp("with-peers/build/lib/libsqlite3.so.0"));
    run_free(&r);
    /* Over its limit it fails, saying so, and is left for a look. */
    snprintf(cmd, sizeof cmd, "%s/tools/gpu_bundle/bundle.sh --bin %s --tools %s/../tools --max-mib 1 --out %s/too-big",
             CR_SOURCE_DIR, real_bin, real_bin, tmp);
    r = run_shell(cmd);
    assert_int_equal(r.status, 1);
    expect_in(r.err, "MiB, over the 1 MiB a device machine is carried");
    free(slurp_tmp("too-big/gpu-bundle.txt"));
    run_free(&r);
}

/* The tree's run_all.sh --gpu-check on the same executables. */
static run_result tree_gpu_check(void)
{
    char cmd[6 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "CROSSROOF_BIN=%s CROSSROOF_TOOLS=%s/../tools %s/run_all.sh --gpu-check --out %s/tree-run",
             real_bin, real_bin, CR_SOURCE_DIR, tmp);
    return run_shell(cmd);
}

static void test_gpu_check_builds_nothing_and_ends_as_the_tree_does(void **state)
{
    (void)state;
    require_no_gpu();
    require_cuda_binary("stream-cuda");
    assembled();
    run_result tree = tree_gpu_check();
    assert_int_equal(tree.status, 77);
    copy_bundle("copy");
    run_result r = run_copy("copy", stripped_path("path", NULL), "--gpu-check");
    if (r.status != 77 || r.err[0] != '\0')
        fail_msg("status %d (want 77)\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    assert_string_equal(r.out, tree.out);
    expect_in(r.out, "crossroof: --gpu-check: nothing to check: no GPU is visible (");
    sh("cd %s/copy && find . | sort | cmp -s - %s/copy.files", tmp, tmp); /* nothing built, nothing left */
    run_free(&r);
    run_free(&tree);
}

static void test_without_gnuplot_the_gpu_check_says_figures_are_skipped(void **state)
{
    (void)state;
    require_no_gpu();
    require_cuda_binary("stream-cuda");
    copy_bundle("copy-ng");
    run_result r = run_copy("copy-ng", stripped_path("path-ng", "gnuplot"), "--gpu-check");
    if (r.status != 77 || r.err[0] != '\0')
        fail_msg("status %d (want 77)\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_all_in(r.out, "crossroof: not found: ",
                  "gnuplot (the figures are skipped; the CSVs, the report and the verdict are written)",
                  "\ncrossroof: --gpu-check: nothing to check: no GPU is visible (");
    run_free(&r);
}

/* A run that goes on without gnuplot writes its CSVs and report, draws no
 * figure and fails nothing for it. */
static void test_without_gnuplot_a_run_writes_its_csvs_and_report(void **state)
{
    (void)state;
    copy_bundle("copy-fake");
    sh("rm -f %s/copy-fake/build/bin/* && cat >%s/copy-fake/build/bin/fake-opencl <<'EOF'\n#!/bin/sh\n"
       "[ \"$1\" = --list-devices ] && { echo '0  (0:0)  Stand-in  [Stand; CPU]'; exit 0; }\n"
       "echo \"CUDA_HOME=$CUDA_HOME\"; while [ \"$1\" != --out ]; do shift; done\n"
       "printf 'benchmark,variant,valid\\nfake,only,1\\n' >\"$2/fake-opencl.csv\"\n"
       "printf 'key,value\\ndevice.name,Stand-in\\nbackend,opencl\\n' >\"$2/fake-opencl.meta.csv\"\nEOF\n"
       "chmod +x %s/copy-fake/build/bin/fake-opencl",
       tmp, tmp, tmp);
    char args[PATH_MAX];
    snprintf(args, sizeof args, "--out %s/no-figures", tmp);
    run_result r = run_copy("copy-fake", stripped_path("path-fake", "gnuplot"), args);
    if (r.status != 0)
        fail_msg("status %d (want 0)\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    expect_all_in(r.out, "crossroof: not found: gnuplot (the figures are skipped", "crossroof: writing the report",
                  "  passed   fake-opencl on Stand-in");
    assert_null(strstr(r.out, "FAILED"));
    char *csv = slurp_tmp("no-figures/opencl-0-Stand-in/fake-opencl.csv");
    expect_in(csv, "fake,only,1");
    free(csv);
    free(slurp_tmp("no-figures/report.md"));
    /* Where the bundle carries ptxas, regspill-cuda's offline spill table
     * finds it through CUDA_HOME. */
    char *log = slurp_tmp("no-figures/opencl-0-Stand-in/fake-opencl.log"), want[PATH_MAX];
    if (with_ptxas)
        snprintf(want, sizeof want, "CUDA_HOME=%s/copy-fake/build/cuda\n", tmp);
    else
        snprintf(want, sizeof want, "CUDA_HOME=\n");
    expect_in(log, want);
    free(log);
    run_free(&r);
}

CLI_TEST_MAIN(test_the_bundle_holds_what_run_all_runs, test_every_library_resolves_inside_the_bundle,
              test_peers_come_in_with_their_libraries,
              test_gpu_check_builds_nothing_and_ends_as_the_tree_does,
              test_without_gnuplot_the_gpu_check_says_figures_are_skipped,
              test_without_gnuplot_a_run_writes_its_csvs_and_report)
