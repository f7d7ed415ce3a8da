#define _GNU_SOURCE
/* The host's cache description, read from a copy of sysfs's layout: data
 * and unified caches by level, instruction caches left out, sizes in K
 * and M, levels only without a gap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/reference.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/cache_reference_XXXXXX";

static void put(unsigned index, const char *name, const char *value)
{
    char path[256];
    snprintf(path, sizeof path, "%s/index%u", dir, index);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/index%u/%s", dir, index, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", value);
    fclose(f);
}

static void cache(unsigned index, const char *level, const char *type, const char *size, const char *ways,
                  const char *line, const char *sets)
{
    put(index, "level", level);
    put(index, "type", type);
    put(index, "size", size);
    put(index, "ways_of_associativity", ways);
    put(index, "coherency_line_size", line);
    put(index, "number_of_sets", sets);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_levels_from_sysfs(void **state)
{
    (void)state;
    cache(0, "1", "Data", "48K", "12", "64", "64");
    cache(1, "1", "Instruction", "32K", "8", "64", "64");
    cache(2, "2", "Unified", "2048K", "16", "64", "2048");
    cache(3, "3", "Unified", "32M", "16", "64", "32768");
    put(3, "shared_cpu_list", "0-7");
    cc_reference r;
    assert_int_equal(cc_reference_read(dir, &r), 3);
    assert_int_equal(r.level[0].size, 48 << 10);
    assert_int_equal(r.level[0].ways, 12);
    assert_int_equal(r.level[0].line, 64);
    assert_int_equal(r.level[0].sets, 64);
    assert_int_equal(r.level[1].size, 2048 << 10);
    assert_int_equal(r.level[1].ways, 16);
    assert_int_equal(r.level[2].size, UINT64_C(32) << 20);
    assert_int_equal(r.level[2].sets, 32768);
    assert_string_equal(r.level[2].shared_cpus, "0-7");
    assert_string_equal(r.level[0].shared_cpus, "");
}

static void test_no_sysfs_no_levels(void **state)
{
    (void)state;
    cc_reference r;
    assert_int_equal(cc_reference_read("/nonexistent/cache", &r), 0);
}

TEST_MAIN(setup, teardown, test_levels_from_sysfs, test_no_sysfs_no_levels)
