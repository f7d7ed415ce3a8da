/* The plausibility gate's verdicts in the report: a figure from a flagged
 * CSV row says so in its cell, and its section's table of flagged figures
 * says why. */
#ifndef CR_REPORT_FLAGS_H
#define CR_REPORT_FLAGS_H

#include "report/model.h"

/* Shows cell col of row r (of table shown) with the flags of CSV row i it
 * came from, and says why in the section's table of flagged figures, so
 * that no flagged number reads as a fact. A cell that a later row replaced
 * unflagged leaves that table again. The flags on a row's energy alone
 * (energy-idle, energy-below-static) do not mark its figure. */
void rp_mark_flags(rp_section *sec, const rp_table *shown, rp_row *r, int col, const cr_csv_table *t, size_t i);

/* The same for a cell of a row that other CSV rows fill too (a path's
 * bandwidth and its model's fit): its line in the table of flagged figures
 * is "table: row key (what)", apart from theirs. */
void rp_mark_flags_of(rp_section *sec, const rp_table *shown, rp_row *r, int col, const cr_csv_table *t, size_t i,
                      const char *what);

#endif
