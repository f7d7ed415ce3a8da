/* The paths matrix: names and the choice of each cell's path. */
#include "bandwidth/matrix.h"

#include <stdint.h>

static const char *const memory_names[BW_MEM_COUNT] = {
    [BW_MEM_NONE] = "none",     [BW_MEM_HOST_PAGEABLE] = "host-pageable", [BW_MEM_HOST_PINNED] = "host-pinned",
    [BW_MEM_DEVICE] = "device", [BW_MEM_SHARED] = "shared",               [BW_MEM_MALLOC] = "malloc",
    [BW_MEM_PEER] = "peer",     [BW_MEM_LOCAL] = "local",
};
static const char *const engine_names[BW_ENGINE_COUNT] = {
    [BW_ENGINE_NONE] = "none", [BW_ENGINE_COPY] = "copy", [BW_ENGINE_KERNEL] = "kernel", [BW_ENGINE_CPU] = "cpu"};

const char *bw_memory_name(bw_memory m) { return (unsigned)m < BW_MEM_COUNT ? memory_names[m] : "none"; }
const char *bw_engine_name(bw_engine e) { return (unsigned)e < BW_ENGINE_COUNT ? engine_names[e] : "none"; }

bool bw_path_in_matrix(const bw_path *p)
{
    return p->kind != BW_TECHNIQUE && p->from > BW_MEM_NONE && p->from < BW_MEM_COUNT && p->to > BW_MEM_NONE &&
           p->to < BW_MEM_COUNT && p->engine > BW_ENGINE_NONE && p->engine < BW_ENGINE_COUNT;
}

static bool same_place(const bw_path *a, const bw_path *b)
{
    return a->from == b->from && a->to == b->to && a->engine == b->engine;
}

static bool same_measured_cell(const bw_matrix_entry *a, const bw_matrix_entry *b)
{
    return same_place(a->path, b->path) && a->transfers == b->transfers;
}

/* Whether any runnable path moves bytes between the same memories by the
 * same engine: then the cell is not unsupported, whatever its other paths say. */
static bool place_has_runnable(const bw_matrix_entry *e, size_t n, const bw_path *p)
{
    for (size_t i = 0; i < n; ++i)
        if (e[i].runnable && bw_path_in_matrix(e[i].path) && same_place(e[i].path, p))
            return true;
    return false;
}

size_t bw_matrix_cells(const bw_matrix_entry *e, size_t n, bw_matrix_cell *out)
{
    size_t cells = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!bw_path_in_matrix(e[i].path))
            continue;
        bool first = true; /* the first path of its cell: the cell is decided here */
        for (size_t j = 0; j < i && first; ++j)
            if (bw_path_in_matrix(e[j].path))
                first = e[i].runnable ? !(e[j].runnable && same_measured_cell(&e[i], &e[j]))
                                      : !(!e[j].runnable && same_place(e[i].path, e[j].path));
        if (!first)
            continue;
        if (!e[i].runnable) {
            if (!place_has_runnable(e, n, e[i].path))
                out[cells++] = (bw_matrix_cell){i, false};
            continue;
        }
        size_t best = SIZE_MAX;
        for (size_t j = i; j < n; ++j)
            if (e[j].runnable && e[j].measured && bw_path_in_matrix(e[j].path) && same_measured_cell(&e[i], &e[j]) &&
                (best == SIZE_MAX || e[j].figure > e[best].figure))
                best = j;
        if (best != SIZE_MAX)
            out[cells++] = (bw_matrix_cell){best, true};
    }
    return cells;
}
