/* The headline extraction of each benchmark: the numbers of a CSV that go
 * into its section's tables. */
#ifndef CR_REPORT_HEADLINES_H
#define CR_REPORT_HEADLINES_H

#include "report/model.h"

/* Takes file (a name within d->path, read into t) into the section it
 * belongs to: marks the section as run, lists the file as its source and
 * puts its headline numbers into the section's tables. */
void rp_headline(rp_device *d, const char *file, const cr_csv_table *t);

#endif
