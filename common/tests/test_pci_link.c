/* The PCIe link recorded in the metadata, read from a copy of sysfs laid
 * out as the kernel does: a device's entry under devices/ is a link into
 * the tree, where the directory above it is the port it hangs from. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/scratch_dir.h"
#include "tests/test_main.h"
#include "topology.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[128];
CR_SCRATCH_FIXTURES(dir, "pci-link")

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A GPU at 0000:17:00.0 below the port 0000:16:00.0, each with its link
 * files (NULL: none), in a tree of its own under dir/name. */
static void make_tree(const char *name, const char *gpu_speed, const char *gpu_width, const char *port_speed,
                      const char *port_width, char *devices, size_t len)
{
    char port[512], gpu[600], path[2048];
    snprintf(port, sizeof port, "%s/%s/tree/pci0000:16/0000:16:00.0", dir, name);
    snprintf(gpu, sizeof gpu, "%s/0000:17:00.0", port);
    snprintf(path, sizeof path, "mkdir -p '%s' '%s/%s/devices'", gpu, dir, name);
    assert_int_equal(system(path), 0);
    snprintf(devices, len, "%s/%s/devices", dir, name);
    snprintf(path, sizeof path, "%s/0000:17:00.0", devices);
    assert_int_equal(symlink(gpu, path), 0);
    const char *files[4][2] = {{gpu_speed, "max_link_speed"}, {gpu_width, "max_link_width"},
                               {port_speed, "../max_link_speed"}, {port_width, "../max_link_width"}};
    for (int i = 0; i < 4; ++i) {
        if (files[i][0] == NULL)
            continue;
        snprintf(path, sizeof path, "%s/%s", gpu, files[i][1]);
        put(path, files[i][0]);
    }
    snprintf(path, sizeof path, "%s/current_link_speed", gpu);
    put(path, "2.5 GT/s PCIe\n"); /* an idle GPU's link */
    snprintf(path, sizeof path, "%s/current_link_width", gpu);
    put(path, "16\n");
}

/* The link read for the GPU of a tree made as make_tree() says, where the
 * files give enough to know it. */
static cr_pci_link known_link(const char *name, const char *gpu_speed, const char *gpu_width, const char *port_speed,
                              const char *port_width)
{
    char devices[300];
    make_tree(name, gpu_speed, gpu_width, port_speed, port_width, devices, sizeof devices);
    cr_pci_link l;
    assert_true(cr_pci_link_read(devices, "0000:17:00.0", &l));
    return l;
}

static void test_gen5_x16_is_63_GBps_per_direction(void **state)
{
    (void)state;
    cr_pci_link l = known_link("gen5", "32.0 GT/s PCIe\n", "16\n", "32.0 GT/s PCIe\n", "16\n");
    /* 32 GT/s x 16 lanes x 128/130 / 8 bits */
    assert_float_equal(l.link_gbps, 32.0 * 16 * 128 / 130 / 8, 1e-9);
    assert_float_equal(l.max_gtps, 32.0, 0);
    assert_int_equal(l.max_width, 16);
    assert_float_equal(l.current_gtps, 2.5, 0);
    assert_non_null(strstr(l.source, "the link now: 2.5 GT/s x16"));
}

static void test_the_upstream_port_caps_the_link(void **state)
{
    (void)state;
    cr_pci_link l = known_link("capped", "32.0 GT/s PCIe\n", "16\n", "16.0 GT/s PCIe\n", "8\n");
    assert_float_equal(l.link_gbps, 16.0 * 8 * 128 / 130 / 8, 1e-9);
    assert_non_null(strstr(l.source, "capped by its upstream port"));
}

static void test_unknown_link_says_why(void **state)
{
    (void)state;
    char devices[300];
    make_tree("unknown", "Unknown\n", "16\n", NULL, NULL, devices, sizeof devices);
    cr_pci_link l;
    assert_false(cr_pci_link_read(devices, "0000:17:00.0", &l));
    assert_float_equal(l.link_gbps, 0, 0);
    assert_non_null(strstr(l.source, "reports no max_link_speed"));
    assert_false(cr_pci_link_read(devices, "0000:99:00.0", &l));
    assert_non_null(strstr(l.source, "unknown: no "));
    assert_false(cr_pci_link_read(devices, "", &l));
    assert_string_equal(l.source, "unknown: the device reports no PCI location");
}

static void test_line_encoding_by_generation(void **state)
{
    (void)state;
    assert_float_equal(cr_pci_link_gbps(2.5, 16), 2.5 * 16 * 0.8 / 8, 1e-12);
    assert_float_equal(cr_pci_link_gbps(8, 16), 8.0 * 16 * 128 / 130 / 8, 1e-12);
    assert_float_equal(cr_pci_link_gbps(64, 16), 64.0 * 16 * 242 / 256 / 8, 1e-12);
    assert_float_equal(cr_pci_link_gbps(0, 16), 0, 0);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_gen5_x16_is_63_GBps_per_direction,
          test_the_upstream_port_caps_the_link, test_unknown_link_says_why, test_line_encoding_by_generation)
