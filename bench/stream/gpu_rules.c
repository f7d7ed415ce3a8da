/* What the GPU check judges of stream's CUDA results (tools/gpu_check/rules.h). */
#include "gpu_check/rules.h"

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

static const gc_rule rules[] = {
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
};
const cr_bench_part gc_rules_stream = {rules, sizeof rules / sizeof rules[0]};
