/* Reads a CSV the suite wrote (RFC 4180: quoted fields may hold commas,
 * quotes and line breaks) back into memory, for the tools that post-process
 * a results directory, and checks it against the schema of what it must be
 * (shared/csv_schema.h): every tool reads every CSV through here, so that
 * all refuse the same files with the same words. Every complaint names the
 * file and the line at fault: "stream-opencl.csv:3: ...". Lines starting
 * with '#' are comments (the reference tables carry their source that way),
 * but for the files the suite writes (results, metadata, the run log), which
 * have none: there such a line is refused. */
#ifndef CR_RESULT_READER_H
#define CR_RESULT_READER_H

#include "shared/csv_schema.h"

#include <stdbool.h>
#include <stddef.h>

#define CR_CSV_MAX_LINE 65536                  /* bytes in one line, its end not counted */
#define CR_CSV_MAX_BYTES ((size_t)64 << 20)     /* bytes in one file */
/* The most memory reading a file takes: its text, 8 bytes a field (a field
 * takes a byte at least, its comma or line end), 16 a record (two bytes at
 * least) and, while a key,value file's keys are checked, 16 more a record:
 * 25 bytes a byte of the file at most. */
#define CR_CSV_MAX_MEMORY (25 * CR_CSV_MAX_BYTES)

typedef struct {
    char **fields; /* ncols of them, each NUL-terminated */
    unsigned line; /* 1-based line where the record starts */
} cr_csv_row;

typedef struct {
    char path[4096];
    char **names; /* the header */
    size_t ncols;
    unsigned header_line;
    cr_csv_row *rows;
    size_t nrows;
    /* A table read from text: the text, every field ended with a NUL in
     * its place, and one array of the header's and every record's field
     * pointers, which names and each record's fields point into. NULL in a
     * table built field by field (each field and array its own
     * allocation, as cr_csv_free frees them then). */
    char *text;
    char **cells;
} cr_csv_table;

/* Reads path as a file of the given schema (cr_schema_for(path) for a file
 * of a results directory). Before any field: UTF-8 text, no control byte
 * but tab and line breaks, no line longer than CR_CSV_MAX_LINE, the last
 * line ended, no more than CR_CSV_MAX_BYTES. Then the header the schema
 * says, every record as many fields as it, every field what its column
 * holds. Returns 0, or -1 with err = "PATH: why" (cannot open, not a
 * regular file, too large), "out of memory reading PATH" (never more than
 * CR_CSV_MAX_MEMORY is asked for) or "PATH:LINE: why" (binary data, a line too
 * long, the file cut short, no header, a column missing, unknown or twice,
 * a record with a different field count, broken quoting, a field that is
 * not what its column holds, a key twice). */
int cr_csv_load(cr_csv_table *t, const char *path, const cr_csv_schema *schema, char *err, size_t errlen);

/* The same for len bytes of text (NUL bytes included) that came from name
 * (used in the messages). */
int cr_csv_parse(cr_csv_table *t, const char *name, const char *text, size_t len, const cr_csv_schema *schema,
                 char *err, size_t errlen);

void cr_csv_free(cr_csv_table *t);

/* The column's index, or -1. */
int cr_csv_column(const cr_csv_table *t, const char *name);

/* Indices of every named column into idx; -1 with "PATH:LINE: no column
 * 'x' in the header" when one is missing. */
int cr_csv_require(const cr_csv_table *t, const char *const *names, size_t n, int *idx, char *err, size_t errlen);

/* A field as a number, as cr_number_fault() reads one. An empty field gives
 * NaN when allow_empty, else an error; anything else is "PATH:LINE: column
 * 'x': 'abc' is not a number". */
int cr_csv_number(const cr_csv_table *t, size_t row, int col, bool allow_empty, double *out, char *err,
                  size_t errlen);

/* The value of key in params ("key=value;key=value"), copied into buf;
 * false when the key is absent. */
bool cr_params_get(const char *params, const char *key, char *buf, size_t len);

#endif
