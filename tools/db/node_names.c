#include "db/node_names.h"

#include "error.h"
#include "shared/bounded_file.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A list of a million-node cluster is far less. */
#define NODE_LIST_MAX_BYTES ((size_t)1 << 20)
#define NODE_NAME_MAX 255

bool db_is_node_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > NODE_NAME_MAX || name[0] == '.')
        return false;
    return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == n;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void db_sort_names(const char **names, size_t n)
{
    if (n > 1)
        qsort(names, n, sizeof *names, by_text);
}

const char *db_sorted_names_find(const char *const *sorted, size_t n, const char *name)
{
    const char *const *hit = n > 0 ? bsearch(&name, sorted, n, sizeof *sorted, by_text) : NULL;
    return hit ? *hit : NULL;
}

/* The line [line, end) trimmed of blanks and a CR, NUL-terminated in
 * place; NULL with err where it holds a control byte or is no node name;
 * "" for a blank line or a comment. */
static const char *name_of_line(char *line, char *end, const char *path, unsigned lineno, char *err, size_t errlen)
{
    *end = '\0';
    if (end > line && end[-1] == '\r')
        *--end = '\0';
    for (const char *p = line; p < end; ++p)
        if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f) {
            cr_errf(err, errlen, "%s:%u: a control byte (0x%02x): not a list of node names", path, lineno,
                    (unsigned)(unsigned char)*p);
            return NULL;
        }
    while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    line += strspn(line, " \t");
    if (*line == '\0' || *line == '#' || db_is_node_name(line))
        return *line == '#' ? "" : line;
    for (const char *p = line; *p; ++p)
        if ((unsigned char)*p >= 0x80) {
            cr_errf(err, errlen, "%s:%u: not ASCII: a node's name is letters, digits, '-', '_' and '.'", path,
                    lineno);
            return NULL;
        }
    cr_errf(err, errlen, "%s:%u: '%.64s' is no node's name (letters, digits, '-', '_' and '.')", path, lineno, line);
    return NULL;
}

/* Names that are all in one text: equal ones in the order they stand. */
static int by_text_then_place(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcmp(x, y);
    return c ? c : (x > y) - (x < y);
}

/* Each name once, where it first stands: sorted, then the later of equal
 * names emptied (the names are the list's own text) and left out, in
 * n log n. */
static int drop_repeats(db_name_list *list, char *err, size_t errlen)
{
    char **sorted = malloc((list->n ? list->n : 1) * sizeof *sorted);
    if (sorted == NULL)
        return cr_errf(err, errlen, "out of memory");
    memcpy(sorted, list->names, list->n * sizeof *sorted);
    qsort(sorted, list->n, sizeof *sorted, by_text_then_place);
    for (size_t i = list->n; i-- > 1;)
        if (strcmp(sorted[i], sorted[i - 1]) == 0)
            sorted[i][0] = '\0';
    free(sorted);
    size_t kept = 0;
    for (size_t i = 0; i < list->n; ++i)
        if (list->names[i][0] != '\0')
            list->names[kept++] = list->names[i];
    list->n = kept;
    return 0;
}

int db_read_node_list(const char *path, db_name_list *list, char *err, size_t errlen)
{
    *list = (db_name_list){0};
    size_t len;
    if ((list->text = cr_read_bounded(path, NODE_LIST_MAX_BYTES, "a list of nodes", &len, err, errlen)) == NULL)
        return -1;
    /* At most a name a line: lines are counted before the names are kept. */
    size_t lines = 1;
    for (size_t i = 0; i < len; ++i)
        lines += list->text[i] == '\n';
    if ((list->names = malloc(lines * sizeof *list->names)) == NULL) {
        db_free_node_list(list);
        return cr_errf(err, errlen, "%s: out of memory", path);
    }
    unsigned lineno = 0;
    for (char *line = list->text, *stop = list->text + len; line < stop;) {
        char *end = memchr(line, '\n', (size_t)(stop - line));
        end = end ? end : stop;
        const char *name = name_of_line(line, end, path, ++lineno, err, errlen);
        if (name == NULL) {
            db_free_node_list(list);
            return -1;
        }
        if (*name)
            list->names[list->n++] = (char *)name;
        line = end + 1;
    }
    if (drop_repeats(list, err, errlen) != 0) {
        db_free_node_list(list);
        return -1;
    }
    return 0;
}

void db_free_node_list(db_name_list *list)
{
    free(list->names);
    free(list->text);
    *list = (db_name_list){0};
}
