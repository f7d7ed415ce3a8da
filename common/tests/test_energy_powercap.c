/* The host's energy from recorded powercap trees: which domains count, how
 * their counters add up and unfold across a wrap, and the one-line reason
 * when nothing can be read. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "energy.h"
#include "tests/energy_fakes.h"
#include "tests/in_child.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PACKAGE_MAX 262143328850ull /* max_energy_range_uj of the recorded packages */
#define PACKAGE_0 183746529871ull   /* their package-0 energy_uj */
#define DRAM_0 9418734112ull

static char dir[128];
CR_SCRATCH_FIXTURES(dir, "energy-powercap")

/* A fresh copy of the recorded tree NAME in the scratch directory. */
static const char *tree(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(copy_tree(name, path), 0);
    return path;
}

static cr_status open_at(const char *root, cr_energy_meter **m, char *why, size_t len)
{
    cr_device_info info = host_cpu();
    cr_energy_source src = fake_source(root, NULL);
    fake_clock_reset(NULL);
    return cr_energy_open(&info, &src, m, why, len);
}

static cr_energy_meter *open_ok(const char *root) { return open_meter_ok(open_at, root); }

static void assert_says(const char *why, const char *expected)
{
    if (strstr(why, expected) == NULL)
        fail_msg("\"%s\" does not say \"%s\"", why, expected);
}

static void assert_unsupported(const char *root, const char *expected_why)
{
    char why[CR_ERRLEN];
    open_meter_unsupported(open_at, root, why, sizeof why);
    assert_says(why, expected_why);
    assert_null(strchr(why, '\n'));
}

static void test_package_and_its_dram_are_summed_not_the_core(void **state)
{
    (void)state;
    const char *root = tree("package-dram");
    cr_energy_meter *m = open_ok(root);
    assert_string_equal(cr_energy_sensor(m), "powercap:package-0+dram");
    assert_close(read_joules(m), 0.0, 0.0);
    write_zone_file(root, "intel-rapl:0", "energy_uj", PACKAGE_0 + 2000000);
    write_zone_file(root, "intel-rapl:0:1", "energy_uj", DRAM_0 + 500000);
    write_zone_file(root, "intel-rapl:0:0", "energy_uj", 40125377119ull + 7000000); /* core: inside the package */
    assert_close(read_joules(m), 2.5, 1e-9);
    write_zone_file(root, "intel-rapl:0", "energy_uj", PACKAGE_0 + 3000000);
    assert_close(read_joules(m), 3.5, 1e-9);
    cr_energy_close(m);
}

typedef struct {
    const char *zone;
    uint64_t uj;
} zone_count;

/* A fresh copy of the tree NAME opens as the sensor it names; its zones
 * then set to their counts, the meter reads joules. */
static void expect_tree(const char *name, const char *sensor, const zone_count *counts, size_t n, double joules)
{
    const char *root = tree(name);
    cr_energy_meter *m = open_ok(root);
    assert_string_equal(cr_energy_sensor(m), sensor);
    for (size_t i = 0; i < n; ++i)
        write_zone_file(root, counts[i].zone, "energy_uj", counts[i].uj);
    assert_close(read_joules(m), joules, 1e-9);
    cr_energy_close(m);
}

static void test_two_packages_each_with_dram(void **state)
{
    (void)state;
    const zone_count counts[] = {{"intel-rapl:0", PACKAGE_0 + 1000000},
                                 {"intel-rapl:0:0", DRAM_0 + 2000000},
                                 {"intel-rapl:1", 201337110457ull + 3000000},
                                 {"intel-rapl:1:0", 10266510044ull + 4000000}};
    expect_tree("two-packages", "powercap:package-0+dram+package-1+dram", counts, 4, 10.0);
}

static void test_a_wrapped_counter_unfolds(void **state)
{
    (void)state;
    const char *root = tree("package-dram");
    write_zone_file(root, "intel-rapl:0", "energy_uj", PACKAGE_MAX - 1000);
    cr_energy_meter *m = open_ok(root);
    write_zone_file(root, "intel-rapl:0", "energy_uj", 500);
    /* (500 - (max - 1000)) mod (max + 1): not negative, not 2^64 - ... */
    assert_close(read_joules(m), 1501e-6, 1e-12);
    write_zone_file(root, "intel-rapl:0", "energy_uj", 1500);
    assert_close(read_joules(m), 2501e-6, 1e-12);
    /* To exactly max, then round to 0: one more count. */
    write_zone_file(root, "intel-rapl:0", "energy_uj", PACKAGE_MAX);
    double at_max = read_joules(m);
    assert_close(at_max, (2501.0 + (double)(PACKAGE_MAX - 1500)) * 1e-6, 1e-9);
    write_zone_file(root, "intel-rapl:0", "energy_uj", 0);
    assert_close(read_joules(m) - at_max, 1e-6, 1e-9);
    cr_energy_close(m);
}

static void test_counter_delta_is_modulo_the_range(void **state)
{
    (void)state;
    assert_int_equal(cr_energy_counter_delta(PACKAGE_MAX - 1000, 500, PACKAGE_MAX), 1501);
    assert_int_equal(cr_energy_counter_delta(100, 350, PACKAGE_MAX), 250);
    assert_int_equal(cr_energy_counter_delta(7, 7, PACKAGE_MAX), 0);
    assert_int_equal(cr_energy_counter_delta(PACKAGE_MAX, 0, PACKAGE_MAX), 1);
    assert_int_equal(cr_energy_counter_delta(UINT64_MAX - 2, 3, UINT64_MAX), 6);
}

static void test_a_reading_above_the_range_or_not_a_count_is_an_error(void **state)
{
    (void)state;
    const char *root = tree("package-dram");
    cr_energy_meter *m = open_ok(root);
    double j;
    char err[CR_ERRLEN];
    write_zone_file(root, "intel-rapl:0", "energy_uj", PACKAGE_MAX + 1);
    assert_int_equal(cr_energy_read(m, &j, err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "intel-rapl:0/energy_uj: 262143328851 is above max_energy_range_uj 262143328850"));
    char path[512];
    snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", root);
    FILE *f = fopen(path, "w");
    fputs("12ab\n", f);
    fclose(f);
    assert_int_equal(cr_energy_read(m, &j, err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "intel-rapl:0/energy_uj: \"12ab\" is not a count"));
    cr_energy_close(m);
}

static void test_an_unreadable_counter_is_named(void **state)
{
    (void)state;
    assert_unsupported("common/tests/data/powercap-unreadable",
                       "common/tests/data/powercap-unreadable/intel-rapl:0/energy_uj: Is a directory");
}

typedef struct {
    const char *root;
    bool as_nobody;
} open_args;

typedef struct {
    cr_status st;
    char why[CR_ERRLEN];
} open_result;

/* The meter opened at args->root, as nobody where asked and this runs as
 * root (exit 77 where it cannot become nobody). */
static int open_body(void *ctx, void *out, size_t len)
{
    (void)len;
    const open_args *a = ctx;
    open_result *r = out;
    if (a->as_nobody && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        return 77;
    cr_energy_meter *m;
    r->st = open_at(a->root, &m, r->why, sizeof r->why);
    return 0;
}

/* Opens the meter at root in a child, which an alarm ends after 10 s: a
 * reader that blocks fails the test instead of hanging it. False where the
 * child could not become nobody. */
static bool open_in_child(const char *root, bool as_nobody, open_result *r)
{
    open_args a = {root, as_nobody};
    int rc = run_in_child(open_body, &a, 10, r, sizeof *r);
    if (rc > 128)
        fail_msg("opening %s did not return (signal %d)", root, rc - 128);
    if (rc == 77)
        return false;
    assert_int_equal(rc, 0);
    return true;
}

/* energy_uj as Linux 5.10 and later leave it: readable by root alone. Run
 * by root, the test opens it as nobody, in a child. */
static void test_a_root_only_counter_says_permission_denied(void **state)
{
    (void)state;
    const char *root = tree("package-dram");
    char path[512];
    snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", root);
    assert_int_equal(chmod(path, 0), 0);
    assert_int_equal(chmod(dir, 0755), 0);
    open_result r;
    if (!open_in_child(root, true, &r))
        skip();
    assert_int_equal(r.st, CR_UNSUPPORTED);
    char expected[600];
    snprintf(expected, sizeof expected, "%s: permission denied (root only since Linux 5.10", path);
    assert_says(r.why, expected);
}

/* A FIFO where a zone's FILE should be is refused, naming it, without
 * waiting for a writer. */
static void expect_fifo_refused(const char *zone, const char *file)
{
    const char *root = tree("package-dram");
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", root, zone, file);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
    open_result r;
    char expected[600];
    assert_true(open_in_child(root, false, &r));
    assert_int_equal(r.st, CR_UNSUPPORTED);
    snprintf(expected, sizeof expected, "%s: not a regular file (a FIFO)", path);
    assert_says(r.why, expected);
    assert_int_equal(unlink(path), 0);
}

static void test_a_fifo_for_a_counter_or_a_name_is_refused(void **state)
{
    (void)state;
    expect_fifo_refused("intel-rapl:0", "energy_uj");
    expect_fifo_refused("intel-rapl:0", "name");
    expect_fifo_refused("intel-rapl:0:1", "max_energy_range_uj");
}

static void test_an_empty_or_missing_tree_is_unsupported(void **state)
{
    (void)state;
    char empty[256];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    assert_int_equal(mkdir(empty, 0755), 0);
    char expected[400];
    snprintf(expected, sizeof expected, "no powercap domain under %s (no intel-rapl* or amd-rapl* package domain)",
             empty);
    assert_unsupported(empty, expected);
    snprintf(expected, sizeof expected, "no powercap domain under %s/absent (No such file or directory)", dir);
    snprintf(empty, sizeof empty, "%s/absent", dir);
    assert_unsupported(empty, expected);
    assert_unsupported("common/tests/data/powercap-no-zone",
                       "no powercap domain under common/tests/data/powercap-no-zone");
}

/* The control type's own directory, psys (which holds the package) and
 * intel-rapl-mmio (the package again) are no domains to add. */
static void test_only_the_package_of_a_laptop_tree_counts(void **state)
{
    (void)state;
    expect_tree("control-type", "powercap:package-0", NULL, 0, 0.0);
}

static void test_amd_rapl_is_read(void **state)
{
    (void)state;
    const zone_count counts[] = {{"amd-rapl:0", 7719340012ull + 4200000}};
    expect_tree("amd", "powercap:package-0", counts, 1, 4.2);
}

static void test_the_root_comes_from_the_environment(void **state)
{
    (void)state;
    cr_device_info info = host_cpu();
    cr_energy_source src = fake_source(NULL, NULL);
    fake_clock_reset(NULL);
    setenv("CROSSROOF_POWERCAP_ROOT", "common/tests/data/powercap-two-packages", 1);
    cr_energy_meter *m;
    char why[CR_ERRLEN];
    cr_status st = cr_energy_open(&info, &src, &m, why, sizeof why);
    unsetenv("CROSSROOF_POWERCAP_ROOT");
    assert_int_equal(st, CR_OK);
    assert_string_equal(cr_energy_sensor(m), "powercap:package-0+dram+package-1+dram");
    cr_energy_close(m);
}

/* A counter that stands still through the second of observation: the
 * interval is the documented one, and says so. */
static void test_a_still_counter_gets_the_documented_interval(void **state)
{
    (void)state;
    cr_energy_meter *m = open_ok("common/tests/data/powercap-package-dram");
    assert_close(cr_energy_interval_s(m), 1e-3, 0);
    assert_non_null(strstr(cr_energy_interval_basis(m), "documented: about 1 ms"));
    cr_energy_close(m);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_package_and_its_dram_are_summed_not_the_core,
          test_two_packages_each_with_dram, test_a_wrapped_counter_unfolds, test_counter_delta_is_modulo_the_range,
          test_a_reading_above_the_range_or_not_a_count_is_an_error, test_an_unreadable_counter_is_named,
          test_a_root_only_counter_says_permission_denied, test_a_fifo_for_a_counter_or_a_name_is_refused,
          test_an_empty_or_missing_tree_is_unsupported,
          test_only_the_package_of_a_laptop_tree_counts, test_amd_rapl_is_read,
          test_the_root_comes_from_the_environment,
          test_a_still_counter_gets_the_documented_interval)
