/* A paths-matrix row a test expects: the cell's params, and the path (or
 * comma list of paths) that may stand for it. */
#ifndef CR_BANDWIDTH_TESTS_MATRIX_CELLS_H
#define CR_BANDWIDTH_TESTS_MATRIX_CELLS_H

typedef struct {
    const char *params;
    const char *paths;
} matrix_cell;

#endif
