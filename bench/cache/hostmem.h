/* Host memory for chains a CPU device reads in place: 2 MiB-aligned
 * anonymous mappings, advised to be backed by transparent huge pages, so
 * that a chase spanning more than a 4 KiB page keeps its addresses' low
 * 21 bits physical too (a physically indexed cache's set index lies
 * there), and reports of how much of a range huge pages really back. */
#ifndef CR_CACHE_HOSTMEM_H
#define CR_CACHE_HOSTMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CC_HUGE_PAGE (UINT64_C(2) << 20)

typedef struct {
    void *map;         /* the mapping, NULL while none */
    size_t map_bytes;
    uint64_t *words;   /* 2 MiB-aligned, zeroed */
    uint64_t nwords;
    bool advised;      /* madvise(MADV_HUGEPAGE) was accepted */
} cc_host_words;

/* Maps nwords (>= 1) zeroed words, advising huge pages when huge is set.
 * Returns 0, or -1 (nothing mapped) when the mapping fails. */
int cc_host_words_map(cc_host_words *h, uint64_t nwords, bool huge);
void cc_host_words_unmap(cc_host_words *h);

/* The transparent huge page mode the kernel file at path (normally
 * /sys/kernel/mm/transparent_hugepage/enabled) selects, the bracketed
 * word ("always", "madvise", "never"); "" when it cannot be read. */
void cc_thp_mode(const char *path, char *out, size_t len);

/* The share of the resident bytes of [p, p + bytes) that huge pages back,
 * from an smaps file (normally /proc/self/smaps); -1 when it cannot be
 * read or nothing there is resident. */
double cc_huge_share(const char *smaps_path, const void *p, size_t bytes);

#endif
