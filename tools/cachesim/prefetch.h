/* A level's hardware prefetcher, off unless asked for (Crawford's model
 * has none): next-line, which on a demand miss to line X fetches lines
 * X + distance .. X + distance + degree - 1; or stride, which once two
 * demand accesses in a row have moved by the same number of lines s fetches
 * X + s * distance .. X + s * (distance + degree - 1). Lines, not bytes:
 * accesses within one line do not move a stride. */
#ifndef CACHESIM_PREFETCH_H
#define CACHESIM_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CS_PREFETCH_OFF, CS_PREFETCH_NEXT_LINE, CS_PREFETCH_STRIDE } cs_prefetch_kind;

#define CS_PREFETCH_MAX_DEGREE 16
#define CS_PREFETCH_MAX_DISTANCE 64

typedef struct {
    cs_prefetch_kind kind;
    unsigned degree;   /* lines fetched at once, 1..CS_PREFETCH_MAX_DEGREE */
    unsigned distance; /* how far ahead the first is, 1..CS_PREFETCH_MAX_DISTANCE */
} cs_prefetch_config;

typedef struct {
    cs_prefetch_config config;
    uint64_t last_line;
    int64_t stride;
    bool seen, confirmed;
} cs_prefetcher;

extern const char *const cs_prefetch_kind_names[]; /* off next-line stride */

/* "off", or KIND[:DEGREE[:DISTANCE]] with KIND next-line or stride
 * (degree and distance 1 by default). 0, or -1 and one line in err. */
int cs_prefetch_parse(const char *spec, cs_prefetch_config *out, char *err, size_t errlen);

void cs_prefetcher_init(cs_prefetcher *p, const cs_prefetch_config *config);

/* After a demand access to line (a miss where missed): the lines to fetch,
 * into out (room for CS_PREFETCH_MAX_DEGREE); their count. */
unsigned cs_prefetcher_next(cs_prefetcher *p, uint64_t line, bool missed, uint64_t *out);

#endif
