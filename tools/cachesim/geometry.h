/* One cache level's configuration as the command line gives it, its names,
 * and the checks that make it a cache the model can index. */
#ifndef CACHESIM_GEOMETRY_H
#define CACHESIM_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { CS_POLICY_LRU, CS_POLICY_MFU, CS_POLICY_LFU, CS_POLICY_RANDOM } cs_replacement_policy;
typedef enum { CS_WRITE_THROUGH_NO_ALLOCATE, CS_WRITE_BACK_ALLOCATE } cs_write_policy;

typedef struct {
    unsigned size_kb;      /* capacity in KiB (1024 bytes) */
    unsigned line_bytes;
    unsigned ways;
    unsigned sector_bytes; /* the unit a miss fetches; line_bytes when unsectored */
    cs_replacement_policy policy;
    cs_write_policy write;
} cs_cache_geometry;

extern const char *const cs_replacement_policy_names[]; /* LRU MFU LFU Rand */
extern const char *const cs_write_policy_names[];       /* WTNA WBWA */

/* The index of name in names (count entries), or -1. */
int cs_geometry_name_index(const char *const *names, int count, const char *name);

unsigned cs_geometry_lines(const cs_cache_geometry *g);
unsigned cs_geometry_sets(const cs_cache_geometry *g);

/* 0 when g can be simulated; else -1 and one line in err naming the value. */
int cs_geometry_check(const cs_cache_geometry *g, char *err, size_t errlen);

/* Parses the five words of Crawford's command line: SIZE_KB LINE_B ASSOC
 * POLICY WRITE (the sector size is the line's). */
int cs_geometry_parse_fields(const char *const fields[5], cs_cache_geometry *g, char *err, size_t errlen);

/* Parses "SIZE_KB,LINE_B,ASSOC,POLICY,WRITE" (the form of --level). */
int cs_geometry_parse(const char *spec, cs_cache_geometry *g, char *err, size_t errlen);

#endif
