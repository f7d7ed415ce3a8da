#include "cache/reference.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The first line of dir/index<i>/name, without its newline; false where
 * there is none. */
static bool read_field(const char *dir, unsigned i, const char *name, char *out, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index%u/%s", dir, i, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(out, (int)len, f) != NULL;
    fclose(f);
    if (ok)
        out[strcspn(out, "\n")] = '\0';
    return ok;
}

static unsigned read_unsigned(const char *dir, unsigned i, const char *name)
{
    char v[64];
    unsigned u = 0;
    return read_field(dir, i, name, v, sizeof v) && sscanf(v, "%u", &u) == 1 ? u : 0;
}

/* sysfs sizes read "32K", "1024K", "32768K" (and "M" on some kernels). */
static uint64_t read_size(const char *dir, unsigned i)
{
    char v[64], unit = 0;
    uint64_t n = 0;
    if (!read_field(dir, i, "size", v, sizeof v) || sscanf(v, "%" SCNu64 "%c", &n, &unit) < 1)
        return 0;
    return unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : unit == 'G' ? n << 30 : n;
}

unsigned cc_reference_read(const char *dir, cc_reference *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < 16; ++i) {
        char type[32];
        if (!read_field(dir, i, "type", type, sizeof type))
            continue;
        if (strcmp(type, "Data") != 0 && strcmp(type, "Unified") != 0)
            continue;
        unsigned level = read_unsigned(dir, i, "level");
        if (level < 1 || level > CC_MAX_LEVELS)
            continue;
        cc_ref_level *l = &out->level[level - 1];
        *l = (cc_ref_level){.level = level, .size = read_size(dir, i), .ways = read_unsigned(dir, i, "ways_of_associativity"),
                            .line = read_unsigned(dir, i, "coherency_line_size"),
                            .sets = read_unsigned(dir, i, "number_of_sets")};
        if (!read_field(dir, i, "shared_cpu_list", l->shared_cpus, sizeof l->shared_cpus))
            l->shared_cpus[0] = '\0';
    }
    /* Levels 1.. without a gap. */
    while (out->count < CC_MAX_LEVELS && out->level[out->count].level == out->count + 1)
        ++out->count;
    return out->count;
}
