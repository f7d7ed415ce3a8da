/* The report's sections, gathered from the parts that the benchmarks and
 * tools contribute (report/part.h): the device's own section first, then
 * each part's section in the order of its rank, the other results last;
 * which section, and which part, a file belongs to; and the reading of a
 * file into its section. */
#ifndef CR_REPORT_REGISTRY_H
#define CR_REPORT_REGISTRY_H

#include "report/part.h"

#include <stdbool.h>
#include <stddef.h>

int rp_nsections(void);
const char *rp_section_slug(int s);
const char *rp_section_title(int s);
const char *rp_how_to_read(int s);
/* A section left out where nothing of it was found (not "did not run"). */
bool rp_section_only_with_results(int s);
/* The section of that slug; -1 where there is none. */
int rp_section_index(const char *slug);
/* Results no part reads. */
int rp_other_section(void);

/* The parts in rank order, and the section each fills. */
size_t rp_nparts(void);
const rp_part *rp_part_at(size_t k);
int rp_part_section(const rp_part *p);
/* The part a file (a CSV's or a figure's name) belongs to, by the longest
 * name it starts with; NULL for none. */
const rp_part *rp_part_of_file(const char *name);
/* Its section: the part's, else the other results. */
int rp_section_of_file(const char *name);

/* Takes file (a name within d's directory, read into t) into the section
 * it belongs to: marks the section as run, lists the file as its source
 * and has its part read its headline numbers into the section's tables. */
void rp_take_file(rp_device *d, const char *file, const cr_csv_table *t);
/* Fills d's first screen, its headlines and lead figures, from its
 * sections, read by then: each part's, in rank order. */
void rp_summarize(rp_device *d);

#endif
