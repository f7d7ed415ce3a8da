/* What the characterization report says, as data: a run of devices, each
 * with its sections of headline tables, notes, sources and figures, built
 * from the CSVs by column name.
 *
 * A run directory (results/<date>-<host>/) holds one directory per device
 * (<backend>-<index>-<name>/) and run_all.sh's run-log.csv; a directory that
 * itself holds *.meta.csv files is taken as one device. */
#ifndef CR_REPORT_MODEL_H
#define CR_REPORT_MODEL_H

#include "shared/result_reader.h"

#include <stdbool.h>
#include <stddef.h>

#define RP_MAX_COLS 10
#define RP_CELL_LEN 192
#define RP_MAX_TABLES 6
#define RP_PATH_LEN 4096
/* Sections a device can have: the device's own, one per part that defines
 * one (tools/report/registry.h), and the other results. */
#define RP_MAX_SECTIONS 24
/* The device's own section, first: its metadata and what ran on it. */
#define RP_DEVICE_SECTION 0

typedef struct {
    char text[RP_CELL_LEN]; /* as shown */
    double num;             /* the value compared between runs; NaN for text */
} rp_cell;

typedef struct {
    char key[128]; /* unique in its table: what a comparison matches */
    rp_cell cells[RP_MAX_COLS];
} rp_row;

typedef struct {
    char id[32];     /* stable across runs: "stream-fixed" */
    char title[200];
    char key_head[48];
    int ncols;
    char cols[RP_MAX_COLS][48];
    rp_row *rows;
    size_t nrows, cap;
} rp_table;

typedef struct {
    char **v;
    size_t n, cap;
} rp_strings;

typedef struct {
    bool ran;           /* some result of the section was found */
    rp_strings notes;   /* sentences under the tables: caveats, invalid rows */
    rp_table tables[RP_MAX_TABLES]; /* fixed: extraction holds pointers to them */
    size_t ntables;
    rp_strings sources; /* CSV files the tables came from, relative to the device directory */
    rp_strings figures; /* PNG files, relative to the device directory */
} rp_section;

/* One figure on a device's first screen: what it is, its value, the peak or
 * limit it stands against where there is one, the flags the plausibility
 * gate gave it, and the section that has it in full. */
typedef struct {
    char what[128];
    char value[128];
    char limit[192];
    char flags[128];
    int section;
} rp_headline;

typedef struct {
    char dir[256];            /* the device directory's name within the run; "" for a device directory alone */
    char path[RP_PATH_LEN];
    char label[256];          /* device name and backend, for headings */
    char device_name[256];    /* the metadata's device.name; "" where none was read */
    char backend[32];         /* the metadata's backend: cuda, opencl */
    bool no_device;           /* every benchmark here was skipped: the API found no device */
    char why[256];            /* then, the reason run_all.sh recorded */
    rp_section sections[RP_MAX_SECTIONS];
    rp_headline *headlines;   /* the first screen, in section order */
    size_t nheadlines;
    rp_strings lead;          /* the figures on the first screen, relative to the device directory */
} rp_device;

typedef struct {
    char path[RP_PATH_LEN];
    char name[256];           /* the run directory's own name */
    rp_device *devices;
    size_t ndevices;
    rp_table log;             /* run_all.sh's run-log.csv, when there is one */
    bool has_log;
    rp_table peers;           /* tools/peers.sh's peers/peers.csv, when there is one */
    bool has_peers;
} rp_run;

/* v (an array of *n elements of size bytes) one element longer, the new
 * last one zeroed, *n counted up; out of memory is fatal. */
void *rp_grow(void *v, size_t *n, size_t size);

void rp_strings_push(rp_strings *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool rp_strings_has(const rp_strings *s, const char *text);
void rp_strings_free(rp_strings *s);

/* Adds a table to the section; the columns are given as a NULL-terminated list. */
rp_table *rp_add_table(rp_section *sec, const char *id, const char *title, const char *key_head, ...);
/* The row with this key, appended empty (every cell "") when new. */
rp_row *rp_row_for(rp_table *t, const char *key, ...) __attribute__((format(printf, 2, 3)));
const rp_row *rp_find_row(const rp_table *t, const char *key);
/* Removes the row with this key, if there is one. */
void rp_remove_row(rp_table *t, const char *key);
int rp_col_index(const rp_table *t, const char *col);
const rp_table *rp_find_table(const rp_section *sec, const char *id);

/* Cell setters: a number shown with `digits` significant digits (NaN
 * shows as a dash and is not compared), an integer, or text. */
void rp_set_num(rp_row *r, int col, double v, int digits);
void rp_set_int(rp_row *r, int col, double v);
void rp_set_text(rp_row *r, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "256 MiB": a byte count in binary units. */
void rp_format_bytes(double bytes, char *out, size_t len);
/* A number past what a double holds (a sum, a share or a ratio that
 * overflowed), as the report says it: "over 1.8e+308", or "below
 * -1.8e+308" for one below the lowest. */
void rp_format_past_double(double v, char *out, size_t len);

/* A CSV cell by column name; "" when the column or row does not exist. */
const char *rp_get(const cr_csv_table *t, size_t row, const char *col);
/* A CSV cell (or a params value) as a number: NaN when empty or not a
 * number as the reader takes one (cr_number_fault). */
double rp_number(const char *text);

void rp_table_free(rp_table *t);
void rp_device_free(rp_device *d);
void rp_run_free(rp_run *r);

#endif
