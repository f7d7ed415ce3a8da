/* Energy end to end: a benchmark run on PoCL with a powercap tree whose
 * counters a thread of this test advances as a CPU package would (a
 * static draw plus a part that follows the benchmark's own CPU time); the
 * package counter is set to wrap a quarter of a second after the benchmark
 * first reads it, inside its measurement of the static power. And the runs
 * without a sensor, which say why in one row and still pass. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <math.h>
#include <pthread.h>
#include <sys/inotify.h>
#include <time.h>

#define RANGE_UJ UINT64_C(262143328850)
#define STATIC_W 10.0  /* the package's draw with the benchmark idle */
#define BUSY_W 20.0    /* and what one core of the benchmark adds */
#define DRAM_W 2.0

static char tree[256], pid_file[256];
static volatile int powered;
static long update_ns = 1000000; /* how often the tree's counters move */

static void write_counter(const char *zone, uint64_t uj)
{
    char path[512], tmp_path[520];
    snprintf(path, sizeof path, "%s/%s/energy_uj", tree, zone);
    snprintf(tmp_path, sizeof tmp_path, "%s.new", path);
    FILE *f = fopen(tmp_path, "w");
    if (f == NULL)
        return;
    fprintf(f, "%llu\n", (unsigned long long)uj);
    fclose(f);
    rename(tmp_path, path); /* a reader sees the old count or the new one, never half */
}

/* CPU seconds the benchmark has used, from /proc; 0 before it started. */
static double cpu_seconds(void)
{
    FILE *f = fopen(pid_file, "r");
    long pid = 0;
    if (f == NULL || fscanf(f, "%ld", &pid) != 1 || pid <= 0) {
        if (f)
            fclose(f);
        return 0;
    }
    fclose(f);
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long utime = 0, stime = 0;
    if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return 0;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether the package's energy_uj was opened since the last call. */
static bool package_read(int watch_fd)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    bool read_it = false;
    ssize_t n;
    while ((n = read(watch_fd, buf, sizeof buf)) > 0)
        for (char *p = buf; p < buf + n; p += sizeof(struct inotify_event) + ((struct inotify_event *)p)->len) {
            const struct inotify_event *e = (const struct inotify_event *)p;
            read_it |= e->len > 0 && strcmp(e->name, "energy_uj") == 0;
        }
    return read_it;
}

/* Every millisecond: the package gains the static draw plus BUSY_W per
 * core the benchmark kept busy (its CPU time over the last 50 ms), DRAM a
 * constant draw. The counters wrap as RAPL's do: at the first read, the
 * package is set STATIC_W x 0.25 s below its wrap. */
static void *power_source(void *arg)
{
    (void)arg;
    char zone[300];
    snprintf(zone, sizeof zone, "%s/intel-rapl:0", tree);
    int watch_fd = inotify_init1(IN_NONBLOCK);
    bool armed = watch_fd < 0 || inotify_add_watch(watch_fd, zone, IN_OPEN) < 0;
    double package = 1e6, dram = 0;
    double t = now_s(), cpu_t = t, cpu = cpu_seconds(), busy = 0;
    while (powered) {
        if (!armed && package_read(watch_fd)) {
            package = (double)RANGE_UJ - STATIC_W * 0.25 * 1e6;
            armed = true;
        }
        nanosleep(&(struct timespec){0, update_ns}, NULL);
        double t1 = now_s(), dt = t1 - t;
        t = t1;
        if (t1 - cpu_t >= 0.05) {
            double c = cpu_seconds();
            busy = c > cpu ? (c - cpu) / (t1 - cpu_t) : 0;
            cpu = c;
            cpu_t = t1;
        }
        package += (STATIC_W + BUSY_W * busy) * dt * 1e6;
        dram += DRAM_W * dt * 1e6;
        package = fmod(package, (double)RANGE_UJ + 1);
        write_counter("intel-rapl:0", (uint64_t)package);
        write_counter("intel-rapl:0:1", (uint64_t)dram);
    }
    if (watch_fd >= 0)
        close(watch_fd);
    return NULL;
}

static double number(const table *t, int row, const char *col)
{
    const char *v = cell(t, row, col);
    if (v[0] == '\0')
        fail_msg("row %d: %s is empty; note: %s; params: %s", row, col, cell(t, row, "note"), cell(t, row, "params"));
    return strtod(v, NULL);
}

/* stream-opencl on the tree, its counters moving every update_ns while
 * it runs, with the options given after --out DIR/name. Arrays of 16 Mi
 * floats: repetitions of tens of milliseconds keep the CPU device busy
 * for most of the energy window (of 4 Mi, under 90% of it, and the point
 * would have no energy of its own). */
static void run_on_tree(const char *name, const char *options)
{
    snprintf(tree, sizeof tree, "%s/powercap-%s", tmp, name);
    snprintf(pid_file, sizeof pid_file, "%s/bench.pid", tmp);
    sh("cp -R '%s/common/tests/data/powercap-package-dram' '%s'", CR_SOURCE_DIR, tree);
    sh("rm -f '%s'", pid_file);
    powered = 1;
    pthread_t source;
    assert_int_equal(pthread_create(&source, NULL, power_source, NULL), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "CROSSROOF_POWERCAP_ROOT='%s' sh -c 'echo $$ > \"%s\"; exec \"%s/stream-opencl\" --quick --sweeps fixed "
             "--dtype float --size 16M --host-ref off --out \"%s/%s\" %s'",
             tree, pid_file, bin_dir, tmp, name, options);
    run_result r = run_shell(cmd);
    powered = 0;
    pthread_join(source, NULL);
    if (r.status != 0)
        fail_msg("status %d, stderr:\n%s", r.status, r.err);
    run_free(&r);
}

/* Every row of the CSV stream-opencl wrote under tmp/name, the energy row
 * included. */
static table results_of(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/stream-opencl.csv", tmp, name);
    return read_table_with(path, true);
}

/* The row saying why the run has no energy; fails where there is none. */
static int sensor_row(const table *t)
{
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "sweep", "sensor"))
            return j;
    fail_msg("no energy row");
    return -1;
}

static void test_energy_from_a_powercap_tree(void **state)
{
    (void)state;
    update_ns = 1000000;
    run_on_tree("energy", "--kernels triad --energy on");
    table t = results_of("energy");
    assert_int_equal(count_where(&t, "sweep", "sensor", NULL), 0); /* a sensor: no row saying there is none */
    int measured = 0;
    for (int j = 0; j < t.nrows; ++j) {
        if (!cell_is(&t, j, "variant", "triad"))
            continue;
        ++measured;
        assert_string_equal(cell(&t, j, "energy_sensor"), "powercap:package-0+dram");
        double static_w = number(&t, j, "static_w");
        /* What the tree drew with the benchmark asleep, within what one
         * busy core's ticks can blur. */
        if (!(static_w > STATIC_W + DRAM_W - 1 && static_w < STATIC_W + DRAM_W + BUSY_W))
            fail_msg("static power %g W", static_w);
        /* A point the CPU idled through (the machine shared with other
         * work, whose threads kept the benchmark's waiting) has no energy of
         * its own: flagged, its busy share below the rule, its cells empty. */
        const char *busy = param_at(&t, j, "energy_busy");
        assert_non_null(busy);
        if (strstr(cell(&t, j, "flags"), "energy-idle")) {
            assert_true(strtod(busy, NULL) < 0.9);
            assert_string_equal(cell(&t, j, "energy_j"), "");
            assert_string_equal(cell(&t, j, "pj_per_byte"), "");
            print_message("the device was busy %.5s of the energy window: its energy is left out, as it should be\n",
                          busy);
            continue;
        }
        /* Across the package's wrap: a wrap taken for a drop would give
         * hundreds of kilojoules, or a negative count. */
        double power = number(&t, j, "power_w");
        if (!(power > 0 && power < 2 * BUSY_W * (double)sysconf(_SC_NPROCESSORS_ONLN)))
            fail_msg("dynamic power %g W", power);
        double joules = number(&t, j, "energy_j"), bytes = number(&t, j, "bytes_per_rep");
        double pj = number(&t, j, "pj_per_byte");
        if (!(fabs(pj - joules / bytes * 1e12) <= 1e-6 * pj))
            fail_msg("pj_per_byte %g is not energy_j %g over %g bytes", pj, joules, bytes);
        double interval = number(&t, j, "energy_interval_s");
        if (!(interval > 0 && interval < 0.1))
            fail_msg("sensor interval %g s", interval);
        assert_non_null(param_at(&t, j, "energy_reps"));
    }
    assert_int_equal(measured, 1);
    table_free(&t);
    char *meta = slurp_tmp("energy/stream-opencl.meta.csv");
    expect_all_in(meta, "energy.sensor,powercap:package-0+dram", "energy.static_w,", "energy.interval_s,");
    free(meta);
}

/* A sensor that updates every 30 ms would need 1.5 s a point: auto leaves
 * it out and says why; --energy on measures it. */
static void test_a_slow_sensor_is_measured_when_asked(void **state)
{
    (void)state;
    update_ns = 30000000;
    run_on_tree("slow-auto", "--kernels copy");
    table t = results_of("slow-auto");
    int row = sensor_row(&t);
    expect_cell_has(&t, row, "note", "not measured by default: powercap:package-0+dram updates every");
    expect_cell_has(&t, row, "note", "--energy on measures it");
    table_free(&t);

    run_on_tree("slow-on", "--kernels copy --energy on");
    t = results_of("slow-on");
    assert_int_equal(count_where(&t, "sweep", "sensor", NULL), 0);
    assert_int_equal(count_where(&t, "variant", "copy", "energy_sensor", "powercap:package-0+dram", NULL), 1);
    table_free(&t);
}

/* Without a sensor: one row says why, every other row is as before, and
 * the run passes; --energy on makes it an error, --energy off says so. */
static void test_without_a_sensor(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "--quick --sweeps fixed --kernels copy --dtype float --size 1M --host-ref off --out %s/none",
             tmp);
    run_result r = run_with_status(0, NULL, "stream-opencl", args);
    run_free(&r);
    table t = results_of("none");
    assert_int_equal(count_where(&t, "variant", "energy", "sweep", "sensor", "stop", "unsupported", "valid", "1",
                                 "energy_sensor", "none", NULL),
                     1);
    for (int j = 0; j < t.nrows; ++j)
        if (cell_is(&t, j, "sweep", "sensor"))
            expect_cell_has(&t, j, "note", "no energy sensor: no powercap domain under /nonexistent/powercap");
        else
            assert_string_equal(cell(&t, j, "energy_j"), "");
    table_free(&t);

    snprintf(args, sizeof args, "--quick --sweeps fixed --kernels copy --dtype float --size 1M --energy on --out %s/on",
             tmp);
    r = run(NULL, "stream-opencl", args);
    expect_error_line(&r, "stream-opencl", args, 1, "--energy on: no powercap domain");
    run_free(&r);

    snprintf(args, sizeof args, "--quick --sweeps fixed --kernels copy --dtype float --size 1M --host-ref off "
                                "--energy off --out %s/off", tmp);
    r = run_with_status(0, NULL, "stream-opencl", args);
    run_free(&r);
    t = results_of("off");
    expect_cell_has(&t, sensor_row(&t), "note", "--energy off");
    table_free(&t);

    expect_error("stream-opencl", "--energy sometimes", 2, "--energy: 'sometimes' is not auto, on or off");
    expect_error("stream-opencl", "--energy-time 0", 2, "--energy-time");
    expect_error("stream-opencl", "--energy off --energy-time 0.5", 2,
                 "--energy-time has no effect with --energy off");
}

CLI_TEST_MAIN(test_energy_from_a_powercap_tree, test_a_slow_sensor_is_measured_when_asked, test_without_a_sensor)
