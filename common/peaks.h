/* The device's theoretical peaks, as the plausibility gate uses them, and
 * their place in the metadata (peak.* keys). */
#ifndef CR_PEAKS_H
#define CR_PEAKS_H

#include "device.h"
#include "metadata.h"
#include "plausibility.h"

#include <stdint.h>

/* Compute peaks from the device (compute units x clock x FMA lanes x FMA
 * pipes x 2 flops, naming the clock), the memory peak where the API gives
 * memory clock and bus width, the local-memory peak (compute units x clock
 * x local bytes per clock) where the device knows its bytes per clock, and
 * the last-level cache: the larger of the device's and, for a device
 * sharing the host's memory, the host's. */
void cr_peaks_for_device(const cr_device_info *d, uint64_t host_llc_bytes, double target_ci, cr_peaks *p);

/* A device that shares the host's memory has no memory clock to read: its
 * memory peak is the host's limit measured alone (no device work running),
 * the faster of a triad and a read, each the best of reps over arrays of 4x
 * the last-level cache. Where that cannot be measured, the peak stays
 * unknown and memory_source says why. */
void cr_peaks_measure_host_memory(cr_peaks *p, int reps);

/* A CPU device's compute peak is the host's, measured alone (its FMA
 * reference, common/host_fma.h, best of reps): it replaces the peak the
 * device's figures imply. Beside it the peak of the host's
 * microarchitecture (common/cpu_model.h) at the clock measured, and
 * whether the two agree within 15%. Where the reference fails, the
 * device's peak stays and compute_check says why. */
void cr_peaks_measure_host_compute(cr_peaks *p, int reps);

void cr_peaks_to_meta(const cr_peaks *p, cr_meta *m);

#endif
