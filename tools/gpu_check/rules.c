#include "gpu_check/rules.h"

#include <string.h>

/* Ranges for a discrete NVIDIA GPU with HBM on PCIe (an H100 SXM measures
 * triad 2.9-3.2 TB/s of its 3.35 TB/s, pinned copies 45-56 GB/s of a Gen5
 * x16 link's 63 GB/s, L2 hits 150-350 cycles, HBM 400-800 ns), widened a
 * little so that a sound device of another generation passes while a
 * figure above its limit, or far below it, does not. */
const gc_rule gc_rules[] = {
    {"triad double", "stream", "triad", "double", "footprint", GC_LARGEST_SIZE, GC_FIGURE, "GB/s", 4, GC_META,
     "peak.memory_GBps", "peak.memory_source", true, 0.80, 0.97,
     "arrays of 4x L2 or more; of the memory clock x bus width x 2 the driver reports"},
    {"triad float", "stream", "triad", "float", "footprint", GC_LARGEST_SIZE, GC_FIGURE, "GB/s", 4, GC_META,
     "peak.memory_GBps", "peak.memory_source", true, 0.80, 0.97,
     "arrays of 4x L2 or more; of the memory clock x bus width x 2 the driver reports"},
    {"kernel read", "bandwidth", "kernel-read-device", NULL, "size", GC_LARGEST_SIZE, GC_FIGURE, "GB/s", 4, GC_META,
     "peak.memory_GBps", "peak.memory_source", true, 0.70, 0.97, "a buffer of 4x L2 or more; of the theoretical memory bandwidth"},
    {"H2D pinned", "bandwidth", "h2d-memcpy-pinned", NULL, "size", GC_LARGEST_SIZE, GC_FIGURE, "GB/s", 0, GC_META,
     "device.pcie_link_GBps", "device.pcie_link_source", false, 0.70, 0.92,
     "of the PCIe link's rate per direction after line encoding (generation x width, from sysfs)"},
    {"D2H pinned", "bandwidth", "d2h-memcpy-pinned", NULL, "size", GC_LARGEST_SIZE, GC_FIGURE, "GB/s", 0, GC_META,
     "device.pcie_link_GBps", "device.pcie_link_source", false, 0.70, 0.92,
     "of the PCIe link's rate per direction after line encoding (generation x width, from sysfs)"},
    /* Pages that migrate on demand move at the fault handler's pace, far
     * below device memory: near triad, they were resident before the read. */
    {"managed on demand", "bandwidth", "kernel-read-managed", NULL, "size", GC_LARGEST_SIZE, GC_FIGURE, "GB/s", 0,
     GC_OTHER_FIGURE, "triad double", NULL, false, 0.0, 0.5,
     "pages migrating on demand: at most half of the device memory's triad"},
    {"FMA float", "fma", "fma", "float", NULL, GC_HIGHEST, GC_FIGURE, "Gflop/s", 0, GC_META, "peak.float_GFLOPs",
     "peak.compute_source", true, 0.85, 1.02, "the best point; of SMs x clock x FMA lanes x 2 flops"},
    {"FMA double", "fma", "fma", "double", NULL, GC_HIGHEST, GC_FIGURE, "Gflop/s", 0, GC_META, "peak.double_GFLOPs",
     "peak.compute_source", true, 0.85, 1.02, "the best point; of SMs x clock x double FMA lanes x 2 flops"},
    {"L2 latency", "latency", "L2", NULL, "level", GC_LARGEST_SIZE, GC_CYCLES, "cycles", 0, GC_ABSOLUTE, NULL, NULL,
     false, 150, 350, "a dependent load hitting L2, in SM clock cycles (clock64)"},
    {"memory latency", "latency", "memory", NULL, "level", GC_LARGEST_SIZE, GC_FIGURE, "ns", 4, GC_ABSOLUTE, NULL,
     NULL, false, 400, 800, "a dependent load from device memory (a walk of 4x L2 or more)"},
};
const size_t gc_nrules = sizeof gc_rules / sizeof gc_rules[0];

const gc_rule *gc_rule_named(const char *figure)
{
    for (size_t i = 0; i < gc_nrules; ++i)
        if (strcmp(gc_rules[i].figure, figure) == 0)
            return &gc_rules[i];
    return NULL;
}
