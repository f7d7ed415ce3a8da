/* A part of the report that a benchmark or tool contributes from its own
 * folder (bench/<b>/report_section.c, tools/<t>/report_section.c): which
 * files are its, the section they fill (its own or another's), how it
 * reads them into that section's tables, and its headline figures on the
 * first screen of each device. The build gathers every folder's part into
 * one table (tools/report/parts.sh writes build/gen/report_parts.c), so
 * that the report itself names no benchmark.
 *
 * A folder's part is `const rp_part rp_part_<folder>`, the folder's name as
 * the symbol's suffix. */
#ifndef CR_REPORT_PART_H
#define CR_REPORT_PART_H

#include "report/cells.h"
#include "report/flags.h"
#include "report/model.h"
#include "report/summary.h"

#include <stdbool.h>

/* Reads one of the part's CSVs (file, a name in the device's directory)
 * into sec, the section its files fill. */
typedef void rp_extract_fn(rp_section *sec, const char *file, const cr_csv_table *t);
/* Adds the part's headline figures to d's first screen (rp_headline_add),
 * from the tables of section s, read by then. */
typedef void rp_headline_fn(rp_device *d, int s);

typedef struct {
    const char *name;    /* its files: named NAME-... or NAME.<ext>; the folder's name for a benchmark */
    const char *section; /* the slug of the section they fill (NULL: name) */
    /* Where title is not NULL, the part defines that section: */
    const char *title, *how; /* its heading, and what its numbers mean */
    bool only_with_results;  /* left out where nothing of it is found, rather than said not to have run */
    int rank;                /* its section's place among the others, and its headlines' */
    rp_extract_fn *extract;  /* NULL: its files are listed as the section's sources only */
    rp_headline_fn *headline;     /* NULL: nothing on the first screen */
    const char *lead_figures[3];  /* the first figure of the section ending in one of these, in this order,
                                     is on the first screen (NULL-terminated) */
    const char *task;       /* what run_all.sh records its producer as, where not the file's name up to '.' */
    bool describes_device;  /* its metadata is the first read for the device table */
} rp_part;

/* Every part of this build, NULL-terminated (build/gen/report_parts.c). */
extern const rp_part *const rp_parts[];

#endif
