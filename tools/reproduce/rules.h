/* The arithmetic the verdicts share: a thesis's range of a quantity, rank
 * agreement, where a run's best row of a variant lies. */
#ifndef CR_REPRODUCE_RULES_H
#define CR_REPRODUCE_RULES_H

#include "reproduce/reproduce.h"

/* The smallest and largest value of quantity among target's values: their
 * count, 0 where there are none (lo and hi then NaN). */
size_t rr_thesis_range(const rr_thesis *th, const char *target, const char *quantity, double *lo, double *hi);
/* "Lee 2012, Table 4.1, p. 37" for a value. */
void rr_cite(const rr_value *v, char *buf, size_t len);
/* Every value of quantity of target beside the one run value, a pair
 * each, cited. */
void rr_pair_each(rr_outcome *o, const rr_thesis *th, const char *target, const char *quantity, const char *unit,
                  double run, const char *basis);
/* Spearman's rank correlation of n pairs (ties share their mean rank);
 * NaN for fewer than 3 pairs or a constant side. */
double rr_spearman(const double *x, const double *y, size_t n);
/* The row of the largest size_bytes among f's valid rows of variant and
 * sweep with a figure (dtype NULL: any); SIZE_MAX where none is. */
size_t rr_largest_row(const rr_file *f, const char *variant, const char *sweep, const char *dtype);
/* The first valid row of variant and sweep with a figure (dtype NULL:
 * any); SIZE_MAX where none is. */
size_t rr_first_row(const rr_file *f, const char *variant, const char *sweep, const char *dtype);
/* Notes that o rests on row i of f: its file and line in evidence, its flags. */
void rr_rests_on(rr_outcome *o, const rr_file *f, size_t i);
/* Notes that o rests on rows first..last of f (a sweep's rows, one
 * file:FIRST-LAST); the caller adds the flags of the rows it read. */
void rr_rests_on_rows(rr_outcome *o, const rr_file *f, size_t first, size_t last);
/* Whether row i of f is valid and of variant and sweep. */
bool rr_row_is(const rr_file *f, size_t i, const char *variant, const char *sweep);

#endif
