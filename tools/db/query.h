/* The named queries of `crossroof-db query`, printed as CSV. */
#ifndef CR_DB_QUERY_H
#define CR_DB_QUERY_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses: 0 printed, 1 the database failed, 2 an unknown query or
 * arguments it does not take (err says which). */
int db_query(sqlite3 *db, const char *name, int argc, char **argv, FILE *out, char *err, size_t errlen);

/* "--below FRACTION" at argv[0..1], or nothing: the fraction, NaN when not
 * given. Returns 0, or -1 with err for anything else. */
int db_parse_below(int argc, char **argv, double *below, char *err, size_t errlen);

/* The queries and their arguments, one a line, for the usage text. */
extern const char db_query_usage[];

#endif
