/* energy-levels.csv: one row per level, written whole or not at all. */
#ifndef CR_ENERGY_LEVELS_OUTPUT_H
#define CR_ENERGY_LEVELS_OUTPUT_H

#include "energy_levels/levels.h"

#include <stddef.h>
#include <stdio.h>

/* The rows as CSV (the columns of shared/csv_schema.c's energy levels). */
void el_write_csv(FILE *f, const el_level *levels, size_t n);

/* Replaces path through a temporary file and a rename, so that a reader
 * never sees half a table. Returns 0, or -1 with why (naming the file) in err. */
int el_write_file(const char *path, const el_level *levels, size_t n, char *err, size_t errlen);

#endif
