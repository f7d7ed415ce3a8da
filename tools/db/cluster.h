/* A cluster run in the database: every node's headline figures side by
 * side, the spread of each figure over the nodes (median and median
 * absolute deviation), the outliers named, and the nodes that failed, were
 * interrupted or are missing, with why. */
#ifndef CR_DB_CLUSTER_H
#define CR_DB_CLUSTER_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A value further from the median than this many median absolute
 * deviations is an outlier. */
#define DB_OUTLIER_MADS 3.0
/* Where most nodes agree to the digit the MAD is 0, and no deviation,
 * however large, would be MADs away: the spread judged by is then at least
 * this share of the median (no two machines measure closer). */
#define DB_MAD_FLOOR 0.01

typedef struct {
    char name[256];
    char status[16];   /* ok, failed, interrupted, no results, missing */
    char reason[1024];
} db_node;

typedef struct {
    char device[64];   /* backend and index: "opencl-0", "cuda-1" */
    char benchmark[64], variant[128], dtype[32], unit[32];
    bool lower_is_better;
    double *values;    /* one per node, NaN where the node has none */
    double median, mad;
} db_figure;

typedef struct {
    char path[4096];
    double below;      /* --below FRACTION, NaN when not given */
    db_node *nodes;    /* those that ran first, in name order; then the others */
    size_t nnodes, nran;
    db_figure *figures;
    size_t nfigures;
} db_cluster;

/* The cluster run at path (absolute, as imported) from the database, the
 * nodes named in <path>/expected-nodes (one a line) without a directory
 * added as missing. Returns 0, or -1 with err when no node of it is in the
 * database. */
int db_cluster_load(sqlite3 *db, const char *path, double below, db_cluster *c, char *err, size_t errlen);
void db_cluster_free(db_cluster *c);

/* Whether node k's value of f is an outlier, and why ("3.2 MADs below the
 * median"). */
bool db_cluster_outlier(const db_cluster *c, const db_figure *f, size_t k, char *why, size_t len);

/* The median and the median absolute deviation of the finite values. */
void db_median_mad(const double *values, size_t n, double *median, double *mad);

/* The long CSV, one line per node and figure and one per node that is not
 * ok: node,device,benchmark,variant,dtype,unit,value,median,mad,verdict,why. */
int db_cluster_write_csv(FILE *f, const db_cluster *c);
/* The Markdown report: figures by nodes, outliers, nodes not ok. */
int db_cluster_write_md(FILE *f, const db_cluster *c);

/* Outliers and nodes not ok, counted. */
size_t db_cluster_outliers(const db_cluster *c);
size_t db_cluster_nodes_not_ok(const db_cluster *c);

#endif
