#include "prefetch.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_prefetch_kind_names[] = {"off", "next-line", "stride"};

/* A whole number from 1 to max. */
static int parse_bound(const char *what, const char *text, size_t len, unsigned max, unsigned *out, char *err,
                       size_t errlen)
{
    unsigned v = 0;
    size_t i = 0;
    for (; i < len && text[i] >= '0' && text[i] <= '9' && v <= max; ++i)
        v = v * 10 + (unsigned)(text[i] - '0');
    if (len == 0 || i != len || v < 1 || v > max)
        return cr_errf(err, errlen, "--prefetch: %s '%.*s' is not a whole number from 1 to %u", what, (int)len, text,
                       max);
    *out = v;
    return 0;
}

int cs_prefetch_parse(const char *spec, cs_prefetch_config *out, char *err, size_t errlen)
{
    *out = (cs_prefetch_config){CS_PREFETCH_OFF, 1, 1};
    size_t klen = strcspn(spec, ":");
    int kind = -1;
    for (int k = 0; k < 3; ++k)
        if (strlen(cs_prefetch_kind_names[k]) == klen && strncmp(spec, cs_prefetch_kind_names[k], klen) == 0)
            kind = k;
    if (kind < 0)
        return cr_errf(err, errlen, "--prefetch: '%.*s' is none of off, next-line, stride", (int)klen, spec);
    out->kind = (cs_prefetch_kind)kind;
    const char *rest = spec + klen;
    if (*rest == '\0')
        return 0;
    if (kind == CS_PREFETCH_OFF)
        return cr_errf(err, errlen, "--prefetch: off takes no degree or distance");
    ++rest;
    size_t dlen = strcspn(rest, ":");
    if (parse_bound("degree", rest, dlen, CS_PREFETCH_MAX_DEGREE, &out->degree, err, errlen) != 0)
        return -1;
    if (rest[dlen] == '\0')
        return 0;
    rest += dlen + 1;
    return parse_bound("distance", rest, strlen(rest), CS_PREFETCH_MAX_DISTANCE, &out->distance, err, errlen);
}

void cs_prefetcher_init(cs_prefetcher *p, const cs_prefetch_config *config)
{
    *p = (cs_prefetcher){.config = *config};
}

unsigned cs_prefetcher_next(cs_prefetcher *p, uint64_t line, bool missed, uint64_t *out)
{
    const cs_prefetch_config *c = &p->config;
    unsigned n = 0;
    if (c->kind == CS_PREFETCH_NEXT_LINE) {
        for (unsigned i = 0; missed && i < c->degree; ++i)
            out[n++] = line + c->distance + i;
        return n;
    }
    if (c->kind != CS_PREFETCH_STRIDE || (p->seen && line == p->last_line))
        return 0;
    int64_t s = p->seen ? (int64_t)(line - p->last_line) : 0;
    p->confirmed = p->seen && p->stride != 0 && s == p->stride;
    p->stride = s;
    p->last_line = line;
    p->seen = true;
    for (unsigned i = 0; p->confirmed && i < c->degree; ++i) {
        int64_t ahead = s * (int64_t)(c->distance + i);
        /* Nothing below line 0 or past the end of the address space. */
        if ((ahead < 0 && (uint64_t)-ahead > line) || (ahead > 0 && (uint64_t)ahead > UINT64_MAX - line))
            break;
        out[n++] = line + (uint64_t)ahead;
    }
    return n;
}
