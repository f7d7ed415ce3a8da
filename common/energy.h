/* What a device's work costs in energy, read from the sensor that covers
 * the device:
 *  - an NVIDIA device (by its PCI bus id): NVML, loaded at run time; the
 *    total-energy counter (millijoules, Volta and newer) where the device
 *    has one, else a thread that samples the power and integrates it;
 *  - the host CPU, or a device that shares its memory (an APU, not NVIDIA):
 *    the Linux powercap counters (RAPL) of every package and of its DRAM.
 * A meter gives joules since it was opened, summed over its counters. */
#ifndef CR_ENERGY_H
#define CR_ENERGY_H

#include "cr.h"
#include "device.h"
#include "energy_nvml.h" /* cr_nvml_api: the NVML device boundary */

#include <stddef.h>
#include <stdint.h>

typedef struct cr_energy_meter cr_energy_meter;

/* Where the readings come from; every field may be NULL (and src itself). */
typedef struct {
    const char *powercap_root; /* NULL: $CROSSROOF_POWERCAP_ROOT, else "/sys/class/powercap" */
    const cr_nvml_api *nvml;   /* NULL: libnvidia-ml.so.1, loaded with dlopen */
    double (*now_s)(void);     /* NULL: the monotonic clock */
    void (*sleep_s)(double);   /* NULL: nanosleep */
} cr_energy_source;

/* Opens the sensor that covers the device and observes its update interval
 * (up to a second of polling). CR_UNSUPPORTED with a one-line why naming
 * what was tried when nothing can be read ("no powercap domain under
 * /sys/class/powercap (...)", ".../energy_uj: permission denied (...)",
 * "libnvidia-ml.so.1 not found (...)"); CR_ERR for a failure beyond that. */
cr_status cr_energy_open(const cr_device_info *info, const cr_energy_source *src, cr_energy_meter **out, char *why,
                         size_t len);

/* "powercap:package-0+dram", "nvml:total-energy", "nvml:power-samples". */
const char *cr_energy_sensor(const cr_energy_meter *m);

/* Seconds between two updates of the reading: observed at open (the time
 * the reading took to change four times), or, where it did not change
 * enough within a second, the documented interval; basis says which. */
double cr_energy_interval_s(const cr_energy_meter *m);
const char *cr_energy_interval_basis(const cr_energy_meter *m);

/* Joules since open, summed over the counters, each unfolded across its
 * wraps. A powercap counter wraps to 0 after max_energy_range_uj (about
 * 262 kJ for a package: some 15 minutes at 300 W, less for a DRAM domain
 * with a smaller range); the meter sees one wrap between two readings, so
 * it must be read at least once per wrap period. A counter that does not
 * wrap (NVML's) and goes back is an error (the driver was reloaded). */
cr_status cr_energy_read(cr_energy_meter *m, double *joules, char *err, size_t len);

/* Idle power in watts, over at least `seconds` and at least 20 sensor
 * updates, from one update of the reading to another (so that the span
 * holds whole updates); it is what a device draws doing nothing, to be
 * subtracted from a measurement's average power. */
cr_status cr_energy_static_w(cr_energy_meter *m, double seconds, double *watts, char *err, size_t len);

/* How long a point's energy window must be: at least min_s and at least
 * `updates` sensor updates, so that one update's quantisation is small. */
double cr_energy_window_s(const cr_energy_meter *m, double min_s, unsigned updates);

void cr_energy_close(cr_energy_meter *m);

/* The energy a counter gained from one reading to the next, where it wraps
 * to 0 after max: (now - last) mod (max + 1). */
uint64_t cr_energy_counter_delta(uint64_t last, uint64_t now, uint64_t max);

#endif
