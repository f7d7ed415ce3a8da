/* The results database: its tables, indices and the view of headline
 * figures (docs/database.md documents them). The CSVs of the runs
 * stay the source of truth; the database is an index of them that
 * `crossroof-db import` can rebuild at any time. */
#ifndef CR_DB_SCHEMA_H
#define CR_DB_SCHEMA_H

#include <sqlite3.h>
#include <stddef.h>

/* Opens (creating when new, with the folder it is in) the database at path
 * and makes sure that the schema is there. Returns 0, or -1 with err and
 * *db NULL. */
int db_open(const char *path, sqlite3 **db, char *err, size_t errlen);

/* The same for a database in memory. */
int db_open_memory(sqlite3 **db, char *err, size_t errlen);

/* How long the opens that follow wait for another process that holds the
 * database locked, in ms (10000 unless set), before they give up. */
void db_set_busy_wait(int ms);

#endif
