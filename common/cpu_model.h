/* What a CPU's cores can do per clock, by microarchitecture: the FMA
 * pipes per core, their width and an FMA's latency, looked up by the
 * identity cpuid gives (vendor, family, model, brand string). The modelled
 * compute peak of a CPU device is built from it (common/peaks.c), beside
 * the peak measured on the host (common/host_fma.c). */
#ifndef CR_CPU_MODEL_H
#define CR_CPU_MODEL_H

typedef struct {
    char vendor[16]; /* "GenuineIntel", "AuthenticAMD" */
    unsigned family; /* the display family (base + extended) */
    unsigned model;  /* the display model (extended model << 4 | model) */
    char brand[64];  /* the brand string, e.g. "AMD EPYC 9B14" */
} cr_cpu_id;

typedef struct {
    const char *name;    /* "Zen 4", "Skylake-SP / Cascade Lake" */
    unsigned fma_pipes;  /* FMA units per core */
    unsigned fma_bits;   /* the width of each, in bits */
    unsigned fma_cycles; /* the latency of one FMA, in clocks */
    const char *caveat;  /* what the table cannot tell from the identity; "" when nothing */
} cr_cpu_arch;

/* The host's identity from cpuid: 0, or -1 where there is no cpuid (not
 * x86). */
int cr_cpu_id_read(cr_cpu_id *id);

/* The identity cpuid's leaf 1 gives in eax: the display family and model
 * (the extended fields added where the base family says so). */
void cr_cpu_id_decode(unsigned eax, cr_cpu_id *id);

/* The table's entry for id, or NULL where the microarchitecture is not in
 * it. */
const cr_cpu_arch *cr_cpu_arch_of(const cr_cpu_id *id);

/* The modelled peak of cores cores of arch at clock_mhz, float and double:
 * cores x clock x (width / element bits) lanes x pipes x 2 flops; NaN
 * where arch is NULL or the clock unknown. */
void cr_cpu_model_peak(const cr_cpu_arch *arch, int cores, double clock_mhz, double gflops[2]);

#endif
