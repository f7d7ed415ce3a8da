/* The benchmarks, as their descriptors (bench/<name>/descriptor,
 * common/descriptor.sh) say, for the host tools: a table generated at
 * build time (common/descriptor_gen.sh c), in the benchmarks' order. A tool
 * finds the benchmark that plays a part through this table, never by its
 * name. */
#ifndef CR_SHARED_DESCRIPTORS_H
#define CR_SHARED_DESCRIPTORS_H

#include <stddef.h>

/* Which row is a benchmark's headline figure in the results database
 * (tools/db): its valid rows of sweep (and unit, and parameter, where not
 * NULL), per variant and type the one pick names ("only": the first,
 * "largest-size", "max"); better is "higher" or "lower". sweep NULL: none. */
typedef struct {
    const char *sweep, *unit, *param_key, *param_value, *pick, *better, *what;
} cr_headline;

/* The rows that give a benchmark's part in the X-model (its xmodel_*
 * keys): those of sweep, and of variant where not NULL; for the memory part,
 * fixed_sweep's row of that variant checks f's plateau (NULL: none), and
 * accesses is the elements one work-item loads and stores per iteration
 * (Little's law's b, in elements; 0 elsewhere). */
typedef struct {
    const char *sweep, *variant, *fixed_sweep;
    int accesses;
} cr_xmodel_rows;

typedef struct {
    const char *name;           /* its results are <name>-<backend>.csv */
    const char *title;          /* what it measures, one line */
    const char *backends;       /* "opencl cuda" */
    int order;                  /* lower first */
    const char *report_section; /* the report's section its results go to */
    const char *report_title;   /* that section's heading where it is its own, else NULL */
    const char *xmodel;         /* "memory", "compute", "latency", "application" or NULL */
    const char *figures;        /* its figures' names, space-separated ("" none) */
    cr_xmodel_rows xmodel_rows; /* where xmodel is given */
    cr_headline headline;
} cr_descriptor;

extern const cr_descriptor cr_descriptors[];
extern const size_t cr_ndescriptors;

/* The benchmark of that name, or NULL. */
const cr_descriptor *cr_descriptor_named(const char *name);
/* The benchmark that plays that part in the X-model, or NULL (for
 * "application", of which there may be several: the first). */
const cr_descriptor *cr_descriptor_xmodel(const char *part);

#endif
