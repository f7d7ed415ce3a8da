/* The sweeps and variants a benchmark's rows may name: what its descriptor
 * lists (bench/<name>/descriptor, sweeps= and variants=), generated at build
 * time into build/gen/row_names.c (common/descriptor_gen.sh row-names).
 * The harness holds every row it records to them, and the tools' reader
 * every row it reads: a row of a sweep or variant no benchmark writes would
 * drop out of every table and figure unseen. */
#ifndef CR_ROW_NAMES_H
#define CR_ROW_NAMES_H

#include <stddef.h>

/* The row the harness itself records for every benchmark where there is no
 * energy sensor (common/session.c): its variant and sweep. */
#define CR_ENERGY_ROW_VARIANT "energy"
#define CR_ENERGY_ROW_SWEEP "sensor"

/* One benchmark's names, space-separated: sweeps the sweep column's values,
 * variants the variant column's, each a pattern (fnmatch: '*' any run of
 * characters, [...] one of them) where the benchmark composes the name
 * ("*" + "/precise": a function and its version). */
typedef struct {
    const char *benchmark, *sweeps, *variants;
} cr_row_names;

extern const cr_row_names cr_row_names_table[];
extern const size_t cr_nrow_names;

/* The benchmark's names, or NULL where no descriptor names it. */
const cr_row_names *cr_row_names_of(const char *benchmark);

/* Which of a row's fields its benchmark does not write: "sweep",
 * "variant", or NULL where both are listed (or empty), where the row is
 * the harness's energy row, or where no descriptor names the benchmark. */
const char *cr_row_name_unknown(const char *benchmark, const char *variant, const char *sweep);

#endif
