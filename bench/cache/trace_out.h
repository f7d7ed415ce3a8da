/* The host's replay of a pattern (the kernel's own cursor, pattern_index.h)
 * and the trace it makes, in the text format tools/cachesim reads:
 * "ADDRESS R|W WORKGROUP WARP INSTRUCTION", one work-item (work-group 0,
 * warp 0), the instruction the load or store of the loop body. */
#ifndef CR_CACHE_TRACE_OUT_H
#define CR_CACHE_TRACE_OUT_H

#include "cache/pattern_index.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t address; /* byte address, buffers placed as cc_buffer_base says */
    bool write;
    unsigned char instruction;
} cc_trace_access;

typedef struct {
    cc_trace_access *items;
    uint64_t count;
    uint64_t checksum; /* what the kernel's run must compute: the sum of the values it loads */
} cc_replay;

/* The first `accesses` accesses of s, as one kernel run makes them. 0, or
 * -1 when out of memory (nothing allocated). */
int cc_replay_make(const cc_pattern_shape *s, uint64_t accesses, cc_replay *out);
void cc_replay_free(cc_replay *r);

/* The trace's file name, "<pattern>-<footprint>B.trace": built from the
 * pattern's name and a number only. */
void cc_trace_name(char *out, size_t size, const char *pattern, uint64_t footprint);

/* Writes the replay as a trace: two comment lines, then one access a line.
 * 0, or -1 where the stream failed. */
int cc_trace_write(FILE *f, const char *pattern, uint64_t footprint, const cc_replay *r);

/* Writes it to path through a temporary file renamed over it, so that no
 * half trace is left. 0, or -1 with one line in err. */
int cc_trace_save(const char *path, const char *pattern, uint64_t footprint, const cc_replay *r, char *err,
                  size_t errlen);

#endif
