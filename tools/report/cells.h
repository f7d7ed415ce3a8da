/* Reading a CSV's rows for the report by column name and parameter key, so
 * that a benchmark that gains columns or rows keeps its report, and the
 * generic summary of a CSV no part reads. */
#ifndef CR_REPORT_CELLS_H
#define CR_REPORT_CELLS_H

#include "report/model.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether row i's column col holds value exactly. */
bool rp_is(const cr_csv_table *t, size_t i, const char *col, const char *value);
/* A verified row (valid = 1): only these become numbers. */
bool rp_valid(const cr_csv_table *t, size_t i);
/* The column's number; NaN where empty or not a number. */
double rp_num(const cr_csv_table *t, size_t i, const char *col);
/* The number of key in the row's params; NaN where absent. */
double rp_param(const cr_csv_table *t, size_t i, const char *key);
/* The text of key in the row's params into buf; "" where absent. */
const char *rp_param_text(const cr_csv_table *t, size_t i, const char *key, char *buf, size_t len);
/* A device's row, not one of the host references measured beside it. */
bool rp_device_row(const cr_csv_table *t, size_t i);
/* Cell c of r: the column's number where it holds one, else its text. */
void rp_set_number_or_text(rp_row *r, int c, const cr_csv_table *t, size_t i, const char *col, int digits);

/* The file's line in the section's table of files (rows, failed rows,
 * units), under title where the table is new. */
void rp_file_summary(rp_section *sec, const char *title, const char *file, const cr_csv_table *t);
/* A CSV no part has a headline table for: its line among the others. */
void rp_extract_other(rp_section *sec, const char *file, const cr_csv_table *t);
/* A CSV of a benchmark whose numbers another part's tables are computed
 * from (the X-model's fit from fma's): its line among the section's inputs. */
void rp_extract_input(rp_section *sec, const char *file, const cr_csv_table *t);

#endif
