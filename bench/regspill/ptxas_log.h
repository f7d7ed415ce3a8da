/* Reads what NVIDIA's assembler says about a kernel in its verbose log
 * (ptxas -v, nvcc -Xptxas -v, the JIT's info log, NVIDIA OpenCL's
 * -cl-nv-verbose build log): registers per thread, spill traffic and stack. */
#ifndef CR_PTXAS_LOG_H
#define CR_PTXAS_LOG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    bool found;               /* a "Used N registers" line was seen */
    int registers;
    int64_t stack_frame_bytes; /* -1 when the log does not say */
    int64_t spill_store_bytes;
    int64_t spill_load_bytes;
    int lower_bound;           /* the cap ptxas raised a too-small request to, 0 if none */
} ptxas_report;

/* Parses the report of the entry function named entry (NULL: the first one
 * in the log). */
void ptxas_parse(const char *log, const char *entry, ptxas_report *out);

#endif
