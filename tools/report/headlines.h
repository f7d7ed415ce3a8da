/* The headline extraction of each benchmark: the numbers of a CSV that go
 * into its section's tables. */
#ifndef CR_REPORT_HEADLINES_H
#define CR_REPORT_HEADLINES_H

#include "report/model.h"

/* Reads file (a name within d->path) into the section it belongs to: marks
 * the section as run and lists the file as its source; a file that does
 * not parse becomes a note. */
void rp_headline(rp_device *d, const char *file);

#endif
