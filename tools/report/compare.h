/* Two runs side by side: the devices paired, every headline number present
 * in both with the ratio B / A. */
#ifndef CR_REPORT_COMPARE_H
#define CR_REPORT_COMPARE_H

#include "report/model.h"

#include <stddef.h>
#include <stdio.h>

typedef struct {
    const rp_device *a, *b;
    char how[64];             /* how they were matched */
} rp_pair;

/* Pairs the devices of two runs: the same directory name, else the same
 * backend and index, else the only device left on each side. Returns the
 * number of pairs written to pairs (at most max). */
size_t rp_pair_devices(const rp_run *a, const rp_run *b, rp_pair *pairs, size_t max);

/* Runs A and B imported into a results database in memory, the way
 * `crossroof-db import` imports them (a CSV that does not read is refused
 * with its FILE:LINE), and read back from it (rp_load_run_db()), A first.
 * Returns 0, or rp_load_run()'s statuses with err, in terms of the paths
 * given. */
int rp_load_compared(const char *dir_a, const char *dir_b, rp_run *a, rp_run *b, char *err, size_t errlen);

/* B / A, NaN when either is not a finite number or A is 0; infinite where
 * both are finite but their ratio is past what a double holds. */
double rp_ratio(double a, double b);

/* The side-by-side comparison as Markdown: every headline value present on
 * both sides, with B/A. */
void rp_render_compare(FILE *f, const rp_run *a, const rp_run *b);

#endif
