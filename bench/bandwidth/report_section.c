/* The bandwidth benchmark's part of the report: every path at its largest
 * size with Lee's transfer model, the map latencies, local memory per
 * vector width, the ranking of the memory-movement techniques; on the
 * first screen, the fastest copy each way and a kernel reading device
 * memory, and bandwidth against size. */
#include "report/part.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A local-width row of the local-memory path: its vector width's line. */
static void local_width_row(rp_section *sec, rp_table *local, const cr_csv_table *t, size_t i)
{
    char buf[32];
    rp_row *r = rp_row_for(local, "%s", rp_param_text(t, i, "vector", buf, sizeof buf));
    rp_set_num(r, 0, rp_param(t, i, "loads_per_barrier"), 3);
    if (rp_is(t, i, "stop", "unsupported")) {
        rp_set_text(r, 1, "not supported");
        return;
    }
    rp_set_num(r, 1, rp_num(t, i, "figure"), 4);
    rp_set_num(r, 2, rp_num(t, i, "figure_best"), 4);
    rp_mark_flags(sec, local, r, 1, t, i);
}

/* A size-sweep row: a path's bandwidth, or a map's latency, at the largest
 * size measured. */
static void size_row(rp_section *sec, rp_table *paths, rp_table *maps, const cr_csv_table *t, size_t i)
{
    bool bw = rp_is(t, i, "unit", "GB/s"), lat = rp_is(t, i, "unit", "us");
    if (!bw && !lat)
        return;
    rp_table *into = bw ? paths : maps;
    rp_row *r = rp_row_for(into, "%s", rp_get(t, i, "variant"));
    double bytes = rp_num(t, i, "size_bytes");
    if (isfinite(r->cells[0].num) && !(bytes > r->cells[0].num))
        return; /* a larger size is already there */
    char size[48], buf[160];
    rp_format_bytes(bytes, size, sizeof size);
    rp_set_text(r, 0, "%s", size);
    r->cells[0].num = bytes;
    if (rp_is(t, i, "stop", "unsupported")) {
        rp_set_text(r, 1, "not supported");
    } else if (bw) {
        rp_set_num(r, 1, rp_num(t, i, "figure"), 4);
        rp_set_num(r, 2, rp_num(t, i, "ref_ratio"), 3);
        rp_set_num(r, 3, rp_param(t, i, "mt_ref_ratio"), 3);
    } else {
        rp_set_num(r, 1, rp_num(t, i, "figure"), 4);
        rp_set_text(r, 2, "%s", rp_param_text(t, i, "data_moved", buf, sizeof buf));
    }
    rp_mark_flags(sec, into, r, 1, t, i);
}

static void ranking_row(rp_table *rank, const cr_csv_table *t, size_t i)
{
    char size[48], buf[160];
    rp_row *r = rp_row_for(rank, "%s", rp_get(t, i, "variant"));
    rp_set_text(r, 0, "%s", rp_param_text(t, i, "measured", buf, sizeof buf));
    rp_set_text(r, 1, "%s", rp_param_text(t, i, "predicted", buf, sizeof buf));
    double match = rp_param(t, i, "match");
    rp_set_text(r, 2, "%s", !isfinite(match) ? "" : match == 1 ? "yes" : "no");
    rp_format_bytes(rp_num(t, i, "size_bytes"), size, sizeof size);
    snprintf(rank->title, sizeof rank->title, "Memory-movement techniques at %s, fastest first (Lee 2012, Sec. 3.4)",
             size);
}

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *paths = rp_add_table(sec, "bandwidth-paths",
                                   "Every path at its largest transfer size, and Lee's transfer model T(S) = c + S/b "
                                   "fitted over all sizes (host references included)",
                                   "path", "size", "GB/s", "vs host", "vs host all cores", "fit b (GB/s)",
                                   "fit c (us)", "fit max err (%)", "fit b, cache sizes (GB/s)",
                                   "fit b, memory sizes (GB/s)", NULL);
    rp_table *maps = rp_add_table(sec, "bandwidth-maps", "Map and unmap latencies at the largest transfer size",
                                  "operation", "size", "us", "data moved", NULL);
    rp_table *local = rp_add_table(sec, "bandwidth-local",
                                   "Local (CUDA: shared) memory per vector width: every load and store of the "
                                   "kernel-local-memory path's rounds",
                                   "vector (words)", "loads per barrier", "GB/s", "best GB/s", NULL);
    rp_table *rank = rp_add_table(sec, "bandwidth-ranking",
                                  "Memory-movement techniques at the largest size, fastest first (Lee 2012, Sec. 3.4)",
                                  "workload", "measured", "predicted by the model", "model agrees", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        const char *sweep = rp_get(t, i, "sweep");
        if (!rp_valid(t, i))
            continue;
        if (strcmp(sweep, "size") == 0) {
            size_row(sec, paths, maps, t, i);
        } else if (strcmp(sweep, "local-width") == 0) {
            local_width_row(sec, local, t, i);
        } else if (strcmp(sweep, "fit") == 0) {
            rp_row *r = rp_row_for(paths, "%s", rp_get(t, i, "variant"));
            rp_set_num(r, 4, rp_param(t, i, "b_GBps"), 4);
            rp_set_num(r, 5, rp_param(t, i, "c_us"), 4);
            rp_set_num(r, 6, 100 * rp_param(t, i, "max_rel_err"), 3);
            rp_mark_flags_of(sec, paths, r, 4, t, i, "fit");
        } else if (strcmp(sweep, "fit-regime") == 0) {
            rp_row *r = rp_row_for(paths, "%s", rp_get(t, i, "variant"));
            char regime[16];
            bool cache = strcmp(rp_param_text(t, i, "regime", regime, sizeof regime), "cache") == 0;
            rp_set_num(r, cache ? 7 : 8, rp_param(t, i, "b_GBps"), 4);
            rp_mark_flags_of(sec, paths, r, cache ? 7 : 8, t, i, cache ? "fit, cache sizes" : "fit, memory sizes");
        } else if (strcmp(sweep, "ranking") == 0) {
            ranking_row(rank, t, i);
        }
    }
}

/* The fastest path whose name starts with prefix, at its largest size. */
static const rp_row *fastest(const rp_table *paths, const char *prefix)
{
    const rp_row *best = NULL;
    for (size_t i = 0; i < paths->nrows; ++i) {
        const rp_row *r = &paths->rows[i];
        if (strncmp(r->key, prefix, strlen(prefix)) == 0 && isfinite(r->cells[1].num) &&
            (best == NULL || r->cells[1].num > best->cells[1].num))
            best = r;
    }
    return best;
}

static void path_headline(rp_device *d, int s, const rp_row *r, const char *what, const char *limit_label,
                          double limit)
{
    if (r == NULL)
        return;
    rp_headline *h = rp_headline_add(d, s, "%s", what);
    rp_headline_value(h, &r->cells[1], "GB/s");
    rp_appendf(h->value, sizeof h->value, " ", "(%s, %s)", r->key, r->cells[0].text);
    rp_headline_against(h, limit_label, r->cells[1].num, limit, "GB/s");
}

static void headline(rp_device *d, int s)
{
    const rp_table *paths = rp_find_table(&d->sections[s], "bandwidth-paths");
    if (paths == NULL)
        return;
    double link = rp_device_number(d, "PCIe link (GB/s)");
    path_headline(d, s, fastest(paths, "h2d-"), "Host to device, fastest copy", "PCIe link", link);
    path_headline(d, s, fastest(paths, "d2h-"), "Device to host, fastest copy", "PCIe link", link);
    path_headline(d, s, fastest(paths, "kernel-read-device"), "Device memory read by a kernel", "memory peak",
                  rp_device_number(d, "memory peak (GB/s)"));
}

const rp_part rp_part_bandwidth = {
    .name = "bandwidth",
    .title = "Memory paths (bandwidth; Lee 2012, ch. 3)",
    .how = "Every path by which data moves between host and device. \"GB/s\" is the median bandwidth at the "
           "largest transfer size, \"vs host\" the same over the host's own reference measured in the same run "
           "(memcpy for copies and CPU access, an OpenMP read or write loop for kernels): near 1 the path runs at "
           "the host memory's speed, far below 1 it has a cost of its own. b and c are Lee's transfer model T(S) = "
           "c + S/b fitted over all sizes: b is the bandwidth a large transfer approaches, c the fixed cost of one "
           "transfer, so transfers much smaller than b\xc2\xb7"
           "c are latency-bound; the fit error says how far the model is from the measurements at worst. Maps are "
           "latencies in microseconds (\"zero-copy\" when no bytes can have moved in that time). The ranking says "
           "which memory-movement technique was fastest at the largest size, and whether the model predicted the "
           "same order.",
    .rank = 10,
    .extract = extract,
    .headline = headline,
    .lead_figures = {"-size.png"},
};
