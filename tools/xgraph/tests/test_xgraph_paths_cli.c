/* End-to-end tests of what xgraph does with the paths it reads and writes
 * when something other than a regular file stands there: an input that is
 * named yet no file is refused, an output is replaced, never opened. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "shared/tests/corrupt_inputs.h"

#include <sys/stat.h>

static const char *tool = "../tools/xgraph";

/* What takes a file's place (a FIFO, a directory, a link to a device, a
 * dangling link), planted by a shell command on $P. */
static const char *const stand_ins[] = {"mkfifo \"$P\"", "mkdir \"$P\"", "ln -s /dev/zero \"$P\"",
                                        "ln -s \"$P.nowhere\" \"$P\""};

/* A fresh copy of the real run in TMP/NAME; its device's directory in run. */
static void fresh_run(const char *name, char run[300])
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    copy_real_run(dir);
    snprintf(run, 300, "%s/opencl-0-cpu", dir);
}

/* xgraph ARGS, stopped should it wait on a FIFO. */
static run_result xgraph_bounded(const char *args)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "timeout 20 %s/%s %s", bin_dir, tool, args);
    return run_shell(cmd);
}

/* An optional input named yet no regular readable file: refused, named, exit 1. */
static void test_inputs_that_are_no_files_are_refused(void **state)
{
    (void)state;
    static const char *const inputs[] = {"fma-opencl.csv", "latency-opencl.csv", "stream-opencl.meta.csv"};
    char run[300], args[400];
    for (size_t i = 0; i < countof(inputs); ++i)
        for (size_t k = 0; k < countof(stand_ins); ++k) {
            fresh_run("inputs", run);
            sh("cd '%s' && P='%s' && rm -f \"$P\" && %s", run, inputs[i], stand_ins[k]);
            snprintf(args, sizeof args, "'%s' --no-plot", run);
            run_result r = xgraph_bounded(args);
            if (r.status == 124)
                fail_msg("%s as %s: xgraph waited on it", inputs[i], stand_ins[k]);
            expect_error_on_stderr(&r, tool, args, 1, inputs[i]);
            run_free(&r);
        }
}

/* OUT/xgraph-<dtype>.dat and OUT/xgraph-app-<dtype>.dat with a FIFO or a
 * link in their place: replaced by the data file, the link's target
 * untouched, nothing waited on. */
static void test_outputs_replace_what_stands_in_their_place(void **state)
{
    (void)state;
    static const char *const outputs[] = {"xgraph-float.dat", "xgraph-app-float.dat", "xgraph-params.csv",
                                          "xgraph-app.csv"};
    static const char *const plants[] = {"mkfifo \"$P\"", "ln -s \"$T\" \"$P\""};
    char run[300], args[400], target[300], path[700];
    snprintf(target, sizeof target, "%s/link-target", tmp);
    for (size_t i = 0; i < countof(outputs); ++i)
        for (size_t k = 0; k < countof(plants); ++k) {
            fresh_run("outputs", run);
            remove(target);
            sh("cd '%s' && P='%s' T='%s' && rm -f \"$P\" && %s", run, outputs[i], target, plants[k]);
            snprintf(args, sizeof args, "'%s' --no-plot --app Z=2,E=1,n=8", run);
            run_result r = xgraph_bounded(args);
            if (r.status != 0)
                fail_msg("%s as %s: status %d, stderr: %s", outputs[i], plants[k], r.status, r.err);
            run_free(&r);
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", run, outputs[i]);
            assert_int_equal(lstat(path, &st), 0);
            if (!S_ISREG(st.st_mode))
                fail_msg("%s as %s: still no regular file", outputs[i], plants[k]);
            assert_true(st.st_size > 0);
            assert_int_not_equal(access(target, F_OK), 0);
        }
}

CLI_TEST_MAIN(test_inputs_that_are_no_files_are_refused, test_outputs_replace_what_stands_in_their_place)
