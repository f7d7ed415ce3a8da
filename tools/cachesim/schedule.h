/* The order in which a trace's accesses reach the cache, and which of them
 * form one warp instruction.
 *
 * Warp of an access: WARP / warp_size within its work-group, so that with
 * --warp-size 1 (the default) the WARP field is the warp itself and with
 * --warp-size 32 it is read as the work-item's local id.
 * Loop snapshot of an access: how many earlier accesses the same work-item
 * (work-group, WARP field) made with the same instruction: the k-th
 * execution of an instruction is its k-th loop iteration.
 * Warp instruction: the accesses of one warp with the same instruction and
 * the same loop snapshot.
 *
 * trace order: the accesses as the trace lists them.
 * warp order: warps are taken in the order of their first access; round r
 * issues the r-th warp instruction of every warp that has one, warp after
 * warp (round-robin across warps, hence across work-groups); a warp's
 * instructions are ordered by their first access in the trace, and the
 * accesses of one instruction keep their trace order. */
#ifndef CACHESIM_SCHEDULE_H
#define CACHESIM_SCHEDULE_H

#include "trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CS_SCHEDULE_TRACE, CS_SCHEDULE_WARP } cs_schedule_kind;

typedef struct {
    size_t *order;          /* trace indices, in issue order */
    uint64_t *instruction;  /* per issued access: its warp instruction's number */
    size_t count;
} cs_schedule;

/* 0, or -1 when out of memory. warp_size > 0. */
int cs_schedule_build(const cs_trace *t, cs_schedule_kind kind, unsigned warp_size, cs_schedule *s);

/* Coalescing: an access whose line (of line_bytes) the same warp
 * instruction already touched, in the run of its accesses issued back to
 * back, is dropped (keep[i] false). Returns how many were dropped. */
size_t cs_schedule_coalesce(const cs_trace *t, const cs_schedule *s, unsigned line_bytes, bool *keep);

void cs_schedule_free(cs_schedule *s);

#endif
