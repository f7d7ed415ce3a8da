/* Ranasinghe's Table 5.1 (results/reference/ranasinghe2014-table5.1.csv,
 * built into the tool, which reads no source tree): each energy parameter
 * and the level it stands beside, converted to picojoules per byte or per
 * operation. */
#ifndef CR_ENERGY_LEVELS_THESIS_H
#define CR_ENERGY_LEVELS_THESIS_H

#include "energy_levels/levels.h"

#include <stddef.h>

/* Parses a table of the reference's columns (name is used in messages) and
 * sets each level's thesis_pj and thesis_symbol: a level with one
 * parameter gets it (per byte: over its access_bytes), one with several
 * their mean. Returns 0, or -1 with "NAME:LINE: why" (a level the tool
 * does not know, a basis that is not the level's, a per-byte value without
 * its access size, a unit other than J). */
int el_thesis_apply(const char *name, const char *text, size_t len, el_level *levels, size_t n, char *err,
                    size_t errlen);

/* The same with the table built into the tool. */
int el_thesis_apply_builtin(el_level *levels, size_t n, char *err, size_t errlen);

#endif
