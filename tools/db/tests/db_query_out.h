/* A named query of the results database run in the test's process: its
 * CSV as text (caller frees), failing the test unless it ends with expect.
 * Include after cmocka.h. */
#ifndef CR_DB_QUERY_OUT_H
#define CR_DB_QUERY_OUT_H

#include "db/query.h"

#include <stdio.h>

static inline char *query(sqlite3 *db, int expect, const char *name, int argc, char **argv, char *err,
                          size_t errlen)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    err[0] = '\0';
    int rc = db_query(db, name, argc, argv, f, err, errlen);
    fclose(f);
    if (rc != expect)
        fail_msg("query %s: status %d, expected %d: %s", name, rc, expect, err);
    return out;
}

#endif
