/* The characterization report: what a results directory says, read from the
 * CSVs by column name, as headline tables per device and section, rendered
 * as Markdown and self-contained HTML, compared between two runs, and
 * checked after the fact.
 *
 * A run directory (results/<date>-<host>/) holds one directory per device
 * (<backend>-<index>-<name>/) and run_all.sh's run-log.csv; a directory that
 * itself holds *.meta.csv files is taken as one device. */
#ifndef CR_REPORT_H
#define CR_REPORT_H

#include "result_reader.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RP_MAX_COLS 8
#define RP_CELL_LEN 192
#define RP_MAX_TABLES 6
#define RP_PATH_LEN 4096

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

typedef enum {
    RP_DEVICE,
    RP_BANDWIDTH,
    RP_STREAM,
    RP_XMODEL,
    RP_ATOMICS,
    RP_SFU,
    RP_REGSPILL,
    RP_OTHER,
    RP_NSECTIONS
} rp_section_id;

typedef struct {
    bool ran;           /* some result of the section was found */
    rp_strings notes;   /* sentences under the tables: caveats, invalid rows */
    rp_table tables[RP_MAX_TABLES]; /* fixed: extraction holds pointers to them */
    size_t ntables;
    rp_strings sources; /* CSV files the tables came from, relative to the device directory */
    rp_strings figures; /* PNG files, relative to the device directory */
} rp_section;

typedef struct {
    char dir[256];            /* the device directory's name within the run; "" for a device directory alone */
    char path[RP_PATH_LEN];
    char label[256];          /* device name and backend, for headings */
    rp_section sections[RP_NSECTIONS];
} rp_device;

typedef struct {
    char path[RP_PATH_LEN];
    char name[256];           /* the run directory's own name */
    rp_device *devices;
    size_t ndevices;
    rp_table log;             /* run_all.sh's run-log.csv, when there is one */
    bool has_log;
} rp_run;

/* ---- static descriptions (report_text.c) ---- */
const char *rp_section_title(rp_section_id s);
const char *rp_section_slug(rp_section_id s);
const char *rp_how_to_read(rp_section_id s);
/* The section a file (a CSV or figure name) belongs to, by its prefix. */
rp_section_id rp_section_of_file(const char *name);

/* ---- tables (report_model.c) ---- */
void rp_strings_push(rp_strings *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool rp_strings_has(const rp_strings *s, const char *text);
void rp_strings_free(rp_strings *s);

/* Adds a table to the section; the columns are given as a NULL-terminated list. */
rp_table *rp_add_table(rp_section *sec, const char *id, const char *title, const char *key_head, ...);
/* The row with this key, appended empty (every cell "") when new. */
rp_row *rp_row_for(rp_table *t, const char *key, ...) __attribute__((format(printf, 2, 3)));
const rp_row *rp_find_row(const rp_table *t, const char *key);
int rp_col_index(const rp_table *t, const char *col);
const rp_table *rp_find_table(const rp_section *sec, const char *id);

/* Cell setters: a number shown with `digits` significant digits (NaN
 * shows as a dash and is not compared), an integer, or text. */
void rp_set_num(rp_row *r, int col, double v, int digits);
void rp_set_int(rp_row *r, int col, double v);
void rp_set_text(rp_row *r, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "256 MiB": a byte count in binary units. */
void rp_format_bytes(double bytes, char *out, size_t len);
/* A CSV cell as a number: NaN when empty or not entirely a number. */
double rp_number(const char *text);

void rp_table_free(rp_table *t);
void rp_device_free(rp_device *d);
void rp_run_free(rp_run *r);

/* ---- reading a results directory (report_extract.c, report_headlines.c) ---- */
/* Reads every device of the run at path. with_figures: also list the
 * figures (the report; a comparison needs none). Returns 0, or -1 with err
 * when path is not a directory or holds no results. */
int rp_load_run(const char *path, rp_run *run, char *err, size_t errlen);

/* Reads one device directory into d (path and dir set by the caller). */
void rp_load_device(rp_device *d, const rp_run *run);

/* A cell by column name; "" when the column or row does not exist. */
const char *rp_get(const cr_csv_table *t, size_t row, const char *col);
/* Reads file (a name within d->path) as a source of section s: marks the
 * section as run and lists the file; a file that does not parse becomes a
 * note. Returns 0, or -1 (t empty). */
int rp_open_csv(rp_device *d, rp_section_id s, const char *file, cr_csv_table *t);

/* The headline extraction of each benchmark: reads the CSV file `file`
 * (a name within d->path) into its section. */
void rp_headline_bandwidth(rp_device *d, const char *file);
void rp_headline_stream(rp_device *d, const char *file);
void rp_headline_xmodel(rp_device *d, const char *file);
void rp_headline_atomics(rp_device *d, const char *file);
void rp_headline_sfu(rp_device *d, const char *file);
void rp_headline_regspill(rp_device *d, const char *file);
void rp_headline_other(rp_device *d, const char *file);

/* ---- output (report_render.c) ---- */
/* Writes report.md and report.html into the run directory. Returns 0 or -1
 * with err. */
int rp_write_reports(const rp_run *run, char *err, size_t errlen);
void rp_render_markdown(FILE *f, const rp_run *run);
/* HTML with every figure embedded as a base64 data: URI; returns -1 with
 * err when a figure cannot be read. */
int rp_render_html(FILE *f, const rp_run *run, char *err, size_t errlen);

/* ---- comparing two runs (report_compare.c) ---- */
typedef struct {
    const rp_device *a, *b;
    char how[64];             /* how they were matched */
} rp_pair;

/* Pairs the devices of two runs: the same directory name, else the same
 * backend and index, else the only device left on each side. Returns the
 * number of pairs written to pairs (at most max). */
size_t rp_pair_devices(const rp_run *a, const rp_run *b, rp_pair *pairs, size_t max);

/* B / A, NaN when either is not a finite number or A is 0. */
double rp_ratio(double a, double b);

/* The side-by-side comparison as Markdown: every headline value present on
 * both sides, with B/A. */
void rp_render_compare(FILE *f, const rp_run *a, const rp_run *b);

/* ---- checking a written report (report_check.c) ---- */
/* Verifies run_dir/report.html and report.md: every embedded image decodes
 * to a PNG identical to the file it names, every linked file exists, every
 * linked CSV parses with a consistent column count, every figure of the run
 * is in the report. Problems go to `problems` one line each; returns their
 * count, or -1 when the report cannot be read at all. */
int rp_check_report(const char *run_dir, FILE *problems, size_t *images, size_t *links);

#endif
