/* The numbers two headline tables of the same id hold in common: what a
 * comparison of two runs, or of one device seen through two APIs, sets
 * side by side. */
#ifndef CR_REPORT_COMMON_NUMBERS_H
#define CR_REPORT_COMMON_NUMBERS_H

#include "report/model.h"

#include <stdbool.h>

/* Whether cell c of row r is a number a comparison looks at: the counts of
 * rows are not results, and text is not a number. */
bool rp_compared(const rp_table *t, const rp_row *r, int c);

/* The cell of other with r's key and t's column c, where it holds a number;
 * NULL where not. */
const rp_cell *rp_counterpart(const rp_table *t, const rp_row *r, int c, const rp_table *other);

#endif
