/* The host's own memory bandwidth at each size, the yardsticks the device
 * paths are compared with: one thread copying (what a runtime's copy does at
 * best without help), and all cores reading and writing with OpenMP. */
#ifndef CR_BANDWIDTH_HOST_REF_H
#define CR_BANDWIDTH_HOST_REF_H

#include <stdint.h>

/* Single-threaded memcpy of bytes. */
void bw_host_memcpy(void *dst, const void *src, uint64_t bytes);
/* Sum of the 32-bit words of src (bytes a multiple of 4), all threads. */
uint64_t bw_host_read(const void *src, uint64_t bytes);
/* Writes BW_PATTERN_WORD(i, seed) (elements.h) into every 32-bit word, all threads. */
void bw_host_write(void *dst, uint64_t bytes, uint32_t seed);
/* Threads the OpenMP references use. */
int bw_host_threads(void);

#endif
