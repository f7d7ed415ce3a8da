/* What the tools ask of the names of files: a name's ending, and a
 * directory's entries in the order of their bytes (not the locale's: what
 * a tool writes must not depend on where it runs). */
#ifndef CR_SHARED_NAMES_H
#define CR_SHARED_NAMES_H

#include <dirent.h>
#include <stdbool.h>

/* Whether s ends with suffix. */
bool cr_ends_with(const char *s, const char *suffix);

/* scandir()'s order by name, byte by byte. */
int cr_dirent_by_name(const struct dirent **a, const struct dirent **b);

#endif
