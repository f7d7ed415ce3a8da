/* The GPU check's verdicts on a loaded run: every CUDA benchmark's outcome,
 * the validity of every row it wrote, and each figure of the rules against
 * its plausible range. */
#ifndef CR_GPU_CHECK_JUDGE_H
#define CR_GPU_CHECK_JUDGE_H

#include "gpu_check/run_data.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GC_OK,
    GC_FAILED,
    GC_UNJUDGED, /* no limit to judge it by, and none is required: said, not failed */
    GC_SKIPPED,  /* a benchmark that found no device, where no GPU is visible */
} gc_state;

#define GC_REASON_LEN 700

typedef struct {
    const char *section; /* "benchmarks", or the device's directory */
    char what[128];      /* a figure, a benchmark, or a file */
    char measured[48];
    char range[160];
    gc_state state;
    char reason[GC_REASON_LEN];
} gc_line;

typedef struct {
    gc_line *lines;
    size_t n, cap;
    size_t count[4]; /* lines in each state */
    /* No CUDA benchmark ran on a device and no GPU is visible: nothing to
     * check; why_none is the first benchmark's reason. */
    bool nothing_to_check;
    char why_none[300];
} gc_verdicts;

/* Judges the run, gpus_visible being the GPUs the machine shows
 * (nvidia-smi -L): where there are any, a CUDA benchmark that found no
 * device failed. */
void gc_judge(const gc_run *run, unsigned gpus_visible, gc_verdicts *v);
void gc_verdicts_free(gc_verdicts *v);

/* "ok", "FAILED", "unjudged", "skipped". */
const char *gc_state_word(gc_state s);

#endif
