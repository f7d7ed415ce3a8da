/* Where the runs of a results directory are: a run of run_all.sh
 * (RUN/run-log.csv, RUN/<backend>-<index>-<device>/ with the CSVs), or a
 * cluster run whose nodes are each such a run (RUN/nodes/<node>/). */
#ifndef CR_DB_RUN_DIRS_H
#define CR_DB_RUN_DIRS_H

#include <stdbool.h>
#include <stddef.h>

#define DB_PATH_LEN 4096

typedef struct {
    char path[DB_PATH_LEN];    /* absolute */
    char cluster[DB_PATH_LEN]; /* the cluster run's absolute path; "" for a run of one machine */
    char node[256];            /* the node's directory name; "" for a run of one machine */
} db_run_dir;

/* The runs under dir: its nodes in name order for a cluster run, else dir
 * itself. Every entry under nodes/ but those named with a leading dot
 * must be a directory, or a link to one. Returns 0 with a malloc'ed list,
 * or -1 with err ("DIR: not a directory", "DIR/nodes/n3: a FIFO, not a
 * node's directory"). */
int db_find_runs(const char *dir, db_run_dir **runs, size_t *n, char *err, size_t errlen);

/* The names (not paths) within dir that pass keep(), sorted, as a malloc'ed
 * array of malloc'ed strings; -1 with err when dir cannot be read. */
int db_list_dir(const char *dir, bool (*keep)(const char *dir, const char *name), char ***names, size_t *n,
                char *err, size_t errlen);
void db_free_names(char **names, size_t n);

/* dir holds a *.csv or a *.log: a device directory, even one whose
 * benchmarks all ended before writing a CSV (the report lists it too). */
bool db_holds_results(const char *dir);
/* 0, or -1 with "RUN/DIR: cannot read the directory (why)..." where a
 * visible directory of run (nodes/ aside) cannot be listed. */
int db_refuse_unreadable_subdirs(const char *run, char *err, size_t errlen);

/* True for a directory entry name that is a subdirectory of dir (dot names
 * excluded), and for a name ending in ".csv" that is there and is no
 * directory (its reader refuses what is no regular file, by name). */
bool db_is_subdir(const char *dir, const char *name);
bool db_is_csv(const char *dir, const char *name);

/* "DIR/NAME" into out ("DIR" for an empty name). Returns 0, or -1 when
 * it does not fit (out then holds what did). */
int db_path_join(char *out, size_t len, const char *dir, const char *name);

#endif
