/* The trace cachesim reads: one access a line, "ADDRESS R|W [WORKGROUP WARP
 * INSTRUCTION]", the address hex (0x...) or decimal, 64 bits; '#' starts a
 * comment, blank lines are skipped. Without the three trailing fields an
 * access is work-group 0, warp 0 and its own instruction (see schedule.h). */
#ifndef CACHESIM_TRACE_H
#define CACHESIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t address;
    bool write;
    bool has_origin;      /* the three trailing fields were given */
    uint64_t workgroup;
    uint64_t warp;        /* the WARP field: a warp, or a work-item's local id under --warp-size */
    uint64_t instruction;
} cs_trace_access;

typedef struct {
    cs_trace_access *items;
    size_t count, capacity;
} cs_trace;

/* Parses one line's text (no newline). Returns 1 for an access, 0 for a
 * blank or comment line, -1 with the reason in why. */
int cs_trace_parse_line(const char *text, cs_trace_access *access, char *why, size_t whylen);

/* The longest line a trace may have, in bytes (without its newline). */
#define CS_TRACE_MAX_LINE 4096

/* The most accesses a trace may hold: the trace is held whole, with the
 * simulation's state per access, and 16 Mi of them stay within a few GiB. */
#define CS_TRACE_MAX_ACCESSES (16u << 20)

/* Reads every line of in into t (empty on entry). On a malformed line (one
 * longer than CS_TRACE_MAX_LINE too, or an access past
 * CS_TRACE_MAX_ACCESSES) returns -1 with "NAME:LINE: reason" in err; out of
 * memory, -2 with the count read so far. */
int cs_trace_read(FILE *in, const char *name, cs_trace *t, char *err, size_t errlen);

void cs_trace_free(cs_trace *t);

#endif
