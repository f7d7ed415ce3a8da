#include "sfu/summary_table.h"

#include "csv.h"
#include "plausibility.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const char *const sfu_summary_table_columns[] = {
    "func",          "math",        "dtype",   "version",         "latency_ns",  "latency_cycles",
    "mean_rel_err",  "max_rel_err", "max_ulp", "max_ulp_wide",    "bound_ulp",   "ftz",
    "registers",     "throughput_Gops", "per_cu_Gops", "speedup_vs_precise", "valid",
    "flags",         "note",
};
const size_t sfu_summary_table_ncolumns = sizeof sfu_summary_table_columns / sizeof sfu_summary_table_columns[0];

/* Bit for bit: a different compilation of the same function differs in
 * some result over 100 000 inputs. */
static bool same_errors(const sfu_summary_entry *a, const sfu_summary_entry *b)
{
    return memcmp(&a->mean_rel, &b->mean_rel, sizeof a->mean_rel) == 0 &&
           memcmp(&a->max_rel, &b->max_rel, sizeof a->max_rel) == 0 &&
           memcmp(&a->max_ulp, &b->max_ulp, sizeof a->max_ulp) == 0 &&
           memcmp(&a->max_ulp_wide, &b->max_ulp_wide, sizeof a->max_ulp_wide) == 0;
}

void sfu_summary_flag_unbacked(sfu_summary_table *table)
{
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int t = 0; t < CR_NDTYPES; ++t) {
            const sfu_summary_entry *precise = &(*table)[f][t][SFU_PRECISE];
            for (int v = 0; v < SFU_NVERSIONS; ++v) {
                sfu_summary_entry *e = &(*table)[f][t][v];
                bool off = fabs(e->speedup - 1) > SFU_UNBACKED_SPEEDUP;
                if (v == SFU_PRECISE || !e->present || !precise->present || !off || !same_errors(e, precise))
                    continue;
                CR_FLAG(e, "unbacked-speedup",
                     "%.3gx over precise with errors identical to precise's, beyond the %g either side that "
                     "measurement leaves: the same code measured under other load, not a faster version",
                     e->speedup, SFU_UNBACKED_SPEEDUP);
            }
        }
}

typedef struct {
    const sfu_summary_table *table;
    const sfu_version *versions;
    size_t nversions;
} table_ctx;

/* Takes one entry to sink: a FILE for the CSV, the rows of the Markdown
 * table. */
typedef void (*entry_writer)(void *sink, sfu_func func, cr_dtype dt, sfu_version ver, const sfu_summary_entry *e);

/* Every entry that ran, in Li's order: the functions in single precision,
 * then in double; the versions as the backend lists them. Returns how many. */
static size_t for_each_entry(void *sink, const table_ctx *c, entry_writer write)
{
    size_t n = 0;
    for (int dt = 0; dt < CR_NDTYPES; ++dt)
        for (int func = 0; func < SFU_NFUNCS; ++func)
            for (size_t i = 0; i < c->nversions; ++i) {
                const sfu_summary_entry *e = &(*c->table)[func][dt][c->versions[i]];
                if (e->present) {
                    write(sink, (sfu_func)func, (cr_dtype)dt, c->versions[i], e);
                    ++n;
                }
            }
    return n;
}

static void num(FILE *f, double v)
{
    fputc(',', f);
    cr_csv_double(f, v);
}

static void csv_entry(void *sink, sfu_func func, cr_dtype dt, sfu_version ver, const sfu_summary_entry *e)
{
    FILE *f = sink;
    cr_csv_field(f, sfu_functions[func].name);
    fputc(',', f);
    cr_csv_field(f, sfu_functions[func].math);
    fputc(',', f);
    cr_csv_field(f, cr_dtype_name((cr_dtype)dt));
    fputc(',', f);
    cr_csv_field(f, sfu_version_names[ver]);
    num(f, e->latency_ns);
    num(f, e->latency_cycles);
    num(f, e->mean_rel);
    num(f, e->max_rel);
    num(f, e->max_ulp);
    num(f, e->max_ulp_wide);
    num(f, e->bound_ulp);
    fputc(',', f);
    cr_csv_field(f, e->ftz);
    fputc(',', f);
    if (e->registers >= 0)
        fprintf(f, "%d", e->registers);
    num(f, e->gops);
    num(f, e->per_cu_gops);
    num(f, e->speedup);
    fprintf(f, ",%d,", e->valid ? 1 : 0);
    cr_csv_field(f, e->flags);
    fputc(',', f);
    cr_csv_field(f, e->note);
    fputc('\n', f);
}

static int write_csv(FILE *f, void *vctx)
{
    for (size_t i = 0; i < sfu_summary_table_ncolumns; ++i)
        fprintf(f, "%s%s", i ? "," : "", sfu_summary_table_columns[i]);
    fputc('\n', f);
    for_each_entry(f, vctx, csv_entry);
    return ferror(f) ? -1 : 0;
}

/* A cell of the readable table: "-" where nothing was measured. */
static void cell(char *buf, size_t len, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v))
        snprintf(buf, len, "inf");
    else
        snprintf(buf, len, fmt, v);
}

#define MD_COLS 18
#define MD_CELL 32

typedef struct {
    char (*cells)[MD_COLS][MD_CELL];
    size_t n, cap;
} md_rows;

static const char *const md_header[MD_COLS] = {
    "func", "math", "type", "version", "latency ns", "cycles", "mean rel err", "max rel err", "max ulp",
    "max ulp wide", "bound ulp", "ftz", "regs", "Gop/s", "Gop/s per CU", "vs precise", "valid", "flags",
};

/* Names to the left, numbers to the right. */
static bool left_aligned(int c)
{
    return c < 4 || c == 11 || c >= 16;
}

static void md_collect(void *sink, sfu_func func, cr_dtype dt, sfu_version ver, const sfu_summary_entry *e)
{
    md_rows *rows = sink;
    if (rows->n == rows->cap) {
        size_t cap = rows->cap ? 2 * rows->cap : 64;
        void *grown = realloc(rows->cells, cap * sizeof *rows->cells);
        if (grown == NULL)
            return; /* the file is then short; write_md reports it */
        rows->cells = grown;
        rows->cap = cap;
    }
    char(*v)[MD_CELL] = rows->cells[rows->n++];
    snprintf(v[0], MD_CELL, "%s", sfu_functions[func].name);
    snprintf(v[1], MD_CELL, "%s", sfu_functions[func].math);
    snprintf(v[2], MD_CELL, "%s", cr_dtype_name(dt));
    snprintf(v[3], MD_CELL, "%s", sfu_version_names[ver]);
    cell(v[4], MD_CELL, "%.3g", e->latency_ns);
    cell(v[5], MD_CELL, "%.0f", e->latency_cycles);
    cell(v[6], MD_CELL, "%.3e", e->mean_rel);
    cell(v[7], MD_CELL, "%.3e", e->max_rel);
    cell(v[8], MD_CELL, "%.3g", e->max_ulp);
    cell(v[9], MD_CELL, "%.3g", e->max_ulp_wide);
    cell(v[10], MD_CELL, "%.3g", e->bound_ulp);
    snprintf(v[11], MD_CELL, "%s", e->ftz[0] ? e->ftz : "-");
    if (e->registers >= 0)
        snprintf(v[12], MD_CELL, "%d", e->registers);
    else
        snprintf(v[12], MD_CELL, "-");
    cell(v[13], MD_CELL, "%.4g", e->gops);
    cell(v[14], MD_CELL, "%.4g", e->per_cu_gops);
    cell(v[15], MD_CELL, "%.3gx", e->speedup);
    snprintf(v[16], MD_CELL, "%s", e->valid ? "yes" : "NO");
    snprintf(v[17], MD_CELL, "%.*s", MD_CELL - 1, e->flags[0] ? e->flags : "-");
}

static void md_line(FILE *f, const char *const *cells, const size_t *width)
{
    for (int c = 0; c < MD_COLS; ++c) {
        if (left_aligned(c))
            fprintf(f, "| %-*s ", (int)width[c], cells[c]);
        else
            fprintf(f, "| %*s ", (int)width[c], cells[c]);
    }
    fprintf(f, "|\n");
}

static int write_md(FILE *f, void *vctx)
{
    const table_ctx *c = vctx;
    md_rows rows = {0};
    size_t expected = for_each_entry(&rows, c, md_collect);
    size_t width[MD_COLS];
    for (int k = 0; k < MD_COLS; ++k) {
        width[k] = strlen(md_header[k]);
        for (size_t r = 0; r < rows.n; ++r)
            width[k] = strlen(rows.cells[r][k]) > width[k] ? strlen(rows.cells[r][k]) : width[k];
    }
    md_line(f, md_header, width);
    for (int k = 0; k < MD_COLS; ++k) {
        bool left = left_aligned(k);
        fprintf(f, "|%s", left ? ":" : "-");
        for (size_t i = 0; i < width[k]; ++i)
            fputc('-', f);
        fprintf(f, "%s", left ? "-" : ":");
    }
    fprintf(f, "|\n");
    for (size_t r = 0; r < rows.n; ++r) {
        const char *cells[MD_COLS];
        for (int k = 0; k < MD_COLS; ++k)
            cells[k] = rows.cells[r][k];
        md_line(f, cells, width);
    }
    free(rows.cells);
    return ferror(f) || rows.n != expected ? -1 : 0;
}

int sfu_summary_table_write(const char *base, const sfu_summary_table *table, const sfu_version *versions,
                            size_t nversions, char *err, size_t errlen)
{
    table_ctx c = {table, versions, nversions};
    char path[4200];
    snprintf(path, sizeof path, "%s.table.csv", base);
    if (cr_write_atomic(path, write_csv, &c, err, errlen) != 0)
        return -1;
    snprintf(path, sizeof path, "%s.table.md", base);
    return cr_write_atomic(path, write_md, &c, err, errlen);
}
