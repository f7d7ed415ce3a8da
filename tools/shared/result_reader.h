/* Reads a CSV the suite wrote (RFC 4180: quoted fields may hold commas,
 * quotes and line breaks) back into memory, for the tools that post-process
 * a results directory. Every complaint names the file and the line where
 * the offending record starts: "stream-opencl.csv:3: ...". Lines starting
 * with '#' are comments (the reference tables carry their source that way). */
#ifndef CR_RESULT_READER_H
#define CR_RESULT_READER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char **fields; /* ncols of them, each NUL-terminated */
    unsigned line; /* 1-based line where the record starts */
} cr_csv_row;

typedef struct {
    char path[4096];
    char **names; /* the header */
    size_t ncols;
    cr_csv_row *rows;
    size_t nrows;
} cr_csv_table;

/* Reads path. Returns 0, or -1 with err = "PATH: why" (cannot open) or
 * "PATH:LINE: why" (a record with a different field count than the header,
 * broken quoting, an empty file). */
int cr_csv_load(cr_csv_table *t, const char *path, char *err, size_t errlen);

/* Parses text that came from name (used in the messages). */
int cr_csv_parse(cr_csv_table *t, const char *name, const char *text, char *err, size_t errlen);

void cr_csv_free(cr_csv_table *t);

/* The column's index, or -1. */
int cr_csv_column(const cr_csv_table *t, const char *name);

/* Indices of every named column into idx; -1 with "PATH:1: no column 'x'"
 * when one is missing. */
int cr_csv_require(const cr_csv_table *t, const char *const *names, size_t n, int *idx, char *err, size_t errlen);

/* A field as a number: the whole field must be one finite decimal or
 * exponent number. An empty field gives NaN when allow_empty, else an error;
 * anything else is "PATH:LINE: column 'x': 'abc' is not a number". */
int cr_csv_number(const cr_csv_table *t, size_t row, int col, bool allow_empty, double *out, char *err,
                  size_t errlen);

/* The value of key in params ("key=value;key=value"), copied into buf;
 * false when the key is absent. */
bool cr_params_get(const char *params, const char *key, char *buf, size_t len);

#endif
