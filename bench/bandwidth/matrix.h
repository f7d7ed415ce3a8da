/* The paths matrix (nvbandwidth's source x destination tables): the stable
 * words the CSV and the figure use for memories and engines, and which
 * path's row stands for each cell. Knows paths, not rows. */
#ifndef CR_BANDWIDTH_MATRIX_H
#define CR_BANDWIDTH_MATRIX_H

#include "bandwidth/backend.h"

#include <stdbool.h>
#include <stddef.h>

const char *bw_memory_name(bw_memory m);
const char *bw_engine_name(bw_engine e);

/* Whether the path fills a cell: it says where its bytes start and end and
 * what moves them (a technique does not). */
bool bw_path_in_matrix(const bw_path *p);

/* What the design knows of one selected path when the sweep is done. */
typedef struct {
    const bw_path *path;
    bool runnable;      /* supported() accepted it */
    unsigned transfers; /* of a runnable path; what an unsupported one would make is unknown */
    bool measured;      /* a verified figure at the largest size */
    double figure;      /* that figure, GB/s */
} bw_matrix_entry;

typedef struct {
    size_t entry;  /* the entry whose path stands for the cell */
    bool measured; /* false: every path of the cell is unsupported */
} bw_matrix_cell;

/* The cells of n entries, written to out (room for n) in the order their
 * first path comes; returns how many. A measured cell is (from, to, engine,
 * transfers): a duplex copy or a fan-in never competes with a single
 * transfer between the same memories. Its path is the fastest verified
 * one. A cell where no path is runnable is an unsupported cell (from, to,
 * engine), stood for by its first path, so that the figure says why
 * instead of leaving a hole; where some path ran but none verified at the
 * largest size there is no cell (the failure has rows of its own). */
size_t bw_matrix_cells(const bw_matrix_entry *e, size_t n, bw_matrix_cell *out);

#endif
