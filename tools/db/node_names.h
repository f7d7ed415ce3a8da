/* The names of the nodes of a cluster run as the cluster scripts write
 * them (tools/slurm: Slurm's host names), and the list of those expected,
 * <run>/expected-nodes: one name a line, read as text, never as bytes. */
#ifndef CR_DB_NODE_NAMES_H
#define CR_DB_NODE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Whether name is a node's name: 1 to 255 letters, digits, '-', '_' and
 * '.', not beginning with a dot (no path, no hidden directory). */
bool db_is_node_name(const char *name);

typedef struct {
    char *text;   /* the file, cut into the names */
    char **names; /* in the file's order, each once */
    size_t n;
} db_name_list;

/* The names of the file at path (blanks around a name, a CR before the
 * line's end, blank lines and lines beginning with '#' are no names); or -1
 * with "PATH:LINE: why" in err for a control byte (a NUL included) or a
 * line that is no node's name, or "PATH: why" where it does not read. */
int db_read_node_list(const char *path, db_name_list *list, char *err, size_t errlen);
void db_free_node_list(db_name_list *list);

/* The name of the names, sorted by strcmp, equal to name (a binary
 * search), or NULL. */
const char *db_sorted_names_find(const char *const *sorted, size_t n, const char *name);
/* Sorts the names by strcmp. */
void db_sort_names(const char **names, size_t n);

#endif
