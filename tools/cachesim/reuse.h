/* LRU reuse distance of a stream of lines: how many distinct other lines
 * were touched since a line's previous touch (Beyls & D'Hollander). A fully
 * associative LRU cache of N lines hits exactly when it is below N, which is
 * what tells a capacity miss from a conflict miss. */
#ifndef CACHESIM_REUSE_H
#define CACHESIM_REUSE_H

#include <stdint.h>

#define CS_REUSE_FIRST_TOUCH UINT64_MAX

typedef struct cs_reuse_stack cs_reuse_stack;

cs_reuse_stack *cs_reuse_new(void);
/* Touches line; returns its reuse distance, CS_REUSE_FIRST_TOUCH the first time. */
uint64_t cs_reuse_touch(cs_reuse_stack *r, uint64_t line);
void cs_reuse_free(cs_reuse_stack *r);

#endif
