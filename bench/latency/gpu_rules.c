/* What the GPU check judges of latency's CUDA results (tools/gpu_check/rules.h). */
#include "gpu_check/rules.h"

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

static const gc_rule rules[] = {
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
const cr_bench_part gc_rules_latency = {rules, sizeof rules / sizeof rules[0]};
