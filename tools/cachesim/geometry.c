#include "geometry.h"
#include "error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_replacement_policy_names[] = {"LRU", "MFU", "LFU", "Rand"};
const char *const cs_write_policy_names[] = {"WTNA", "WBWA"};

int cs_geometry_name_index(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; ++i)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

unsigned cs_geometry_lines(const cs_cache_geometry *g)
{
    return (unsigned)((unsigned long long)g->size_kb * 1024 / g->line_bytes);
}

unsigned cs_geometry_sets(const cs_cache_geometry *g)
{
    return cs_geometry_lines(g) / g->ways;
}

static bool power_of_two(unsigned long long v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* Largest sectors per line the model tracks: one bit each in a 64-bit mask. */
#define MAX_SECTORS_PER_LINE 64

int cs_geometry_check(const cs_cache_geometry *g, char *err, size_t errlen)
{
    if (g->size_kb == 0)
        return cr_errf(err, errlen, "cache size 0 KB: it must be at least 1");
    if (g->size_kb > (1u << 22))
        return cr_errf(err, errlen, "cache size %u KB is above the 4 GiB the model indexes", g->size_kb);
    if (g->line_bytes == 0)
        return cr_errf(err, errlen, "line size 0 B: it must be at least 1");
    if (!power_of_two(g->line_bytes))
        return cr_errf(err, errlen, "line size %u B is not a power of two (the offset is the address's low bits)",
                       g->line_bytes);
    if (g->ways == 0)
        return cr_errf(err, errlen, "associativity 0: a set needs at least 1 way");
    unsigned long long bytes = (unsigned long long)g->size_kb * 1024, set_bytes = (unsigned long long)g->line_bytes * g->ways;
    if (bytes % set_bytes != 0)
        return cr_errf(err, errlen, "cache size %u KB (%llu B) is not a multiple of line x ways (%u B x %u = %llu B)",
                       g->size_kb, bytes, g->line_bytes, g->ways, set_bytes);
    if (!power_of_two(bytes / set_bytes))
        return cr_errf(err, errlen,
                       "%llu sets (%u KB / (%u B x %u ways)) is not a power of two (the set index is address bits)",
                       bytes / set_bytes, g->size_kb, g->line_bytes, g->ways);
    if (g->sector_bytes == 0 || g->line_bytes % g->sector_bytes != 0)
        return cr_errf(err, errlen, "sector size %u B does not divide the line size %u B", g->sector_bytes,
                       g->line_bytes);
    if (g->line_bytes / g->sector_bytes > MAX_SECTORS_PER_LINE)
        return cr_errf(err, errlen, "%u sectors of %u B in a %u B line: at most %d are modelled",
                       g->line_bytes / g->sector_bytes, g->sector_bytes, g->line_bytes, MAX_SECTORS_PER_LINE);
    return 0;
}

static int parse_count(const char *what, const char *text, unsigned *out, char *err, size_t errlen)
{
    errno = 0;
    char *end;
    unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (text[0] < '0' || text[0] > '9' || *end != '\0')
        return cr_errf(err, errlen, "%s '%s' is not a non-negative decimal number", what, text);
    if (errno == ERANGE || v > UINT_MAX)
        return cr_errf(err, errlen, "%s '%s' is above the %u the model takes", what, text, UINT_MAX);
    *out = (unsigned)v;
    return 0;
}

int cs_geometry_parse_fields(const char *const fields[5], cs_cache_geometry *g, char *err, size_t errlen)
{
    *g = (cs_cache_geometry){0};
    if (parse_count("cache size (KB)", fields[0], &g->size_kb, err, errlen) != 0 ||
        parse_count("line size (B)", fields[1], &g->line_bytes, err, errlen) != 0 ||
        parse_count("associativity", fields[2], &g->ways, err, errlen) != 0)
        return -1;
    int policy = cs_geometry_name_index(cs_replacement_policy_names, 4, fields[3]);
    if (policy < 0)
        return cr_errf(err, errlen, "replacement policy '%s' is none of LRU, MFU, LFU, Rand", fields[3]);
    int write = cs_geometry_name_index(cs_write_policy_names, 2, fields[4]);
    if (write < 0)
        return cr_errf(err, errlen, "write policy '%s' is neither WTNA nor WBWA", fields[4]);
    g->policy = (cs_replacement_policy)policy;
    g->write = (cs_write_policy)write;
    g->sector_bytes = g->line_bytes;
    return 0;
}

int cs_geometry_parse(const char *spec, cs_cache_geometry *g, char *err, size_t errlen)
{
    char copy[256];
    if (strlen(spec) >= sizeof copy)
        return cr_errf(err, errlen, "level '%.40s...' is too long", spec);
    strcpy(copy, spec);
    const char *fields[5];
    char *p = copy;
    for (int i = 0; i < 5; ++i) {
        fields[i] = p;
        p = strchr(p, ',');
        if ((p == NULL) != (i == 4))
            return cr_errf(err, errlen, "level '%s' is not SIZE_KB,LINE_B,ASSOC,POLICY,WRITE", spec);
        if (p)
            *p++ = '\0';
    }
    return cs_geometry_parse_fields(fields, g, err, errlen);
}
