/* What the GPU check judges of bandwidth's CUDA results (tools/gpu_check/rules.h). */
#include "gpu_check/rules.h"

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

/* 32 banks of 4 bytes a clock, measured at 0.87 of that. */
static const char source_local[] =
    "NVIDIA, CUDA Programming Guide, 2.3.4.2 \"Shared Memory Access Patterns\": 32 banks, each 32 bits per "
    "clock cycle, i.e. 128 B/clk/SM, https://docs.nvidia.com/cuda/cuda-programming-guide/02-basics/"
    "writing-cuda-kernels.html (and the CUDA C++ Programming Guide, compute capability 5.x and later, "
    "#shared-memory-5-x); measured: RTX 2070 SUPER 111.7 of 128 B/clk/SM, 0.87 (Y. Li's YHs_Sample smem "
    "benchmark, https://github.com/leonardozcm/QuantitativeLLM); above 1: the reported clock rounded";

static const gc_rule rules[] = {
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
};
const cr_bench_part gc_rules_bandwidth = {rules, sizeof rules / sizeof rules[0]};
