/* The cache benchmark's part of the report: the geometry it detected
 * (report_detect.c) and the cache model against the measurement
 * (report_model.c); on the first screen, the capacity of each level. */
#include "report/part.h"

#include "cache/report_detect.h"
#include "cache/report_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_cache_detect(sec, file, t);
    rp_cache_model(sec, file, t);
}

/* "L1d 32 KiB, L2 1 MiB": each level's detected capacity, in order. */
static void headline(rp_device *d, int s)
{
    const rp_table *t = rp_find_table(&d->sections[s], "cache-detect");
    char value[128] = "";
    for (size_t i = 0; t && i < t->nrows; ++i) {
        const char *key = t->rows[i].key, *space = strchr(key, ' ');
        if (space == NULL || strcmp(space, " capacity") != 0 || !isfinite(t->rows[i].cells[0].num))
            continue;
        char size[48];
        rp_format_bytes(t->rows[i].cells[0].num, size, sizeof size);
        rp_appendf(value, sizeof value, ", ", "%.*s %s", (int)(space - key), key, size);
    }
    rp_headline_text(d, s, "Cache capacity per level", value);
}

const rp_part rp_part_cache = {
    .name = "cache",
    .rank = 70,
    .title = "Caches and the cache model (Crawford 2014)",
    .how = "The cache model's validation: the suite's access patterns (stream, a random chase, a stride, a 2-D "
           "stencil, a naive transpose, a tiled matrix multiply) run by one work-item, each access waiting for the "
           "load before, at a footprint inside each level the benchmark detected and one beyond the last. The "
           "trace-driven simulator (cachesim), configured with the detected geometry, says which level serves each "
           "access; the predicted time is the hits of each level times its measured latency, plus memory accesses "
           "times the memory latency, over all accesses. The error is Crawford's eq. 7.1, 100 |(measured - "
           "predicted) / measured|: a large one is reported as it is. Stores do not wait (nothing loads their "
           "value), prefetchers serve regular patterns early and the model indexes by virtual address: each makes "
           "the measurement faster than the model says. What the model had to assume is in each model row's note. "
           "A prediction that has a level serve more than it was seen to serve whole (a level shared with others or "
           "filling unevenly, whose detected capacity the simulator takes as whole) is flagged model-premise; one "
           "from the first part of a pass whose lines lie spread over four or more times their bytes (a quick "
           "budget over a large target: the simulator has no TLB, the device may walk a page an access), "
           "model-prefix.",
    .extract = extract,
    .headline = headline,
};
