/* The device of the fake backends on which the bandwidth tests run the
 * design in process: one device whose allocations stop at 1 MiB, listed,
 * opened and closed, and a release with nothing to free. */
#ifndef CR_BANDWIDTH_FAKE_DEVICE_H
#define CR_BANDWIDTH_FAKE_DEVICE_H

#include "bandwidth/backend.h"

#include <stdio.h>

#define FAKE_MAX_BYTES (UINT64_C(1) << 20)

static inline cr_status fake_list_devices(FILE *f)
{
    fprintf(f, "0  fake\n");
    return CR_OK;
}

static inline cr_status fake_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    *info = (cr_device_info){.compute_units = 1, .warp_size = 1, .global_mem_bytes = 4 * FAKE_MAX_BYTES,
                             .max_alloc_bytes = FAKE_MAX_BYTES, .max_work_group = 1, .timer_resolution_ns = 1};
    snprintf(info->name, sizeof info->name, "fake device");
    snprintf(info->vendor, sizeof info->vendor, "none");
    return CR_OK;
}

static inline void fake_close(void) {}

static inline void fake_release(const bw_path *p) { (void)p; }

/* The base of a fake bw_backend. */
#define FAKE_DEVICE_BASE {.name = "fake", .list_devices = fake_list_devices, .open = fake_open, .close = fake_close}

#endif
