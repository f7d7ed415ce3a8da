/* What the GPU check judges of fma's CUDA results (tools/gpu_check/rules.h). */
#include "gpu_check/rules.h"

/* Pure FMA streams reach 0.97 of SMs x clock x lanes x 2. */
static const char source_fma[] =
    "D. Ernst (NHR@FAU), gpu-benches, https://github.com/RRZE-HPC/gpu-benches: gpu-roofline A100 40GB float "
    "18999 GFlop/s of 19500 (0.97; NVIDIA A100 datasheet, FP32 19.5 TFLOPS), cuda-incore V100 DFMA 1.03 cycles "
    "a warp instruction where 1.00 is the peak (0.97); above 1: the reported clock rounded";

static const gc_rule rules[] = {
    /* source_fma: 0.97 measured, widened to 0.85-1.02. */
    {.figure = "FMA float", .benchmark = "fma", .variant = "fma", .dtype = "float", .pick = GC_HIGHEST,
     .value = GC_FIGURE, .unit = "Gflop/s", .limit_kind = GC_META, .limit = "peak.float_GFLOPs",
     .limit_source = "peak.compute_source", .limit_required = true, .low = 0.85, .high = 1.02,
     .why = "the best point; of SMs x clock x FMA lanes x 2 flops", .source = source_fma},
    {.figure = "FMA double", .benchmark = "fma", .variant = "fma", .dtype = "double", .pick = GC_HIGHEST,
     .value = GC_FIGURE, .unit = "Gflop/s", .limit_kind = GC_META, .limit = "peak.double_GFLOPs",
     .limit_source = "peak.compute_source", .limit_required = true, .low = 0.85, .high = 1.02,
     .why = "the best point; of SMs x clock x double FMA lanes x 2 flops", .source = source_fma},
};
const cr_bench_part gc_rules_fma = {rules, sizeof rules / sizeof rules[0]};
