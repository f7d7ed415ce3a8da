/* Reference f(k) curves from other machines, drawn beside a device's own:
 * Li's Table 3.2 (results/reference/li2016-table3.2.csv), carried in the
 * tool at build time, or any CSV of the same columns. */
#ifndef CR_XGRAPH_REFERENCE_H
#define CR_XGRAPH_REFERENCE_H

#include <stddef.h>

typedef struct {
    char gpu[48];
    char dtype[8];
    double delta_warps; /* warps per SM where f saturates */
    double r_gbps;      /* the plateau */
    double mwarps;      /* the SM's warp slots: how far the line goes */
} xg_ref_line;

typedef struct {
    char source[4096];
    xg_ref_line *v;
    size_t n;
} xg_reference;

/* Reads path, or the built-in table when path is NULL. Returns 0, or -1
 * with "FILE:LINE: why". */
int xg_reference_load(xg_reference *r, const char *path, char *err, size_t errlen);
void xg_reference_free(xg_reference *r);

#endif
