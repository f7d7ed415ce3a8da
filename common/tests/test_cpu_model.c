/* The microarchitecture table behind a CPU device's modelled compute peak,
 * on recorded identities (cpuid leaf 1's eax and the brand string) of
 * hosts this machine is not: each decodes to its family and model, finds
 * its entry, and gives the peak its vendor publishes per core and clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu_model.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static cr_cpu_id recorded(const char *vendor, unsigned eax, const char *brand)
{
    cr_cpu_id id = {0};
    snprintf(id.vendor, sizeof id.vendor, "%s", vendor);
    snprintf(id.brand, sizeof id.brand, "%s", brand);
    cr_cpu_id_decode(eax, &id);
    return id;
}

static void test_signatures_decode_to_family_and_model(void **state)
{
    (void)state;
    static const struct {
        unsigned eax, family, model;
    } cases[] = {
        {0x00A10F11, 0x19, 0x11}, /* AMD EPYC 9654 (Genoa): the extended family added to 0xf */
        {0x00830F10, 0x17, 0x31}, /* AMD EPYC 7742 (Rome) */
        {0x00B00F21, 0x1a, 0x02}, /* AMD EPYC 9755 (Turin) */
        {0x000806F8, 6, 0x8f},    /* Xeon Platinum 8480+ (Sapphire Rapids): the extended model in front */
        {0x00050654, 6, 0x55},    /* Xeon Gold 6148 (Skylake-SP) */
        {0x000A06D1, 6, 0xad},    /* Xeon 6980P (Granite Rapids) */
        {0x00000F4A, 0xf, 0x04},  /* a Pentium 4: family 0xf plus an extended family of 0 */
        {0x00000673, 6, 0x07},    /* a Pentium III: no extended model */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cr_cpu_id id = recorded("GenuineIntel", cases[i].eax, "");
        assert_int_equal(id.family, cases[i].family);
        assert_int_equal(id.model, cases[i].model);
    }
}

/* Each host's entry and its peak at a clock: the figures its vendor
 * publishes (Zen 4 at 3.7 GHz on two cores: 237 GFLOP/s in float, the
 * two 256-bit pipes; were they 512-bit, 474). */
static void test_each_host_has_its_peak(void **state)
{
    (void)state;
    static const struct {
        const char *vendor, *brand, *arch;
        unsigned eax;
        int cores;
        double mhz, float_gflops, double_gflops;
    } cases[] = {
        {"AuthenticAMD", "AMD EPYC 9B14 96-Core Processor", "Zen 4", 0x00A10F11, 2, 3700, 236.8, 118.4},
        {"AuthenticAMD", "AMD EPYC 7742 64-Core Processor", "Zen 2", 0x00830F10, 64, 2250, 4608, 2304},
        {"AuthenticAMD", "AMD EPYC 7763 64-Core Processor", "Zen 3", 0x00A00F11, 64, 2450, 5017.6, 2508.8},
        {"AuthenticAMD", "AMD EPYC 9755 128-Core Processor", "Zen 5", 0x00B00F21, 128, 2700, 22118.4, 11059.2},
        {"GenuineIntel", "Intel(R) Xeon(R) Platinum 8480+", "Sapphire Rapids", 0x000806F8, 56, 2000, 7168, 3584},
        {"GenuineIntel", "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", "Skylake-SP", 0x00050654, 2, 2500, 320, 160},
        {"GenuineIntel", "Intel(R) Xeon(R) Silver 4114 CPU @ 2.20GHz", "one 512-bit unit", 0x00050654, 2, 2500, 160,
         80},
        {"GenuineIntel", "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", "Ice Lake-SP", 0x000606A6, 40, 2300, 5888,
         2944},
        {"GenuineIntel", "Intel(R) Xeon(R) 6980P", "Granite Rapids", 0x000A06D1, 128, 2000, 16384, 8192},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cr_cpu_id id = recorded(cases[i].vendor, cases[i].eax, cases[i].brand);
        const cr_cpu_arch *arch = cr_cpu_arch_of(&id);
        assert_non_null(arch);
        if (strstr(arch->name, cases[i].arch) == NULL)
            fail_msg("%s: %s, not %s", cases[i].brand, arch->name, cases[i].arch);
        double gflops[2];
        cr_cpu_model_peak(arch, cases[i].cores, cases[i].mhz, gflops);
        assert_float_equal(gflops[0], cases[i].float_gflops, 1e-6);
        assert_float_equal(gflops[1], cases[i].double_gflops, 1e-6);
    }
}

static void test_what_the_table_cannot_tell_has_no_peak(void **state)
{
    (void)state;
    cr_cpu_id other = recorded("CentaurHauls", 0x000006FE, "VIA Nano");
    assert_null(cr_cpu_arch_of(&other));
    cr_cpu_id old = recorded("GenuineIntel", 0x00000673, "Pentium III");
    assert_null(cr_cpu_arch_of(&old));
    double gflops[2];
    cr_cpu_model_peak(NULL, 2, 2500, gflops);
    assert_true(isnan(gflops[0]) && isnan(gflops[1]));
    cr_cpu_id zen4 = recorded("AuthenticAMD", 0x00A10F11, "AMD EPYC");
    cr_cpu_model_peak(cr_cpu_arch_of(&zen4), 2, NAN, gflops);
    assert_true(isnan(gflops[0])); /* no clock measured */
}

/* This host's own identity reads, whatever it is. */
static void test_this_host_reads(void **state)
{
    (void)state;
#if defined(__x86_64__) || defined(__i386__)
    cr_cpu_id id;
    assert_int_equal(cr_cpu_id_read(&id), 0);
    assert_int_equal(strlen(id.vendor), 12);
    assert_true(id.family > 0);
#else
    skip();
#endif
}

TEST_MAIN(NULL, NULL, test_signatures_decode_to_family_and_model, test_each_host_has_its_peak,
          test_what_the_table_cannot_tell_has_no_peak, test_this_host_reads)
