/* The host's own memory bandwidth at each size, the yardsticks the device
 * paths are compared with: one thread copying (what a runtime's copy does at
 * best without help), all cores copying (what the memory could give a copy),
 * and all cores reading and writing with OpenMP. */
#ifndef CR_BANDWIDTH_HOST_REF_H
#define CR_BANDWIDTH_HOST_REF_H

#include "topology.h"

#include <stdint.h>

/* Single-threaded memcpy of bytes. */
void bw_host_memcpy(void *dst, const void *src, uint64_t bytes);
/* memcpy of bytes split into one contiguous chunk per OpenMP thread
 * (bw_host_chunk), all threads. */
void bw_host_memcpy_mt(void *dst, const void *src, uint64_t bytes);
/* Sum of the 32-bit words of src (bytes a multiple of 4), all threads. */
uint64_t bw_host_read(const void *src, uint64_t bytes);
/* Writes BW_PATTERN_WORD(i, seed) (elements.h) into every 32-bit word, all threads. */
void bw_host_write(void *dst, uint64_t bytes, uint32_t seed);
/* Threads the OpenMP references use. */
int bw_host_threads(void);

/* Part `part` of `parts` (0 <= part < parts) of a copy of bytes, as
 * [*lo, *hi): consecutive parts tile [0, bytes) exactly, their sizes differ
 * by at most one cache line, and every boundary but the end falls on a
 * 64-byte line so that no two threads write the same line. */
void bw_host_chunk(uint64_t bytes, uint64_t parts, uint64_t part, uint64_t *lo, uint64_t *hi);

/* Binds every OpenMP worker thread to a core of its own with hwloc (worker
 * t to core t modulo the cores), so that the multi-threaded references do
 * not migrate; the calling thread keeps the placement it has (near the
 * device). Leaves everything alone where OMP_PROC_BIND already binds.
 * Returns how the threads are placed, for the rows and the metadata:
 * "hwloc-cores", "OMP_PROC_BIND" or "none" (no topology, or hwloc failed). */
const char *bw_host_bind_threads(cr_topology *t);

#endif
