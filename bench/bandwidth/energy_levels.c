/* The energy levels bandwidth's rows stand for (tools/energy_levels):
 *   shared     the path kernel-local-memory (work-groups streaming tiles
 *              through local, CUDA's shared, memory: e_sr): of its
 *              local-width rows, one per vector width over one buffer, the
 *              fastest (the narrower widths pay for more accesses per
 *              byte); of an older file's size rows, the largest transfer.
 *              Its bytes are the local traffic, 510 (older files: 128) per
 *              byte of the buffer against 2 of global, whose energy the
 *              figure therefore includes but hardly depends on
 *   pcie       copies between pinned host memory and the device
 *              (h2d-*pinned*, d2h-*pinned*) at the largest transfer size, on
 *              a device with memory of its own
 *   zero-copy  kernel reads of host memory in place (CUDA's mapped memory,
 *              OpenCL's host and use-host-pointer buffers) at the largest
 *              transfer size */
#include "energy_levels/rule.h"

#include <string.h>

static bool wants_pcie(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    const char *v = el_field(f, i, "variant");
    *key = el_number(f, i, "size_bytes");
    return el_is(f, i, "sweep", "size") && (strncmp(v, "h2d-", 4) == 0 || strncmp(v, "d2h-", 4) == 0) &&
           strstr(v, "pinned") != NULL && strchr(v, ':') == NULL && *key > 0;
}

static bool wants_zero_copy(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    static const char *const reads[] = {"kernel-read-mapped", "kernel-read-host-ro", "kernel-read-host-rw",
                                        "kernel-read-use-ro", "kernel-read-use-rw"};
    *key = el_number(f, i, "size_bytes");
    bool host = false;
    for (size_t k = 0; k < sizeof reads / sizeof *reads; ++k)
        host = host || el_is(f, i, "variant", reads[k]);
    return el_is(f, i, "sweep", "size") && host && *key > 0;
}

static bool wants_shared(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    *key = el_number(f, i, "size_bytes");
    return (el_is(f, i, "sweep", "local-width") || el_is(f, i, "sweep", "size")) &&
           el_is(f, i, "variant", "kernel-local-memory") && *key > 0;
}

static const char *cannot_without_link(const el_device *d)
{
    return d->discrete == EL_YES  ? NULL
           : d->discrete == EL_NO ? "the device shares the host's memory: its copies cross no PCIe link"
                                  : "the metadata does not say whether the device has memory of its own "
                                    "(device.type, device.unified_memory)";
}

static const el_rule rules[] = {
    {"shared", EL_PER_BYTE, "bandwidth", wants_shared, EL_PICK_LARGEST_FASTEST, EL_KEY_TRANSFER,
     "no kernel-local-memory row verified: the path was not selected, the device does not support it, or it failed",
     false, NULL},
    {"pcie", EL_PER_BYTE, "bandwidth", wants_pcie, EL_PICK_LARGEST, EL_KEY_TRANSFER,
     "no copy between pinned host memory and the device (h2d-*pinned*, d2h-*pinned*) verified", false,
     cannot_without_link},
    {"zero-copy", EL_PER_BYTE, "bandwidth", wants_zero_copy, EL_PICK_LARGEST, EL_KEY_TRANSFER,
     "no kernel read of host memory in place (kernel-read-mapped, kernel-read-host-*, kernel-read-use-*) verified",
     false, NULL},
};
const cr_bench_part el_rules_bandwidth = {rules, sizeof rules / sizeof rules[0]};
