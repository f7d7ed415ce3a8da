/* What the host CPU says about its caches, for a CPU device's detection
 * rows to be compared with: the kernel's sysfs cache description of CPU 0
 * (level, type, size, ways_of_associativity, coherency_line_size,
 * number_of_sets), data and unified caches only, by level. */
#ifndef CR_CACHE_REFERENCE_H
#define CR_CACHE_REFERENCE_H

#include "cache/geometry.h"

#include <stdint.h>

typedef struct {
    unsigned level;
    uint64_t size;  /* bytes; 0 unknown */
    unsigned ways;  /* 0 unknown */
    unsigned line;  /* 0 unknown */
    unsigned sets;  /* 0 unknown */
    char shared_cpus[64]; /* shared_cpu_list, "" unknown: the CPUs this system lists as sharing the level */
} cc_ref_level;

typedef struct {
    unsigned count; /* levels 1.. in order */
    cc_ref_level level[CC_MAX_LEVELS];
} cc_reference;

/* Reads dir (normally /sys/devices/system/cpu/cpu0/cache): its index*
 * folders. Returns the number of levels found (0 where there is none). */
unsigned cc_reference_read(const char *dir, cc_reference *out);

#endif
