#define _GNU_SOURCE
#include "cache/hostmem.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int cc_host_words_map(cc_host_words *h, uint64_t nwords, bool huge)
{
    memset(h, 0, sizeof *h);
    if (nwords == 0 || nwords > (SIZE_MAX - 2 * CC_HUGE_PAGE) / 8)
        return -1;
    size_t bytes = (size_t)((nwords * 8 + CC_HUGE_PAGE - 1) / CC_HUGE_PAGE * CC_HUGE_PAGE);
    /* One huge page more than needed, so that an aligned start fits. */
    size_t map_bytes = bytes + CC_HUGE_PAGE;
    void *map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return -1;
    uintptr_t aligned = ((uintptr_t)map + CC_HUGE_PAGE - 1) & ~(uintptr_t)(CC_HUGE_PAGE - 1);
    h->map = map;
    h->map_bytes = map_bytes;
    h->words = (uint64_t *)aligned;
    h->nwords = nwords;
    h->advised = huge && madvise(h->words, bytes, MADV_HUGEPAGE) == 0;
    return 0;
}

void cc_host_words_unmap(cc_host_words *h)
{
    if (h->map)
        munmap(h->map, h->map_bytes);
    memset(h, 0, sizeof *h);
}

void cc_thp_mode(const char *path, char *out, size_t len)
{
    if (len)
        out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[256];
    if (fgets(line, sizeof line, f)) {
        char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close)
            snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
    }
    fclose(f);
}

double cc_huge_share(const char *smaps_path, const void *p, size_t bytes)
{
    FILE *f = fopen(smaps_path, "r");
    if (!f)
        return -1;
    uintptr_t lo = (uintptr_t)p, hi = lo + bytes;
    bool inside = false;
    uint64_t rss_kb = 0, huge_kb = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        uintptr_t a, b;
        uint64_t kb;
        /* A mapping's first line starts with its address range; the
         * fields after it belong to it. */
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = a < hi && b > lo;
        else if (inside && sscanf(line, "Rss: %" SCNu64 " kB", &kb) == 1)
            rss_kb += kb;
        else if (inside && sscanf(line, "AnonHugePages: %" SCNu64 " kB", &kb) == 1)
            huge_kb += kb;
    }
    fclose(f);
    return rss_kb ? (double)huge_kb / (double)rss_kb : -1;
}
