#define _POSIX_C_SOURCE 200809L
#include "peaks.h"

#include "cpu_model.h"
#include "host_fma.h"
#include "topology.h"
#include "host_limit.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

static void compute_peaks(const cr_device_info *d, cr_peaks *p)
{
    if (!d->compute_units || !d->clock_mhz || !d->fma_pipes || !d->fma_lanes[0]) {
        snprintf(p->compute_source, sizeof p->compute_source, "unknown: the device reports no %s",
                 !d->clock_mhz ? "clock" : !d->compute_units ? "compute units" : "FMA lanes per compute unit");
        return;
    }
    for (int t = 0; t < 2; ++t)
        if (d->fma_lanes[t])
            p->compute_gflops[t] =
                (double)d->compute_units * d->clock_mhz * 1e-3 * d->fma_lanes[t] * d->fma_pipes * 2.0;
    snprintf(p->compute_source, sizeof p->compute_source,
             "%u CUs x %u MHz (the clock the device reports; a turbo clock above it raises the real peak) x %u/%u "
             "float/double lanes x %u FMA pipe(s) x 2 flops; %s",
             d->compute_units, d->clock_mhz, d->fma_lanes[0], d->fma_lanes[1], d->fma_pipes, d->fma_basis);
}

/* Every compute unit's local memory serving its bytes per clock at the
 * clock the device reports; unknown where either is. */
static void local_peak(const cr_device_info *d, cr_peaks *p)
{
    if (!d->local_bytes_per_clock || !d->compute_units || !d->clock_mhz) {
        snprintf(p->local_source, sizeof p->local_source, "unknown: %s",
                 d->local_bytes_per_clock && !d->clock_mhz ? "the device reports no clock"
                 : d->local_basis[0]                        ? d->local_basis
                                                            : "the API reports no local-memory bytes per clock");
        return;
    }
    p->local_gbs = (double)d->compute_units * d->clock_mhz * 1e-3 * d->local_bytes_per_clock;
    snprintf(p->local_source, sizeof p->local_source,
             "%u CUs x %u MHz (the clock the device reports) x %u bytes per clock per CU; %s", d->compute_units,
             d->clock_mhz, d->local_bytes_per_clock, d->local_basis);
}

void cr_peaks_for_device(const cr_device_info *d, uint64_t host_llc_bytes, double target_ci, cr_peaks *p)
{
    cr_peaks_unknown(p);
    p->target_ci = target_ci;
    p->llc_bytes = d->cache_bytes;
    if ((d->is_cpu || d->unified_memory) && host_llc_bytes > p->llc_bytes)
        p->llc_bytes = host_llc_bytes;
    compute_peaks(d, p);
    local_peak(d, p);
    if (d->memory_peak_gbs > 0) {
        p->memory_gbs = d->memory_peak_gbs;
        snprintf(p->memory_source, sizeof p->memory_source, "memory clock x bus width x 2 (double data rate)");
    } else {
        snprintf(p->memory_source, sizeof p->memory_source, "unknown: the %s reports no memory clock or bus width",
                 d->is_cpu || d->unified_memory ? "device shares the host's memory and" : "device");
    }
}

/* Three arrays of 4x the cache each, and never more than a quarter of the
 * host's memory for all three. */
static uint64_t limit_array_bytes(const cr_peaks *p, char *why, size_t len)
{
    uint64_t llc = p->llc_bytes ? p->llc_bytes : UINT64_C(32) << 20;
    uint64_t want = (uint64_t)CR_RESIDENT_FACTOR * llc;
    if (want < (UINT64_C(64) << 20))
        want = UINT64_C(64) << 20;
    uint64_t ram = cr_host_memory_bytes();
    if (ram > 0 && 3 * want > ram / 4) {
        char w[32];
        cr_format_bytes(3 * want, w, sizeof w);
        snprintf(why, len, "unknown: the host limit's three arrays (%s) would take more than a quarter of host memory",
                 w);
        return 0;
    }
    return want;
}

void cr_peaks_measure_host_memory(cr_peaks *p, int reps)
{
    char err[200];
    uint64_t bytes = limit_array_bytes(p, p->memory_source, sizeof p->memory_source);
    if (bytes == 0)
        return;
    cr_host_limit lim;
    if (cr_host_limit_measure(bytes, reps, &lim, err, sizeof err) != 0) {
        snprintf(p->memory_source, sizeof p->memory_source, "unknown: %s", err);
        return;
    }
    char a[32];
    cr_format_bytes(lim.array_bytes, a, sizeof a);
    p->memory_gbs = fmax(fmax(lim.triad.best_gbs, lim.streamed.best_gbs), lim.read.best_gbs);
    char streamed[64];
    if (lim.streamed_isa)
        snprintf(streamed, sizeof streamed, "with %s non-temporal stores", lim.streamed_isa);
    else
        snprintf(streamed, sizeof streamed, "counting its write-allocate read");
    snprintf(p->memory_source, sizeof p->memory_source,
             "the host's limit measured alone before the run, the fastest of a triad (best %.4g, median %.4g GB/s), "
             "a triad %s (best %.4g, median %.4g) and a read (best %.4g, median %.4g) over %s double arrays, "
             "%d threads, best of %d",
             lim.triad.best_gbs, lim.triad.median_gbs, streamed, lim.streamed.best_gbs, lim.streamed.median_gbs,
             lim.read.best_gbs, lim.read.median_gbs, a, lim.threads, lim.reps);
}

/* The table's peak for the host at the clock the chain measured, beside
 * the measured one: where they part by more than 15%, one of them is not
 * what it claims (a part the table cannot tell apart, a clock that moved,
 * a reference that did not fill the pipes), and the metadata says so. */
static void model_host_compute(cr_peaks *p, const cr_host_fma *m)
{
    cr_cpu_id id;
    const cr_cpu_arch *arch = cr_cpu_id_read(&id) == 0 ? cr_cpu_arch_of(&id) : NULL;
    if (arch == NULL) {
        snprintf(p->compute_model_source, sizeof p->compute_model_source,
                 "unknown: %s family 0x%x model 0x%x (%s) is not in the table of common/cpu_model.c",
                 id.vendor[0] ? id.vendor : "a CPU without cpuid", id.family, id.model, id.brand);
        return;
    }
    p->host_clock_mhz = arch->fma_cycles / m->chain_step_s * 1e-6;
    cr_cpu_model_peak(arch, m->threads, p->host_clock_mhz, p->compute_model_gflops);
    snprintf(p->compute_model_source, sizeof p->compute_model_source,
             "%s (%s family 0x%x model 0x%x): %d cores x %.0f MHz (a chain of FMAs of %u clocks each, timed on every "
             "core after each repetition) x %u FMA pipes of %u bits x 2%s%s",
             arch->name, id.vendor, id.family, id.model, m->threads, p->host_clock_mhz, arch->fma_cycles,
             arch->fma_pipes, arch->fma_bits, arch->caveat[0] ? "; " : "", arch->caveat);
    double ratio = p->compute_gflops[0] / p->compute_model_gflops[0];
    snprintf(p->compute_check, sizeof p->compute_check,
             "%s: the measured float peak %.4g GFLOP/s is %.0f%% of the modelled %.4g", fabs(ratio - 1) > 0.15
             ? "disagree" : "agree within 15%", p->compute_gflops[0], 100 * ratio, p->compute_model_gflops[0]);
}

void cr_peaks_measure_host_compute(cr_peaks *p, int reps)
{
    char err[200];
    cr_host_fma m;
    if (cr_host_fma_measure(reps, &m, err, sizeof err) != 0) {
        snprintf(p->compute_check, sizeof p->compute_check, "not measured: %s; the device's modelled peak stays",
                 err);
        return;
    }
    for (int t = 0; t < 2; ++t)
        p->compute_gflops[t] = m.best_gflops[t];
    snprintf(p->compute_source, sizeof p->compute_source,
             "the host's peak measured alone before the run: %d threads x %d independent chains of %s FMAs (%u/%u "
             "float/double lanes), best of %d (medians %.4g and %.4g GFLOP/s)",
             m.threads, m.chains, m.isa, m.lanes[0], m.lanes[1], m.reps, m.median_gflops[0], m.median_gflops[1]);
    model_host_compute(p, &m);
}

static void set_number(cr_meta *m, const char *key, double v)
{
    if (isfinite(v))
        cr_meta_set(m, key, "%.6g", v);
    else
        cr_meta_set(m, key, "%s", "");
}

void cr_peaks_to_meta(const cr_peaks *p, cr_meta *m)
{
    set_number(m, "peak.memory_GBps", p->memory_gbs);
    cr_meta_set(m, "peak.memory_source", "%s", p->memory_source);
    set_number(m, "peak.float_GFLOPs", p->compute_gflops[0]);
    set_number(m, "peak.double_GFLOPs", p->compute_gflops[1]);
    cr_meta_set(m, "peak.compute_source", "%s", p->compute_source);
    set_number(m, "peak.float_GFLOPs_modelled", p->compute_model_gflops[0]);
    set_number(m, "peak.double_GFLOPs_modelled", p->compute_model_gflops[1]);
    set_number(m, "peak.host_clock_MHz", p->host_clock_mhz);
    cr_meta_set(m, "peak.compute_model_source", "%s", p->compute_model_source);
    cr_meta_set(m, "peak.compute_check", "%s", p->compute_check);
    set_number(m, "peak.local_GBps", p->local_gbs);
    cr_meta_set(m, "peak.local_source", "%s", p->local_source);
    cr_meta_set(m, "peak.llc_bytes", "%llu", (unsigned long long)p->llc_bytes);
}
