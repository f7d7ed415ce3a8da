#include "cpu_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* From the vendors' optimisation manuals and the per-core figures they
 * publish: FMA units per core, their width, an FMA's latency. */
enum {
    ZEN1, ZEN2, ZEN3, ZEN4, ZEN5, ZEN5_MOBILE, HASWELL, SKYLAKE, SKYLAKE_SP, SKYLAKE_SP_ONE, ICELAKE_CLIENT,
    ICELAKE_SP, SAPPHIRE, GRANITE, HYBRID, CRESTMONT
};
static const cr_cpu_arch archs[] = {
    [ZEN1] = {"Zen / Zen+", 2, 128, 5, ""},
    [ZEN2] = {"Zen 2", 2, 256, 5, ""},
    [ZEN3] = {"Zen 3", 2, 256, 4, ""},
    [ZEN4] = {"Zen 4", 2, 256, 4, "512-bit FMAs run as two 256-bit halves"},
    [ZEN5] = {"Zen 5", 2, 512, 4, ""},
    [ZEN5_MOBILE] = {"Zen 5 (mobile)", 2, 256, 4, "512-bit FMAs run as two 256-bit halves"},
    [HASWELL] = {"Haswell / Broadwell", 2, 256, 5, ""},
    [SKYLAKE] = {"Skylake client (to Comet Lake)", 2, 256, 4, ""},
    [SKYLAKE_SP] = {"Skylake-SP / Cascade Lake / Cooper Lake", 2, 512, 4, "Bronze, Silver, some Gold 5xxx: one unit"},
    [SKYLAKE_SP_ONE] = {"Skylake-SP / Cascade Lake (one 512-bit unit)", 1, 512, 4, "Bronze and Silver parts"},
    [ICELAKE_CLIENT] = {"Ice Lake / Tiger Lake / Rocket Lake client", 2, 256, 4, "or one 512-bit unit: as many FLOPs"},
    [ICELAKE_SP] = {"Ice Lake-SP", 2, 512, 4, ""},
    [SAPPHIRE] = {"Sapphire Rapids / Emerald Rapids", 2, 512, 4, ""},
    [GRANITE] = {"Granite Rapids", 2, 512, 4, ""},
    [HYBRID] = {"Alder Lake and later hybrid client (P-core)", 2, 256, 4, "a P-core's: E-cores have less"},
    [CRESTMONT] = {"Sierra Forest (E-core)", 2, 128, 4, ""},
};

static const struct {
    const char *vendor;
    unsigned family, model_lo, model_hi;
    const char *brand; /* a part of the brand string that must be there; NULL: any */
    const cr_cpu_arch *arch;
} table[] = {
    {"AuthenticAMD", 0x17, 0x00, 0x2f, NULL, &archs[ZEN1]},
    {"AuthenticAMD", 0x17, 0x30, 0xff, NULL, &archs[ZEN2]},
    {"AuthenticAMD", 0x19, 0x00, 0x0f, NULL, &archs[ZEN3]},
    {"AuthenticAMD", 0x19, 0x20, 0x2f, NULL, &archs[ZEN3]},
    {"AuthenticAMD", 0x19, 0x40, 0x5f, NULL, &archs[ZEN3]},
    {"AuthenticAMD", 0x19, 0x10, 0x1f, NULL, &archs[ZEN4]},
    {"AuthenticAMD", 0x19, 0x60, 0x7f, NULL, &archs[ZEN4]},
    {"AuthenticAMD", 0x19, 0xa0, 0xaf, NULL, &archs[ZEN4]},
    {"AuthenticAMD", 0x1a, 0x00, 0x1f, NULL, &archs[ZEN5]},
    {"AuthenticAMD", 0x1a, 0x40, 0x4f, NULL, &archs[ZEN5]},
    {"AuthenticAMD", 0x1a, 0x20, 0x2f, NULL, &archs[ZEN5_MOBILE]},
    {"AuthenticAMD", 0x1a, 0x60, 0x7f, NULL, &archs[ZEN5_MOBILE]},
    {"GenuineIntel", 6, 0x3c, 0x3c, NULL, &archs[HASWELL]},
    {"GenuineIntel", 6, 0x3f, 0x3f, NULL, &archs[HASWELL]},
    {"GenuineIntel", 6, 0x45, 0x47, NULL, &archs[HASWELL]},
    {"GenuineIntel", 6, 0x3d, 0x3d, NULL, &archs[HASWELL]},
    {"GenuineIntel", 6, 0x4f, 0x4f, NULL, &archs[HASWELL]},
    {"GenuineIntel", 6, 0x56, 0x56, NULL, &archs[HASWELL]},
    {"GenuineIntel", 6, 0x4e, 0x4e, NULL, &archs[SKYLAKE]},
    {"GenuineIntel", 6, 0x5e, 0x5e, NULL, &archs[SKYLAKE]},
    {"GenuineIntel", 6, 0x8e, 0x8e, NULL, &archs[SKYLAKE]},
    {"GenuineIntel", 6, 0x9e, 0x9e, NULL, &archs[SKYLAKE]},
    {"GenuineIntel", 6, 0xa5, 0xa6, NULL, &archs[SKYLAKE]},
    {"GenuineIntel", 6, 0x55, 0x55, "Silver", &archs[SKYLAKE_SP_ONE]},
    {"GenuineIntel", 6, 0x55, 0x55, "Bronze", &archs[SKYLAKE_SP_ONE]},
    {"GenuineIntel", 6, 0x55, 0x55, NULL, &archs[SKYLAKE_SP]},
    {"GenuineIntel", 6, 0x7d, 0x7e, NULL, &archs[ICELAKE_CLIENT]},
    {"GenuineIntel", 6, 0x8c, 0x8d, NULL, &archs[ICELAKE_CLIENT]},
    {"GenuineIntel", 6, 0xa7, 0xa7, NULL, &archs[ICELAKE_CLIENT]},
    {"GenuineIntel", 6, 0x6a, 0x6a, NULL, &archs[ICELAKE_SP]},
    {"GenuineIntel", 6, 0x6c, 0x6c, NULL, &archs[ICELAKE_SP]},
    {"GenuineIntel", 6, 0x8f, 0x8f, NULL, &archs[SAPPHIRE]},
    {"GenuineIntel", 6, 0xcf, 0xcf, NULL, &archs[SAPPHIRE]},
    {"GenuineIntel", 6, 0xad, 0xae, NULL, &archs[GRANITE]},
    {"GenuineIntel", 6, 0x97, 0x97, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0x9a, 0x9a, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xaa, 0xaa, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xac, 0xac, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xb7, 0xb7, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xba, 0xba, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xbd, 0xbd, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xbf, 0xbf, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xc5, 0xc6, NULL, &archs[HYBRID]},
    {"GenuineIntel", 6, 0xaf, 0xaf, NULL, &archs[CRESTMONT]},
};

const cr_cpu_arch *cr_cpu_arch_of(const cr_cpu_id *id)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (strcmp(id->vendor, table[i].vendor) == 0 && id->family == table[i].family &&
            id->model >= table[i].model_lo && id->model <= table[i].model_hi &&
            (table[i].brand == NULL || strstr(id->brand, table[i].brand) != NULL))
            return table[i].arch;
    return NULL;
}

void cr_cpu_id_decode(unsigned eax, cr_cpu_id *id)
{
    unsigned base_family = (eax >> 8) & 0xf, base_model = (eax >> 4) & 0xf;
    id->family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
    id->model = base_family == 0x6 || base_family == 0xf ? ((eax >> 12) & 0xf0) | base_model : base_model;
}

void cr_cpu_model_peak(const cr_cpu_arch *arch, int cores, double clock_mhz, double gflops[2])
{
    for (int t = 0; t < 2; ++t)
        gflops[t] = arch && clock_mhz > 0 && cores > 0
                        ? cores * clock_mhz * 1e-3 * (arch->fma_bits / (t ? 64.0 : 32.0)) * arch->fma_pipes * 2.0
                        : NAN;
}

int cr_cpu_id_read(cr_cpu_id *id)
{
    memset(id, 0, sizeof *id);
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return -1;
    memcpy(id->vendor, &b, 4);
    memcpy(id->vendor + 4, &d, 4);
    memcpy(id->vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return -1;
    cr_cpu_id_decode(a, id);
    unsigned words[12];
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
        for (unsigned leaf = 0; leaf < 3; ++leaf)
            __get_cpuid(0x80000002 + leaf, &words[4 * leaf], &words[4 * leaf + 1], &words[4 * leaf + 2],
                        &words[4 * leaf + 3]);
        memcpy(id->brand, words, sizeof words);
        id->brand[sizeof words] = '\0';
        /* Brand strings are padded with leading blanks on some parts. */
        size_t lead = strspn(id->brand, " ");
        memmove(id->brand, id->brand + lead, strlen(id->brand + lead) + 1);
    }
    return 0;
#else
    return -1;
#endif
}
