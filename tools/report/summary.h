/* A device's first screen: its headline figures, each with the flags the
 * plausibility gate gave it and the peak or limit it stands against where
 * the run knows one, gathered from every part in rank order, and the lead
 * figures (the X-graph, bandwidth against size). */
#ifndef CR_REPORT_SUMMARY_H
#define CR_REPORT_SUMMARY_H

#include "report/model.h"

/* A new line of d's first screen from section s, what it is given as a
 * format. */
rp_headline *rp_headline_add(rp_device *d, int s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A line of d's first screen whose value is text made of several cells
 * (value), unless value is empty. */
void rp_headline_text(rp_device *d, int s, const char *what, const char *value);
/* h's value from a headline table's cell: its number or text, then unit;
 * the flags the table wrote into the cell go to h's flags. */
void rp_headline_value(rp_headline *h, const rp_cell *c, const char *unit);
/* Appends to the text in buf (of len bytes), sep before it unless buf is
 * empty; what does not fit is cut. */
void rp_appendf(char *buf, size_t len, const char *sep, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Appends "LABEL LIMIT UNIT (VALUE as a percentage of LIMIT)" to h's limit
 * where limit is a positive number. */
void rp_headline_against(rp_headline *h, const char *label, double value, double limit, const char *unit);

/* The cell of table (by id), row key and column col in sec; NULL where
 * any of them is missing or the cell is empty. */
const rp_cell *rp_cell_of(const rp_section *sec, const char *table, const char *key, const char *col);
/* A number of the device table (its row's label); NaN where absent. */
double rp_device_number(const rp_device *d, const char *label);

#endif
