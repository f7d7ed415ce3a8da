/* One cache level's configuration as the command line gives it, its names,
 * and the checks that make it a cache the model can index. */
#ifndef CACHESIM_GEOMETRY_H
#define CACHESIM_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { POLICY_LRU, POLICY_MFU, POLICY_LFU, POLICY_RANDOM } replacement_policy;
typedef enum { WRITE_THROUGH_NO_ALLOCATE, WRITE_BACK_ALLOCATE } write_policy;

typedef struct {
    unsigned size_kb;      /* capacity in KiB (1024 bytes) */
    unsigned line_bytes;
    unsigned ways;
    unsigned sector_bytes; /* the unit a miss fetches; line_bytes when unsectored */
    replacement_policy policy;
    write_policy write;
} cache_geometry;

extern const char *const replacement_policy_names[]; /* LRU MFU LFU Rand */
extern const char *const write_policy_names[];       /* WTNA WBWA */

/* The index of name in names (count entries), or -1. */
int geometry_name_index(const char *const *names, int count, const char *name);

unsigned geometry_lines(const cache_geometry *g);
unsigned geometry_sets(const cache_geometry *g);

/* 0 when g can be simulated; else -1 and one line in err naming the value. */
int geometry_check(const cache_geometry *g, char *err, size_t errlen);

/* Parses the five words of Crawford's command line: SIZE_KB LINE_B ASSOC
 * POLICY WRITE (the sector size is the line's). */
int geometry_parse_fields(const char *const fields[5], cache_geometry *g, char *err, size_t errlen);

/* Parses "SIZE_KB,LINE_B,ASSOC,POLICY,WRITE" (the form of --level). */
int geometry_parse(const char *spec, cache_geometry *g, char *err, size_t errlen);

#endif
