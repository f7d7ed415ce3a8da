/* The levels of a device's memory system and kinds of operation, and what
 * one byte or one operation costs at each in energy, from the rows of its
 * results CSVs that stand for the level (each benchmark's energy_levels.c
 * states the rule of its levels), beside Ranasinghe's value where the thesis
 * has one. */
#ifndef CR_ENERGY_LEVELS_LEVELS_H
#define CR_ENERGY_LEVELS_LEVELS_H

#include "energy_levels/device_dir.h"
#include "energy_levels/rule.h"

#include <stdbool.h>
#include <stddef.h>

/* "per-byte", "per-op" */
const char *el_basis_name(el_basis b);

typedef enum {
    EL_MEASURED, /* rows stand for the level and carry energy */
    EL_NO_SENSOR, /* rows stand for the level, none with energy */
    EL_NO_ROWS,  /* no row stands for the level */
} el_status;

/* "measured", "no-sensor", "no-rows" */
const char *el_status_name(el_status s);

#define EL_MAX_LEVELS 12

typedef struct {
    char level[16];
    el_basis basis;
    el_status status;
    double pj;          /* the median over rows: picojoules per byte or per operation; NaN unless measured */
    size_t rows;        /* rows the median is over */
    char sensor[96];    /* the sensor those rows name */
    char source[400];   /* which rows: file, variants, size */
    char reason[480];   /* why not measured; or what to know about the value */
    double thesis_pj;   /* Ranasinghe's value in the same unit; NaN where the thesis has none */
    char thesis_symbol[64];
} el_level;

/* Whether name is a level, and its basis. */
bool el_level_known(const char *name, el_basis *basis);

/* Fills out[] with one entry per level (the dp-op level only where double
 * rows exist) and returns how many. Thesis values are left NaN. */
size_t el_levels_compute(const el_device *d, el_level *out, size_t max);

#endif
