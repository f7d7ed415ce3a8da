/* CSV quoting, atomic files, the result schema, metadata and the output
 * directory's lock. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "cr.h"
#include "csv.h"
#include "metadata.h"
#include "out_lock.h"
#include "results.h"
#include "tests/csv_reader.h"
#include "tests/in_child.h"
#include "tests/scratch_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a writer printed, into a buffer the next call reuses. */
static char written[256];

static FILE *write_to_buffer(void)
{
    memset(written, 0, sizeof written);
    FILE *f = fmemopen(written, sizeof written, "w");
    assert_non_null(f);
    return f;
}

static const char *field_text(const char *in)
{
    FILE *f = write_to_buffer();
    cr_csv_field(f, in);
    fclose(f);
    return written;
}

static const char *double_text(double v)
{
    FILE *f = write_to_buffer();
    cr_csv_double(f, v);
    fclose(f);
    return written;
}

static void test_quoting(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain", "plain"},
        {"", ""},
        {NULL, ""},
        {"a,b", "\"a,b\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"two\nlines", "\"two\nlines\""},
        {"cr\r", "\"cr\r\""},
        {" padded ", "\" padded \""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        assert_string_equal(field_text(cases[i].in), cases[i].out);
}

static void test_doubles(void **state)
{
    (void)state;
    assert_string_equal(double_text(NAN), "");
    assert_string_equal(double_text(0.5), "0.5");
    assert_true(fabs(strtod(double_text(1.0 / 3.0), NULL) - 1.0 / 3.0) < 1e-9);
    assert_string_equal(double_text(2.5e-9), "2.5e-09");
}

static char *slurp(const char *path)
{
    static char *last;
    free(last);
    last = csv_slurp(path);
    assert_non_null(last);
    return last;
}

static char tmpdir[64];

CR_SCRATCH_FIXTURES(tmpdir, "test")

static int files_in_tmpdir(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static cr_result sample_row(void)
{
    cr_result r = {.valid = true, .ref_ratio = NAN};
    snprintf(r.benchmark, sizeof r.benchmark, "stream");
    snprintf(r.backend, sizeof r.backend, "opencl");
    snprintf(r.device, sizeof r.device, "Device, with \"quotes\"");
    snprintf(r.variant, sizeof r.variant, "triad");
    snprintf(r.dtype, sizeof r.dtype, "double");
    snprintf(r.sweep, sizeof r.sweep, "fixed");
    r.size_bytes = UINT64_C(5) << 30; /* above 32 bits */
    r.work_items = 16;
    r.work_group = 1;
    r.bytes_per_rep = 3.0 * (double)r.size_bytes;
    r.stats = (cr_summary){.n = 12, .min = 0.5, .median = 0.6, .mean = 0.61, .max = 0.9, .stddev = 0.01, .ci_rel = INFINITY};
    snprintf(r.timer, sizeof r.timer, "event");
    snprintf(r.stop, sizeof r.stop, "stable");
    r.figure = r.bytes_per_rep / 0.6 * 1e-9;
    r.figure_best = r.bytes_per_rep / 0.5 * 1e-9;
    snprintf(r.unit, sizeof r.unit, "GB/s");
    snprintf(r.note, sizeof r.note, "line one\nline two");
    return r;
}

static void test_result_table_round_trip(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/t.csv", tmpdir);
    cr_result_table t;
    cr_table_init(&t, path);
    char err[CR_ERRLEN];
    assert_int_equal(cr_table_flush(&t, err, sizeof err), 0);
    const char *text = slurp(path);
    csv_record fields;
    assert_int_equal(csv_next(&text, fields), (int)cr_result_ncolumns);
    assert_string_equal(fields[0], "benchmark");
    assert_string_equal(fields[cr_result_ncolumns - 1], "note");
    assert_string_equal(text, ""); /* header only */

    cr_result r = sample_row();
    assert_int_equal(cr_table_add(&t, &r, err, sizeof err), 0);
    r.valid = false;
    r.ref_ratio = 0.97;
    assert_int_equal(cr_table_add(&t, &r, err, sizeof err), 0);
    text = slurp(path);
    csv_record header;
    assert_int_equal(csv_next(&text, header), (int)cr_result_ncolumns);
    for (int row = 0; row < 2; ++row) {
        assert_int_equal(csv_next(&text, fields), (int)cr_result_ncolumns);
        for (size_t c = 0; c < cr_result_ncolumns; ++c) {
            const char *name = header[c];
            if (!strcmp(name, "device"))
                assert_string_equal(fields[c], "Device, with \"quotes\"");
            if (!strcmp(name, "size_bytes"))
                assert_string_equal(fields[c], "5368709120");
            if (!strcmp(name, "ci_rel"))
                assert_string_equal(fields[c], ""); /* infinite interval: unknown */
            if (!strcmp(name, "valid"))
                assert_string_equal(fields[c], row == 0 ? "1" : "0");
            if (!strcmp(name, "ref_ratio"))
                assert_string_equal(fields[c], row == 0 ? "" : "0.97");
            if (!strcmp(name, "note"))
                assert_string_equal(fields[c], "line one\nline two");
            if (!strcmp(name, "n"))
                assert_string_equal(fields[c], "12");
        }
    }
    assert_string_equal(text, "");
    assert_int_equal(files_in_tmpdir(), 1); /* no temporary files left */
    cr_table_free(&t);
}

static int failing_writer(FILE *f, void *ctx)
{
    (void)ctx;
    fputs("partial", f);
    return -1;
}

static int good_writer(FILE *f, void *ctx)
{
    fputs(ctx, f);
    return 0;
}

/* An infinite figure or statistic is written as no number, and the row is
 * invalid with the column named; finite rows are left alone. */
static void test_infinities_are_refused(void **state)
{
    (void)state;
    cr_result r = {.valid = true, .figure = INFINITY, .ref_ratio = 1.5, .figure_best = NAN};
    r.stats.median = -INFINITY;
    snprintf(r.note, sizeof r.note, "seen");
    assert_int_equal(cr_result_refuse_infinities(&r), 2);
    assert_false(r.valid);
    assert_true(isnan(r.figure) && isnan(r.stats.median));
    assert_true(r.ref_ratio == 1.5);
    assert_string_equal(r.note, "seen; median_s was infinite: no measurement; figure was infinite: no measurement");
    cr_result ok = {.valid = true, .figure = 3, .figure_best = NAN};
    assert_int_equal(cr_result_refuse_infinities(&ok), 0);
    assert_true(ok.valid && ok.figure == 3 && ok.note[0] == '\0');
}

/* A parameter that is no finite number is left out, and the note says
 * which; the others stay, in their order. */
static void test_nonfinite_params_are_left_out(void **state)
{
    (void)state;
    cr_result r = {.valid = true};
    snprintf(r.params, sizeof r.params, "predicted_ms=1.5;composed_ms=nan;k=1,2;x=-inf;special_ok=3/4;n=1e999");
    assert_int_equal(cr_result_drop_nonfinite_params(&r), 3);
    assert_string_equal(r.params, "predicted_ms=1.5;k=1,2;special_ok=3/4");
    assert_true(r.valid);
    assert_string_equal(r.note, "parameter composed_ms was not a number: left out; parameter x was infinite: left "
                                "out; parameter n was infinite: left out");
    cr_result ok = {.valid = true};
    snprintf(ok.params, sizeof ok.params, "ilp=4;level=L1;drop=-0.5");
    assert_int_equal(cr_result_drop_nonfinite_params(&ok), 0);
    assert_string_equal(ok.params, "ilp=4;level=L1;drop=-0.5");
}

static void test_atomic_write_keeps_old_file_on_failure(void **state)
{
    (void)state;
    char path[128], err[CR_ERRLEN];
    snprintf(path, sizeof path, "%s/a.txt", tmpdir);
    assert_int_equal(cr_write_atomic(path, good_writer, "complete\n", err, sizeof err), 0);
    assert_int_equal(cr_write_atomic(path, failing_writer, NULL, err, sizeof err), -1);
    assert_string_equal(slurp(path), "complete\n");
    snprintf(path, sizeof path, "%s/missing-dir/a.txt", tmpdir);
    assert_int_equal(cr_write_atomic(path, good_writer, "x", err, sizeof err), -1);
    assert_non_null(strstr(err, "missing-dir"));
}

/* A writer stopped by a signal while it writes: the file under its
 * temporary name must go with it. */
typedef struct {
    int sig;
    bool ignored; /* by the program before it writes */
} stop_case;

static int stopped_writer(FILE *f, void *ctx)
{
    fputs("half", f);
    fflush(f);
    kill(getpid(), ((const stop_case *)ctx)->sig);
    return 0;
}

static int write_and_stop(void *ctx, void *out, size_t len)
{
    (void)out, (void)len;
    char path[128], err[CR_ERRLEN];
    snprintf(path, sizeof path, "%s/stopped.csv", tmpdir);
    /* What the program was started with: a shell's background job ignores
     * SIGINT, say, and that is left as it is. */
    const stop_case *c = ctx;
    signal(c->sig, c->ignored ? SIG_IGN : SIG_DFL);
    return cr_write_atomic(path, stopped_writer, ctx, err, sizeof err) == 0 ? 0 : 3;
}

static void test_atomic_write_stopped_leaves_nothing(void **state)
{
    (void)state;
    static const stop_case stops[] = {{SIGTERM, false}, {SIGINT, false}, {SIGHUP, false}};
    int before = files_in_tmpdir();
    char unused[1];
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; ++i) {
        assert_int_equal(run_in_child(write_and_stop, (void *)&stops[i], 10, unused, sizeof unused),
                         128 + stops[i].sig);
        assert_int_equal(files_in_tmpdir(), before);
    }
    /* A signal the program ignores stays ignored: the file is written. */
    stop_case ignored = {SIGHUP, true};
    assert_int_equal(run_in_child(write_and_stop, &ignored, 10, unused, sizeof unused), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/stopped.csv", tmpdir);
    assert_string_equal(slurp(path), "half");
    assert_int_equal(files_in_tmpdir(), before + 1);
    unlink(path);
}

/* Files that go together: neither is there before the commit, both after;
 * a stop before the commit leaves neither, nor their temporaries. */
static int stage_two_and_stop(void *ctx, void *out, size_t len)
{
    (void)out, (void)len;
    char a[128], b[128], err[CR_ERRLEN];
    snprintf(a, sizeof a, "%s/pair.html", tmpdir);
    snprintf(b, sizeof b, "%s/pair.md", tmpdir);
    cr_staged s[2];
    signal(SIGTERM, SIG_DFL); /* as a program started in the foreground has it */
    if (cr_write_staged(&s[0], a, good_writer, "html", err, sizeof err) != 0 ||
        cr_write_staged(&s[1], b, good_writer, "md", err, sizeof err) != 0)
        return 3;
    if (access(a, F_OK) == 0 || access(b, F_OK) == 0)
        return 4;
    if (*(const bool *)ctx)
        kill(getpid(), SIGTERM);
    return cr_staged_commit(s, 2, err, sizeof err) == 0 ? 0 : 5;
}

static void test_staged_files_appear_together(void **state)
{
    (void)state;
    int before = files_in_tmpdir();
    char unused[1];
    bool stop = true;
    assert_int_equal(run_in_child(stage_two_and_stop, &stop, 10, unused, sizeof unused), 128 + SIGTERM);
    assert_int_equal(files_in_tmpdir(), before);
    stop = false;
    assert_int_equal(run_in_child(stage_two_and_stop, &stop, 10, unused, sizeof unused), 0);
    assert_int_equal(files_in_tmpdir(), before + 2);
    char path[128];
    snprintf(path, sizeof path, "%s/pair.html", tmpdir);
    assert_string_equal(slurp(path), "html");
    unlink(path);
    snprintf(path, sizeof path, "%s/pair.md", tmpdir);
    assert_string_equal(slurp(path), "md");
    unlink(path);
}

static void test_mkdirs(void **state)
{
    (void)state;
    char path[128], err[CR_ERRLEN];
    snprintf(path, sizeof path, "%s/x/y/z", tmpdir);
    assert_int_equal(cr_mkdirs(path, err, sizeof err), 0);
    assert_int_equal(cr_mkdirs(path, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    snprintf(path, sizeof path, "%s/file", tmpdir);
    assert_int_equal(cr_write_atomic(path, good_writer, "x", err, sizeof err), 0);
    char below[160];
    snprintf(below, sizeof below, "%s/sub", path);
    assert_int_equal(cr_mkdirs(below, err, sizeof err), -1);
}

/* The check makes what cr_mkdirs would and removes it again; what was
 * there stays, and what cr_mkdirs refuses it refuses with the same words. */
static void test_mkdirs_check(void **state)
{
    (void)state;
    char path[256], err[CR_ERRLEN], made[160];
    struct stat st;
    snprintf(made, sizeof made, "%s/check", tmpdir);
    snprintf(path, sizeof path, "%s/a/b/", made);
    assert_int_equal(cr_mkdirs_check(path, err, sizeof err), 0);
    assert_int_not_equal(stat(made, &st), 0);
    assert_int_equal(cr_mkdirs(made, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/a/b", made);
    assert_int_equal(cr_mkdirs_check(path, err, sizeof err), 0);
    assert_int_equal(stat(made, &st), 0); /* there before: kept */
    snprintf(path, sizeof path, "%s/a", made);
    assert_int_not_equal(stat(path, &st), 0);
    assert_int_equal(cr_mkdirs_check(made, err, sizeof err), 0);
    assert_int_equal(stat(made, &st), 0);
    snprintf(path, sizeof path, "%s/file", made);
    assert_int_equal(cr_write_atomic(path, good_writer, "x", err, sizeof err), 0);
    assert_int_equal(cr_mkdirs_check(path, err, sizeof err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s exists and is not a directory", path);
    assert_string_equal(err, want);
    snprintf(path, sizeof path, "%s/new/file/x", made);
    assert_int_equal(cr_mkdirs_check(path, err, sizeof err), 0); /* new/file/x can be made */
    snprintf(path, sizeof path, "%s/file/x", made);
    assert_int_equal(cr_mkdirs_check(path, err, sizeof err), -1); /* below a file: cannot */
    assert_int_equal(cr_mkdirs_check("/proc/crossroof-check/x", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot create directory /proc/crossroof-check"));
    snprintf(path, sizeof path, "%s/new", made);
    assert_int_not_equal(stat(path, &st), 0);
}

static void test_metadata(void **state)
{
    (void)state;
    cr_meta m;
    cr_meta_init(&m);
    char *argv[] = {"prog", "--size", "1G"};
    cr_topology *topo = cr_topo_open();
    assert_non_null(topo);
    cr_meta_collect_host(&m, topo, 3, argv);
    cr_device_info d = {.compute_units = 4, .global_mem_bytes = UINT64_C(8) << 30};
    snprintf(d.name, sizeof d.name, "Test device");
    cr_meta_add_device(&m, &d);
    cr_meta_set(&m, "device.name", "renamed, twice");
    assert_string_equal(cr_meta_get(&m, "command_line"), "prog --size 1G");
    assert_string_equal(cr_meta_get(&m, "device.name"), "renamed, twice");
    assert_string_equal(cr_meta_get(&m, "device.global_mem_bytes"), "8589934592");
    assert_non_null(strstr(cr_meta_get(&m, "topology"), "NUMA"));
    assert_non_null(strstr(cr_meta_get(&m, "topology"), "cores"));
    assert_true(strtoull(cr_meta_get(&m, "llc_bytes"), NULL, 10) > 0);
    assert_true(strlen(cr_meta_get(&m, "git_revision")) > 0);
    assert_null(cr_meta_get(&m, "no-such-key"));
    char path[128], err[CR_ERRLEN];
    snprintf(path, sizeof path, "%s/m.csv", tmpdir);
    assert_int_equal(cr_meta_write(&m, path, err, sizeof err), 0);
    const char *text = slurp(path);
    csv_record fields;
    assert_int_equal(csv_next(&text, fields), 2);
    assert_string_equal(fields[0], "key");
    int found = 0;
    while (*text) {
        assert_int_equal(csv_next(&text, fields), 2);
        found += !strcmp(fields[0], "device.name") && !strcmp(fields[1], "renamed, twice");
    }
    assert_int_equal(found, 1);
    cr_meta_free(&m);
    cr_topo_close(topo);
}

static void test_topology_allocation(void **state)
{
    (void)state;
    cr_topology *topo = cr_topo_open();
    assert_non_null(topo);
    assert_true(cr_topo_cores(topo) >= 1);
    assert_true(cr_topo_numa_nodes(topo) >= 1);
    char note[256];
    assert_false(cr_topo_bind_near_pci(topo, "", note, sizeof note));
    assert_non_null(strstr(note, "no PCI location"));
    assert_false(cr_topo_bind_near_pci(topo, "ffff:ff:1f.7", note, sizeof note));
    char *p = cr_topo_alloc(topo, 1 << 20);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 4096, 0);
    memset(p, 1, 1 << 20);
    cr_topo_free(topo, p, 1 << 20);
    p = cr_topo_alloc(NULL, 100);
    assert_non_null(p);
    cr_topo_free(NULL, p, 100);
    cr_topo_close(topo);
}

/* One holder at a time, another refused naming the holder's pid, free
 * again once released: runs one after another share a directory (as
 * run_all.sh's do), runs at the same time never. */
static void test_output_lock(void **state)
{
    (void)state;
    char dir[160], err[CR_ERRLEN + 200], want[256];
    snprintf(dir, sizeof dir, "%s/locked", tmpdir);
    assert_int_equal(cr_mkdirs(dir, err, sizeof err), 0);
    int first, second;
    assert_int_equal(cr_out_lock(dir, &first, err, sizeof err), CR_LOCK_TAKEN);
    assert_true(first >= 0);
    assert_true(fcntl(first, F_GETFD) & FD_CLOEXEC); /* no child keeps it */
    assert_int_equal(cr_out_lock(dir, &second, err, sizeof err), CR_LOCK_BUSY);
    assert_int_equal(second, -1);
    snprintf(want, sizeof want, "%s is being written by another run (pid %ld)", dir, (long)getpid());
    assert_string_equal(err, want);
    cr_out_unlock(&first);
    assert_int_equal(first, -1);
    cr_out_unlock(&first); /* twice is harmless */
    assert_int_equal(cr_out_lock(dir, &second, err, sizeof err), CR_LOCK_TAKEN);
    cr_out_unlock(&second);
    /* Not a held lock but a missing directory: an error of its own. */
    snprintf(dir, sizeof dir, "%s/no-such-dir", tmpdir);
    assert_int_equal(cr_out_lock(dir, &first, err, sizeof err), CR_LOCK_ERROR);
    assert_non_null(strstr(err, "no-such-dir/" CR_OUT_LOCK_NAME));
    /* A lock that is a link to elsewhere is refused, and nothing is written there. */
    char link[300], target[200];
    snprintf(dir, sizeof dir, "%s/linked", tmpdir);
    assert_int_equal(cr_mkdirs(dir, err, sizeof err), 0);
    snprintf(link, sizeof link, "%s/" CR_OUT_LOCK_NAME, dir);
    snprintf(target, sizeof target, "%s/elsewhere", tmpdir);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(cr_out_lock(dir, &first, err, sizeof err), CR_LOCK_ERROR);
    assert_non_null(strstr(err, "a symbolic link"));
    assert_int_not_equal(access(target, F_OK), 0);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_quoting, test_doubles, test_result_table_round_trip,
          test_infinities_are_refused, test_nonfinite_params_are_left_out,
          test_atomic_write_keeps_old_file_on_failure, test_atomic_write_stopped_leaves_nothing, test_staged_files_appear_together, test_mkdirs, test_mkdirs_check, test_metadata, test_topology_allocation,
          test_output_lock)
