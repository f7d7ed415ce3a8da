#define _GNU_SOURCE
#include "db/cluster.h"

#include "csv.h"
#include "db/node_names.h"
#include "db/sql.h"
#include "error.h"
#include "shared/md_text.h"
#include "shared/result_reader.h"
#include "shared/bounded_file.h"
#include "stats.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* With no finite value (or no memory) both are NaN: the summary of nothing. */
void db_median_mad(const double *values, size_t n, double *median, double *mad)
{
    double *v = calloc(n ? n : 1, sizeof *v);
    size_t m = 0;
    for (size_t i = 0; v && i < n; ++i)
        if (isfinite(values[i]))
            v[m++] = values[i];
    cr_summary s;
    cr_summarize(v, m, &s);
    *median = s.median;
    for (size_t i = 0; i < m; ++i)
        v[i] = fabs(v[i] - *median);
    cr_summarize(v, m, &s);
    *mad = s.median;
    free(v);
}

bool db_cluster_outlier(const db_cluster *c, const db_figure *f, size_t k, char *why, size_t len)
{
    double v = f->values[k];
    why[0] = '\0';
    if (!isfinite(v) || !isfinite(f->median))
        return false;
    const char *side = v < f->median ? "below" : "above";
    double floor = DB_MAD_FLOOR * fabs(f->median), spread = f->mad > floor ? f->mad : floor;
    if (spread > 0 && fabs(v - f->median) > DB_OUTLIER_MADS * spread) {
        if (f->mad >= floor)
            snprintf(why, len, "%.3g MADs %s the median", fabs(v - f->median) / spread, side);
        else
            snprintf(why, len, "%.3g%% %s the median, where the other nodes agree within %g%%",
                     100 * fabs(v - f->median) / fabs(f->median), side, 100 * DB_MAD_FLOOR);
        return true;
    }
    /* The fraction bounds the worse side: below it for a throughput, above
     * median / fraction for a latency. */
    if (isfinite(c->below)) {
        bool worse = f->lower_is_better ? v > f->median / c->below : v < c->below * f->median;
        if (worse) {
            snprintf(why, len, "%.3g of the median, %s %g", v / f->median,
                     f->lower_is_better ? "above 1 /" : "below", c->below);
            return true;
        }
    }
    return false;
}

size_t db_cluster_outliers(const db_cluster *c)
{
    size_t n = 0;
    char why[128];
    for (size_t i = 0; i < c->nfigures; ++i)
        for (size_t k = 0; k < c->nnodes; ++k)
            n += db_cluster_outlier(c, &c->figures[i], k, why, sizeof why);
    return n;
}

size_t db_cluster_nodes_not_ok(const db_cluster *c)
{
    size_t n = 0;
    for (size_t k = 0; k < c->nnodes; ++k)
        n += strcmp(c->nodes[k].status, "ok") != 0;
    return n;
}

void db_cluster_free(db_cluster *c)
{
    for (size_t i = 0; i < c->nfigures; ++i)
        free(c->figures[i].values);
    free(c->figures);
    free(c->nodes);
    *c = (db_cluster){0};
}

/* ---- reading it from the database ---- */

static const char *text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

static db_node *add_node(db_cluster *c, const char *name)
{
    db_node *grown = realloc(c->nodes, (c->nnodes + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    c->nodes = grown;
    db_node *n = &c->nodes[c->nnodes++];
    *n = (db_node){0};
    snprintf(n->name, sizeof n->name, "%s", name);
    return n;
}

/* Each row of sql, the cluster's path bound to its one parameter, handed
 * to take_row until it says no more (out of memory). Returns the last
 * step's SQLite code (SQLITE_DONE when every row was taken), or -1 with err
 * when sql does not prepare. */
static int each_cluster_row(sqlite3 *db, db_cluster *c, const char *sql, bool (*take_row)(db_cluster *, sqlite3_stmt *),
                            char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(db, &st, sql, err, errlen) != 0)
        return -1;
    sqlite3_bind_text(st, 1, c->path, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && take_row(c, st))
        ;
    sqlite3_finalize(st);
    return rc;
}

/* A node's verdict: from its run log (failed tasks), its results (none)
 * and whether it wrote a run log at all. */
static bool take_node(db_cluster *c, sqlite3_stmt *st)
{
    db_node *n = add_node(c, text(st, 0));
    if (n == NULL)
        return false;
    long logged = sqlite3_column_int64(st, 1), figures = sqlite3_column_int64(st, 2);
    const char *failed = text(st, 3), *unfinished = text(st, 4);
    if (logged == 0) {
        snprintf(n->status, sizeof n->status, "interrupted");
        snprintf(n->reason, sizeof n->reason, "no run-log.csv: the suite was stopped before its first task ended%s",
                 figures ? "" : ", and no results");
    } else if (*failed) {
        snprintf(n->status, sizeof n->status, "failed");
        snprintf(n->reason, sizeof n->reason, "%s", failed);
    } else if (*unfinished) {
        snprintf(n->status, sizeof n->status, "interrupted");
        snprintf(n->reason, sizeof n->reason, "%s", unfinished);
    } else if (figures == 0) {
        snprintf(n->status, sizeof n->status, "no results");
        snprintf(n->reason, sizeof n->reason, "every task skipped or no verified headline figure");
    } else {
        snprintf(n->status, sizeof n->status, "ok");
    }
    return true;
}

/* Every node of the cluster in the database, with its verdict. */
static int load_nodes(sqlite3 *db, db_cluster *c, char *err, size_t errlen)
{
    static const char sql[] =
        "SELECT r.node, "
        " (SELECT COUNT(*) FROM run_log l WHERE l.run_id = r.id), "
        " (SELECT COUNT(*) FROM headlines h JOIN devices d ON d.id = h.device_id WHERE d.run_id = r.id), "
        " (SELECT group_concat(l.task || ' ' || l.status || ' (' || IFNULL(l.reason, 'exit ' || l.exit_code)"
        "                      || ')', '; ') FROM run_log l WHERE l.run_id = r.id AND l.status = 'failed'), "
        /* An interrupted task counts until a later record of it says how it ended. */
        " (SELECT group_concat(l.task || ' (' || IFNULL(l.reason, 'exit ' || l.exit_code) || ')', '; ') "
        "  FROM run_log l WHERE l.run_id = r.id AND l.status = 'interrupted' AND NOT EXISTS "
        "  (SELECT 1 FROM run_log n WHERE n.run_id = l.run_id AND n.task = l.task AND n.dir IS l.dir "
        "   AND n.line > l.line)) "
        "FROM runs r WHERE r.cluster = ? ORDER BY r.node";
    return each_cluster_row(db, c, sql, take_node, err, errlen) < 0 ? -1 : 0;
}

/* The node of that name: a binary search among the first n, whose names
 * sorted holds, then a look at the few added since. */
static db_node *find_node(db_cluster *c, const char *const *sorted, size_t n, const char *name)
{
    const char *hit = db_sorted_names_find(sorted, n, name);
    if (hit != NULL)
        return (db_node *)(void *)((char *)(uintptr_t)hit - offsetof(db_node, name));
    for (size_t k = n; k < c->nnodes; ++k)
        if (strcmp(c->nodes[k].name, name) == 0)
            return &c->nodes[k];
    return NULL;
}

/* The names of the nodes, sorted, pointing into c->nodes: room is made
 * first for extra more nodes, so that adding them moves none. NULL when out
 * of memory. */
static const char **sorted_node_names(db_cluster *c, size_t extra)
{
    db_node *grown = realloc(c->nodes, (c->nnodes + extra + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    c->nodes = grown;
    const char **sorted = malloc((c->nnodes + 1) * sizeof *sorted);
    for (size_t k = 0; sorted != NULL && k < c->nnodes; ++k)
        sorted[k] = c->nodes[k].name;
    if (sorted != NULL)
        db_sort_names(sorted, c->nnodes);
    return sorted;
}

/* Nodes that were to run and left no directory: the names of
 * expected-nodes, where there is one (a regular file: a FIFO there is
 * refused, not waited on), each looked up among the nodes that ran by a
 * binary search, so that a list of any length is read in n log n. */
static int add_missing_nodes(db_cluster *c, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/expected-nodes", c->path);
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    db_name_list list;
    if (db_read_node_list(path, &list, err, errlen) != 0)
        return -1;
    size_t ran = c->nnodes;
    const char **sorted = sorted_node_names(c, list.n);
    if (sorted == NULL) {
        db_free_node_list(&list);
        return cr_errf(err, errlen, "%s: out of memory", path);
    }
    for (size_t i = 0; i < list.n; ++i) {
        if (db_sorted_names_find(sorted, ran, list.names[i]) != NULL)
            continue;
        db_node *node = &c->nodes[c->nnodes++];
        *node = (db_node){0};
        snprintf(node->name, sizeof node->name, "%s", list.names[i]);
        snprintf(node->status, sizeof node->status, "missing");
        snprintf(node->reason, sizeof node->reason, "listed in expected-nodes; no directory under nodes/");
    }
    free(sorted);
    db_free_node_list(&list);
    return 0;
}

/* The states tools/slurm/lib.sh's node_state writes, and only those: any
 * other word would replace a node's verdict with one nobody gave. */
static bool is_batch_state(const char *state)
{
    static const char *const states[] = {"passed", "failed", "interrupted", "error", "missing"};
    for (size_t i = 0; i < sizeof states / sizeof *states; ++i)
        if (strcmp(state, states[i]) == 0)
            return true;
    return false;
}

/* The batch system's word on node n: its state, job and exit code. */
static void take_batch_state(db_node *n, const char *state, const char *code, const char *job)
{
    char batch[256];
    snprintf(batch, sizeof batch, "%s%s%s%s%s%s%s", *job ? "batch job " : "batch: ", job, *job ? ": " : "", state,
             *code ? " (exit " : "", code, *code ? ")" : "");
    if (strcmp(state, "failed") == 0 && strcmp(n->status, "failed") == 0)
        return; /* its run log names the failed tasks */
    char was[sizeof n->reason];
    snprintf(was, sizeof was, "%s", n->reason);
    snprintf(n->status, sizeof n->status, "%s", strcmp(state, "failed") == 0 ? "failed" : state);
    int len = snprintf(n->reason, sizeof n->reason, "%s%s%s", batch, *was ? "; " : "", was);
    if (len < 0 || (size_t)len >= sizeof n->reason)
        snprintf(n->reason + sizeof n->reason - 4, 4, "...");
}

/* What the batch system says became of each node, where the cluster run
 * has <path>/nodes.csv (node,state,exit_code,job_id,...): a node it ran
 * to its end keeps the verdict of its own run log; one interrupted, ended
 * in error or never started is that, whatever its run log says. */
static int apply_batch_states(db_cluster *c, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/nodes.csv", c->path);
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0; /* there is none; one that is no regular file, the reader refuses */
    cr_csv_table t;
    if (cr_csv_load(&t, path, &cr_schema_any, err, errlen) != 0)
        return -1;
    static const char *const cols[] = {"node", "state", "exit_code", "job_id"};
    int col[4];
    if (cr_csv_require(&t, cols, 4, col, err, errlen) != 0) {
        cr_csv_free(&t);
        return -1;
    }
    const char **sorted = sorted_node_names(c, t.nrows);
    size_t indexed = c->nnodes;
    int rc = sorted ? 0 : cr_errf(err, errlen, "%s: out of memory", path);
    for (size_t i = 0; rc == 0 && i < t.nrows; ++i) {
        char **f = t.rows[i].fields;
        const char *name = f[col[0]], *state = f[col[1]], *code = f[col[2]], *job = f[col[3]];
        if (!is_batch_state(state)) {
            rc = cr_errf(err, errlen, "%s:%u: state '%.32s' is none that the cluster scripts write (%s)", path,
                         t.rows[i].line, state, "passed, failed, interrupted, error, missing");
            break;
        }
        if (*name == '\0' || strcmp(state, "passed") == 0)
            continue;
        db_node *n = find_node(c, sorted, indexed, name);
        if (n == NULL) {
            n = &c->nodes[c->nnodes++];
            *n = (db_node){0};
            snprintf(n->name, sizeof n->name, "%s", name);
        }
        take_batch_state(n, state, code, job);
    }
    free(sorted);
    cr_csv_free(&t);
    return rc;
}

static int by_node_name(const void *name, const void *node)
{
    return strcmp(name, ((const db_node *)node)->name);
}

/* A node that ran, by a binary search: they come first, in name order. */
static size_t node_index(const db_cluster *c, const char *name)
{
    const db_node *hit = bsearch(name, c->nodes, c->nran, sizeof *c->nodes, by_node_name);
    return hit ? (size_t)(hit - c->nodes) : c->nnodes;
}

static db_figure *figure_for(db_cluster *c, sqlite3_stmt *st)
{
    if (c->nfigures > 0) {
        db_figure *last = &c->figures[c->nfigures - 1];
        if (strcmp(last->device, text(st, 1)) == 0 && strcmp(last->benchmark, text(st, 2)) == 0 &&
            strcmp(last->variant, text(st, 3)) == 0 && strcmp(last->dtype, text(st, 4)) == 0)
            return last;
    }
    db_figure *grown = realloc(c->figures, (c->nfigures + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    c->figures = grown;
    db_figure *f = &c->figures[c->nfigures];
    *f = (db_figure){0};
    if ((f->values = malloc((c->nnodes ? c->nnodes : 1) * sizeof *f->values)) == NULL)
        return NULL;
    ++c->nfigures;
    for (size_t k = 0; k < c->nnodes; ++k)
        f->values[k] = NAN;
    snprintf(f->device, sizeof f->device, "%s", text(st, 1));
    snprintf(f->benchmark, sizeof f->benchmark, "%s", text(st, 2));
    snprintf(f->variant, sizeof f->variant, "%s", text(st, 3));
    snprintf(f->dtype, sizeof f->dtype, "%s", text(st, 4));
    snprintf(f->unit, sizeof f->unit, "%s", text(st, 5));
    f->lower_is_better = strcmp(text(st, 6), "lower") == 0;
    return f;
}

/* The row's value under its figure and its node, where the node is one of the cluster's. */
static bool take_figure(db_cluster *c, sqlite3_stmt *st)
{
    db_figure *f = figure_for(c, st);
    if (f == NULL)
        return false;
    size_t k = node_index(c, text(st, 0));
    if (k < c->nnodes)
        f->values[k] = sqlite3_column_double(st, 7);
    return true;
}

static int load_figures(sqlite3 *db, db_cluster *c, char *err, size_t errlen)
{
    int rc = each_cluster_row(db, c,
                              "SELECT r.node, d.backend || IFNULL('-' || d.device_index, '') AS device, h.benchmark, "
                              " h.variant, h.dtype, h.unit, h.better, h.figure "
                              "FROM headlines h JOIN devices d ON d.id = h.device_id JOIN runs r ON r.id = d.run_id "
                              "WHERE r.cluster = ? ORDER BY h.benchmark, device, h.variant, h.dtype, r.node",
                              take_figure, err, errlen);
    if (rc < 0)
        return -1;
    if (rc != SQLITE_DONE)
        return cr_errf(err, errlen, "cluster figures: %s", sqlite3_errmsg(db));
    for (size_t i = 0; i < c->nfigures; ++i)
        db_median_mad(c->figures[i].values, c->nnodes, &c->figures[i].median, &c->figures[i].mad);
    return 0;
}

int db_cluster_load(sqlite3 *db, const char *path, double below, db_cluster *c, char *err, size_t errlen)
{
    *c = (db_cluster){0};
    snprintf(c->path, sizeof c->path, "%s", path);
    c->below = below;
    if (load_nodes(db, c, err, errlen) != 0)
        return -1;
    if (c->nnodes == 0)
        return cr_errf(err, errlen, "%s: no node of this cluster run in the database (import it first)", path);
    c->nran = c->nnodes;
    if (add_missing_nodes(c, err, errlen) != 0 || apply_batch_states(c, err, errlen) != 0 ||
        load_figures(db, c, err, errlen) != 0) {
        db_cluster_free(c);
        return -1;
    }
    return 0;
}

/* ---- writing it ---- */

static void figure_name(const db_figure *f, char *out, size_t len)
{
    snprintf(out, len, "%s %s%s%s", f->benchmark, f->variant, *f->dtype ? " " : "", f->dtype);
}

int db_cluster_write_csv(FILE *f, const db_cluster *c)
{
    fputs("node,device,benchmark,variant,dtype,unit,value,median,mad,verdict,why\n", f);
    char why[160];
    for (size_t i = 0; i < c->nfigures; ++i) {
        const db_figure *g = &c->figures[i];
        for (size_t k = 0; k < c->nnodes; ++k) {
            if (!isfinite(g->values[k]))
                continue;
            bool out = db_cluster_outlier(c, g, k, why, sizeof why);
            const char *fields[] = {c->nodes[k].name, g->device, g->benchmark, g->variant, g->dtype, g->unit};
            for (size_t j = 0; j < sizeof fields / sizeof *fields; ++j) {
                cr_csv_field(f, fields[j]);
                fputc(',', f);
            }
            cr_csv_double(f, g->values[k]);
            fputc(',', f);
            cr_csv_double(f, g->median);
            fputc(',', f);
            cr_csv_double(f, g->mad);
            fprintf(f, ",%s,", out ? "outlier" : "ok");
            cr_csv_field(f, why);
            fputc('\n', f);
        }
    }
    for (size_t k = 0; k < c->nnodes; ++k) {
        if (strcmp(c->nodes[k].status, "ok") == 0)
            continue;
        cr_csv_field(f, c->nodes[k].name);
        fprintf(f, ",,,,,,,,,%s,", c->nodes[k].status);
        cr_csv_field(f, c->nodes[k].reason);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int db_cluster_write_md(FILE *f, const db_cluster *c)
{
    size_t outliers = db_cluster_outliers(c), not_ok = db_cluster_nodes_not_ok(c);
    fputs("# crossroof cluster report: ", f);
    cr_md_text(f, strrchr(c->path, '/') ? strrchr(c->path, '/') + 1 : c->path);
    fputs("\n\n", f);
    fprintf(f, "%zu node(s), %zu headline figure(s), %zu outlier(s), %zu node(s) not ok.\n\n", c->nnodes,
            c->nfigures, outliers, not_ok);
    fprintf(f, "An outlier is a value more than %g median absolute deviations (MAD) from the median of the nodes",
            DB_OUTLIER_MADS);
    if (isfinite(c->below))
        fprintf(f, ", or below %g x the median (above the median / %g for a latency)", c->below, c->below);
    fputs(". Outliers are shown in bold; a dash is a figure the node does not have.\n\n", f);
    if (not_ok) {
        fputs("## Nodes not ok\n\n| node | status | why |\n|---|---|---|\n", f);
        for (size_t k = 0; k < c->nnodes; ++k)
            if (strcmp(c->nodes[k].status, "ok") != 0) {
                fputs("| ", f);
                cr_md_text(f, c->nodes[k].name);
                fputs(" | ", f);
                cr_md_text(f, c->nodes[k].status);
                fputs(" | ", f);
                cr_md_text(f, c->nodes[k].reason);
                fputs(" |\n", f);
            }
        fputc('\n', f);
    }
    char name[256], why[160];
    if (outliers) {
        fputs("## Outliers\n\n| node | device | figure | value | median | why |\n|---|---|---|---:|---:|---|\n", f);
        for (size_t i = 0; i < c->nfigures; ++i)
            for (size_t k = 0; k < c->nnodes; ++k)
                if (db_cluster_outlier(c, &c->figures[i], k, why, sizeof why)) {
                    figure_name(&c->figures[i], name, sizeof name);
                    fputs("| ", f);
                    cr_md_text(f, c->nodes[k].name);
                    fputs(" | ", f);
                    cr_md_text(f, c->figures[i].device);
                    fputs(" | ", f);
                    cr_md_text(f, name);
                    fprintf(f, " | %.4g ", c->figures[i].values[k]);
                    cr_md_text(f, c->figures[i].unit);
                    fprintf(f, " | %.4g | %s |\n", c->figures[i].median, why);
                }
        fputc('\n', f);
    }
    fputs("## Headline figures by node\n\n| device | figure | unit | median | MAD |", f);
    for (size_t k = 0; k < c->nnodes; ++k) {
        fputc(' ', f);
        cr_md_text(f, c->nodes[k].name);
        fputs(" |", f);
    }
    fputs("\n|---|---|---|---:|---:|", f);
    for (size_t k = 0; k < c->nnodes; ++k)
        fputs("---:|", f);
    fputc('\n', f);
    for (size_t i = 0; i < c->nfigures; ++i) {
        const db_figure *g = &c->figures[i];
        figure_name(g, name, sizeof name);
        fputs("| ", f);
        cr_md_text(f, g->device);
        fputs(" | ", f);
        cr_md_text(f, name);
        fputs(" | ", f);
        cr_md_text(f, g->unit);
        fprintf(f, " | %.4g | %.3g |", g->median, g->mad);
        for (size_t k = 0; k < c->nnodes; ++k) {
            if (!isfinite(g->values[k]))
                fputs(" \xe2\x80\x93 |", f);
            else if (db_cluster_outlier(c, g, k, why, sizeof why))
                fprintf(f, " **%.4g** |", g->values[k]);
            else
                fprintf(f, " %.4g |", g->values[k]);
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
