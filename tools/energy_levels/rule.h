/* What a benchmark says of the energy levels its rows stand for: its
 * bench/<name>/energy_levels.c lists the levels it measures and how its
 * rows are picked for each; levels.c applies them. */
#ifndef CR_ENERGY_LEVELS_RULE_H
#define CR_ENERGY_LEVELS_RULE_H

#include "energy_levels/device_dir.h"
#include "shared/bench_parts.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum { EL_PER_BYTE, EL_PER_OP } el_basis;

/* Whether row i (already verified, measured, not an artifact) stands for
 * the level, and the number the rule picks by. */
typedef bool el_wants_fn(const el_device *d, const el_results *f, size_t i, double *key);
/* Why the level cannot be measured on this device at all; NULL where it can. */
typedef const char *el_cannot_fn(const el_device *d);

typedef enum {
    EL_PICK_ALL,
    EL_PICK_LARGEST,          /* the rows at the largest key */
    EL_PICK_SMALLEST,         /* the rows at the smallest key */
    EL_PICK_LARGEST_PER_KIND, /* per variant and type, the row at its largest key */
    EL_PICK_LARGEST_FASTEST   /* of the rows at the largest key, the one of the highest figure */
} el_pick_rule;

typedef enum { EL_KEY_WORKING_SET, EL_KEY_TRANSFER, EL_KEY_DEGREE, EL_KEY_GOPS } el_key_kind;

typedef struct {
    const char *level;
    el_basis basis;
    const char *benchmark; /* whose results files hold the rows */
    el_wants_fn *wants;
    el_pick_rule pick;
    el_key_kind key;
    const char *none;    /* why no row, the benchmark's file being there; %s: the last-level cache */
    bool only_with_rows; /* left out where no row stands for it */
    el_cannot_fn *cannot;
} el_rule;

/* Every benchmark's list (bench/<name>/energy_levels.c defines
 * el_rules_<name>, a cr_bench_part of el_rule), in the benchmarks' order:
 * common/descriptor_gen.sh energy-levels. */
extern const cr_bench_part *const el_rule_lists[];
extern const size_t el_nrule_lists;

/* How many rules there are, and the i-th of them, list after list
 * (levels.c). */
size_t el_rule_count(void);
const el_rule *el_rule_at(size_t i);

/* Reading a row: a column as a number (NaN where it is none), a parameter
 * of its params column as a number, whether a column has a value. */
double el_number(const el_results *f, size_t i, const char *col);
double el_param(const el_results *f, size_t i, const char *key);
bool el_is(const el_results *f, size_t i, const char *col, const char *value);

#endif
