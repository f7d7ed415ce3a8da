#include "gpu_check/rules.h"

#include <string.h>

/* Each range is drawn from published measurements of sound devices of
 * several generations (the source beside each rule says which), widened a
 * little, so that a sound Ampere, Hopper or Blackwell device passes while a
 * figure above its limit, or far below it, does not. */

/* Triad at full occupancy in RRZE-HPC's gpu-stream: 0.87-0.95 of the
 * memory's peak. */
static const char source_triad[] =
    "D. Ernst (NHR@FAU), gpu-benches, gpu-stream results at full occupancy, "
    "https://github.com/RRZE-HPC/gpu-benches/tree/master/gpu-stream: triad A100 40GB 1358-1364 of 1555 GB/s "
    "(0.87-0.88), A100 80GB 1794 of 2039 (0.88), H100 PCIe 1832 of 2039 (0.90), GH200 3783 of 4000 (0.95); "
    "peaks: NVIDIA A100 datasheet (1555, 2039 GB/s), H100 PCIe 1593 MHz x 5120-bit HBM2e (Chips and Cheese, "
    "\"Nvidia's H100: Funny L2, and Tons of Bandwidth\", 2023, "
    "https://chipsandcheese.com/2023/07/02/nvidias-h100-funny-l2-and-tons-of-bandwidth/), GH200 96 GB HBM3 "
    "4 TB/s (NVIDIA, 2023)";

/* A read-only stream in the same suite: 0.87-0.96. */
static const char source_read[] =
    "D. Ernst (NHR@FAU), gpu-benches, gpu-stream 'read' kernel at full occupancy, "
    "https://github.com/RRZE-HPC/gpu-benches/tree/master/gpu-stream: A100 40GB 1500 of 1555 GB/s (0.96), "
    "A100 80GB 1776 of 2039 (0.87), H100 PCIe 1942 of 2039 (0.95); peaks as for triad";

/* Pinned copies reach 0.78-0.88 of a link's rate after line encoding. */
static const char source_pcie[] =
    "cudaMemcpy from pinned memory: V100 PCIe on Gen3 x16 (15.75 GB/s) 12.35 GB/s, 0.78 (D. Ernst, gpu-benches, "
    "cuda-memcpy, https://github.com/RRZE-HPC/gpu-benches#cuda-memcpy); A100 on Gen4 x16 (31.5 GB/s) 25 GB/s "
    "measured, 0.79 (BaM, https://github.com/ZaidQureshi/bam/issues/54, 2025); H200 on Gen5 x16 (63.0 GB/s) "
    "55.3 GB/s, 0.88 (results/reference/NVIDIA_H200)";

/* Migrating on demand ran at 5 GB/s where the resident arrays ran at 822. */
static const char source_managed[] =
    "D. Ernst (NHR@FAU), gpu-benches, um-stream, https://github.com/RRZE-HPC/gpu-benches#um-stream: a triad "
    "on managed memory of a V100 PCIe migrating on demand 5.0 GB/s, resident 822 GB/s (0.006)";

/* Pure FMA streams reach 0.97 of SMs x clock x lanes x 2. */
static const char source_fma[] =
    "D. Ernst (NHR@FAU), gpu-benches, https://github.com/RRZE-HPC/gpu-benches: gpu-roofline A100 40GB float "
    "18999 GFlop/s of 19500 (0.97; NVIDIA A100 datasheet, FP32 19.5 TFLOPS), cuda-incore V100 DFMA 1.03 cycles "
    "a warp instruction where 1.00 is the peak (0.97); above 1: the reported clock rounded";

/* 32 banks of 4 bytes a clock, measured at 0.87 of that. */
static const char source_local[] =
    "NVIDIA, CUDA Programming Guide, 2.3.4.2 \"Shared Memory Access Patterns\": 32 banks, each 32 bits per "
    "clock cycle, i.e. 128 B/clk/SM, https://docs.nvidia.com/cuda/cuda-programming-guide/02-basics/"
    "writing-cuda-kernels.html (and the CUDA C++ Programming Guide, compute capability 5.x and later, "
    "#shared-memory-5-x); measured: RTX 2070 SUPER 111.7 of 128 B/clk/SM, 0.87 (Y. Li's YHs_Sample smem "
    "benchmark, https://github.com/leonardozcm/QuantitativeLLM); above 1: the reported clock rounded";

/* L2 hits: 205-281 cycles on Volta to Hopper, 358 on Blackwell. */
static const char source_l2[] =
    "pointer chase, L2 hit in SM cycles: D. Ernst (NHR@FAU), gpu-benches, gpu-latency, "
    "https://github.com/RRZE-HPC/gpu-benches/tree/master/gpu-latency: V100 212, A100 80GB 205, A40 250, "
    "L40 274, GH200 281; A. Jarmusch, N. Graddon, S. Chandrasekaran, \"Dissecting the NVIDIA Blackwell "
    "Architecture with Microbenchmarks\", 2025, https://arxiv.org/abs/2507.10789: H100 PCIe 273, RTX 5080 (GB203) "
    "358";

/* Device memory: 434-877 cycles, 251-392 ns. */
static const char source_memory[] =
    "pointer chase beyond L2: D. Ernst (NHR@FAU), gpu-benches, gpu-latency, "
    "https://github.com/RRZE-HPC/gpu-benches/tree/master/gpu-latency: V100 434 cycles at 1380 MHz (315 ns), "
    "A100 80GB 552 at 1410 (392 ns), A40 557 at 1740 (320 ns), L40 625 at 2490 (251 ns), GH200 689 at 1980 "
    "(348 ns); A. Jarmusch, N. Graddon, S. Chandrasekaran, \"Dissecting the NVIDIA Blackwell Architecture with "
    "Microbenchmarks\", 2025, https://arxiv.org/abs/2507.10789: H100 PCIe 658.7 cycles, RTX 5080 (GB203, GDDR7) "
    "876.7 cycles, 335-381 ns at its 2.30-2.62 GHz (Notebookcheck, \"Nvidia GeForce RTX 5080\", 2025)";

const gc_rule gc_rules[] = {
    /* source_triad: 0.87-0.95 measured, widened to 0.80-0.97. */
    {.figure = "triad double", .benchmark = "stream", .variant = "triad", .dtype = "double", .sweep = "footprint",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "GB/s", .min_cache_multiple = 4, .limit_kind = GC_META,
     .limit = "peak.memory_GBps", .limit_source = "peak.memory_source", .limit_required = true, .low = 0.80,
     .high = 0.97, .why = "arrays of 4x L2 or more; of the memory clock x bus width x 2 the driver reports",
     .source = source_triad},
    {.figure = "triad float", .benchmark = "stream", .variant = "triad", .dtype = "float", .sweep = "footprint",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "GB/s", .min_cache_multiple = 4, .limit_kind = GC_META,
     .limit = "peak.memory_GBps", .limit_source = "peak.memory_source", .limit_required = true, .low = 0.80,
     .high = 0.97, .why = "arrays of 4x L2 or more; of the memory clock x bus width x 2 the driver reports",
     .source = source_triad},
    /* source_read: 0.87-0.96 measured, widened to 0.70-0.97. */
    {.figure = "kernel read", .benchmark = "bandwidth", .variant = "kernel-read-device", .sweep = "size",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "GB/s", .min_cache_multiple = 4, .limit_kind = GC_META,
     .limit = "peak.memory_GBps", .limit_source = "peak.memory_source", .limit_required = true, .low = 0.70,
     .high = 0.97, .why = "a buffer of 4x L2 or more; of the theoretical memory bandwidth", .source = source_read},
    /* source_local: 128 B/clk/SM documented, 0.87 of it measured. The
     * rows of sweep size are an older kernel's (one load and one store a
     * barrier), not this figure. */
    {.figure = "local memory", .benchmark = "bandwidth", .variant = "kernel-local-memory", .sweep = "local-width",
     .pick = GC_HIGHEST, .value = GC_FIGURE, .unit = "GB/s", .limit_kind = GC_META, .limit = "peak.local_GBps",
     .limit_source = "peak.local_source", .limit_required = true, .low = 0.70, .high = 1.02,
     .why = "the best vector width and loads a barrier; of SMs x clock x 128 B (32 banks x 4 B a clock)",
     .source = source_local},
    /* source_pcie: 0.78-0.88 measured, widened to 0.70-0.92. */
    {.figure = "H2D pinned", .benchmark = "bandwidth", .variant = "h2d-memcpy-pinned", .sweep = "size",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "GB/s", .limit_kind = GC_META,
     .limit = "device.pcie_link_GBps", .limit_source = "device.pcie_link_source", .low = 0.70, .high = 0.92,
     .why = "of the PCIe link's rate per direction after line encoding (generation x width, from sysfs)",
     .source = source_pcie},
    {.figure = "D2H pinned", .benchmark = "bandwidth", .variant = "d2h-memcpy-pinned", .sweep = "size",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "GB/s", .limit_kind = GC_META,
     .limit = "device.pcie_link_GBps", .limit_source = "device.pcie_link_source", .low = 0.70, .high = 0.92,
     .why = "of the PCIe link's rate per direction after line encoding (generation x width, from sysfs)",
     .source = source_pcie},
    /* source_managed: pages that migrate on demand move at the fault
     * handler's pace, far below device memory; near triad, they were
     * resident before the read. */
    {.figure = "managed on demand", .benchmark = "bandwidth", .variant = "kernel-read-managed", .sweep = "size",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "GB/s", .limit_kind = GC_OTHER_FIGURE,
     .limit = "triad double", .low = 0.0, .high = 0.5,
     .why = "pages migrating on demand: at most half of the device memory's triad", .source = source_managed},
    /* source_fma: 0.97 measured, widened to 0.85-1.02. */
    {.figure = "FMA float", .benchmark = "fma", .variant = "fma", .dtype = "float", .pick = GC_HIGHEST,
     .value = GC_FIGURE, .unit = "Gflop/s", .limit_kind = GC_META, .limit = "peak.float_GFLOPs",
     .limit_source = "peak.compute_source", .limit_required = true, .low = 0.85, .high = 1.02,
     .why = "the best point; of SMs x clock x FMA lanes x 2 flops", .source = source_fma},
    {.figure = "FMA double", .benchmark = "fma", .variant = "fma", .dtype = "double", .pick = GC_HIGHEST,
     .value = GC_FIGURE, .unit = "Gflop/s", .limit_kind = GC_META, .limit = "peak.double_GFLOPs",
     .limit_source = "peak.compute_source", .limit_required = true, .low = 0.85, .high = 1.02,
     .why = "the best point; of SMs x clock x double FMA lanes x 2 flops", .source = source_fma},
    /* source_l2: 205-358 cycles measured, widened to 180-450. */
    {.figure = "L2 latency", .benchmark = "latency", .variant = "L2", .sweep = "level", .pick = GC_LARGEST_SIZE,
     .value = GC_CYCLES, .unit = "cycles", .limit_kind = GC_ABSOLUTE, .low = 180, .high = 450,
     .why = "a dependent load hitting L2, in SM clock cycles (clock64)", .source = source_l2},
    /* source_memory: 251-392 ns measured, widened to 200-500. */
    {.figure = "memory latency", .benchmark = "latency", .variant = "memory", .sweep = "level",
     .pick = GC_LARGEST_SIZE, .value = GC_FIGURE, .unit = "ns", .min_cache_multiple = 4,
     .limit_kind = GC_ABSOLUTE, .low = 200, .high = 500,
     .why = "a dependent load from device memory (a walk of 4x L2 or more)", .source = source_memory},
    /* source_memory: 434-877 cycles measured, widened to 400-1000. */
    {.figure = "memory latency cycles", .benchmark = "latency", .variant = "memory", .sweep = "level",
     .pick = GC_LARGEST_SIZE, .value = GC_CYCLES, .unit = "cycles", .min_cache_multiple = 4,
     .limit_kind = GC_ABSOLUTE, .low = 400, .high = 1000,
     .why = "the same load in SM clock cycles (clock64)", .source = source_memory},
};
const size_t gc_nrules = sizeof gc_rules / sizeof gc_rules[0];

const gc_rule *gc_rule_named(const char *figure)
{
    for (size_t i = 0; i < gc_nrules; ++i)
        if (strcmp(gc_rules[i].figure, figure) == 0)
            return &gc_rules[i];
    return NULL;
}
