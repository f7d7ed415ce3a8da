#define _DEFAULT_SOURCE
#include "db/run_dirs.h"

#include "error.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool stat_is(const char *dir, const char *name, mode_t type)
{
    char path[DB_PATH_LEN];
    struct stat sb;
    if (db_path_join(path, sizeof path, dir, name) != 0 || stat(path, &sb) != 0)
        return false;
    return (sb.st_mode & S_IFMT) == type;
}

bool db_is_subdir(const char *dir, const char *name)
{
    return name[0] != '.' && stat_is(dir, name, S_IFDIR);
}

/* Every entry named *.csv: one that is no regular file (a FIFO, a link to
 * a device or to nothing, a directory) is kept, for its reader to refuse by
 * name rather than to be left out unsaid. */
bool db_is_csv(const char *dir, const char *name)
{
    size_t n = strlen(name);
    char path[DB_PATH_LEN];
    struct stat sb;
    return name[0] != '.' && n > 4 && strcmp(name + n - 4, ".csv") == 0 &&
           db_path_join(path, sizeof path, dir, name) == 0 && lstat(path, &sb) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void db_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        free(names[i]);
    free(names);
}

int db_list_dir(const char *dir, bool (*keep)(const char *dir, const char *name), char ***names, size_t *n,
                char *err, size_t errlen)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (d == NULL)
        return cr_errf(err, errlen, "%s: cannot read the directory", dir);
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!keep(dir, e->d_name))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **grown = realloc(*names, cap * sizeof *grown);
            if (grown == NULL)
                break;
            *names = grown;
        }
        if (((*names)[*n] = strdup(e->d_name)) == NULL)
            break;
        ++*n;
    }
    bool complete = e == NULL;
    closedir(d);
    if (!complete) {
        db_free_names(*names, *n);
        *names = NULL;
        *n = 0;
        return cr_errf(err, errlen, "out of memory");
    }
    if (*n > 1)
        qsort(*names, *n, sizeof **names, by_name);
    return 0;
}

static bool is_csv_or_log(const char *dir, const char *name)
{
    (void)dir;
    size_t n = strlen(name);
    return name[0] != '.' && n > 4 && (strcmp(name + n - 4, ".csv") == 0 || strcmp(name + n - 4, ".log") == 0);
}

bool db_holds_results(const char *dir)
{
    char **names;
    size_t n;
    char err[64];
    if (db_list_dir(dir, is_csv_or_log, &names, &n, err, sizeof err) != 0)
        return false;
    db_free_names(names, n);
    return n > 0;
}

/* A directory that is there and cannot be listed: its CSVs would be left
 * out unsaid. The cluster's nodes/ is looked at on its own. */
static bool is_unreadable_subdir(const char *dir, const char *name)
{
    char path[DB_PATH_LEN];
    if (!db_is_subdir(dir, name) || strcmp(name, "nodes") == 0 || db_path_join(path, sizeof path, dir, name) != 0)
        return false;
    DIR *d = opendir(path);
    if (d != NULL)
        closedir(d);
    return d == NULL;
}

int db_refuse_unreadable_subdirs(const char *run, char *err, size_t errlen)
{
    char **names;
    size_t n;
    if (db_list_dir(run, is_unreadable_subdir, &names, &n, err, errlen) != 0)
        return -1;
    int rc = 0;
    if (n > 0) {
        char path[DB_PATH_LEN];
        db_path_join(path, sizeof path, run, names[0]);
        DIR *d = opendir(path);
        int why = errno;
        if (d != NULL)
            closedir(d);
        rc = cr_errf(err, errlen, "%s: cannot read the directory (%s): its results would be left out", path,
                     d != NULL ? "unreadable a moment ago" : strerror(why));
    }
    db_free_names(names, n);
    return rc;
}

int db_path_join(char *out, size_t len, const char *dir, const char *name)
{
    int n = snprintf(out, len, "%s%s%s", dir, *name ? "/" : "", name);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

static bool is_visible(const char *dir, const char *name)
{
    (void)dir;
    return name[0] != '.';
}

static const char *kind_of(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:
        return "a regular file";
    case S_IFIFO:
        return "a FIFO";
    case S_IFSOCK:
        return "a socket";
    case S_IFCHR:
        return "a character device";
    case S_IFBLK:
        return "a block device";
    default:
        return "no directory";
    }
}

/* 0 where path, an entry under nodes/, is a node's directory or a link to
 * one (followed wherever it points, as every file is read through its
 * links); else -1 with what it is. A node left out unsaid would be
 * missing from the report with no reason given. Only stat: a FIFO is
 * never opened. */
static int check_node_entry(const char *path, char *err, size_t errlen)
{
    struct stat own, target;
    if (lstat(path, &own) != 0)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno));
    bool link = S_ISLNK(own.st_mode);
    if (stat(path, &target) != 0)
        return cr_errf(err, errlen, "%s: %s, not a node's directory", path,
                       link && errno == ENOENT ? "a symbolic link to nothing" : strerror(errno));
    if (S_ISDIR(target.st_mode))
        return 0;
    return cr_errf(err, errlen, "%s: %s%s, not a node's directory", path, link ? "a symbolic link to " : "",
                   kind_of(target.st_mode));
}

int db_find_runs(const char *dir, db_run_dir **runs, size_t *n, char *err, size_t errlen)
{
    *runs = NULL;
    *n = 0;
    char abs[PATH_MAX];
    struct stat sb;
    if (realpath(dir, abs) == NULL || stat(abs, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return cr_errf(err, errlen, "%s: not a directory", dir);
    char nodes_dir[DB_PATH_LEN];
    if (db_path_join(nodes_dir, sizeof nodes_dir, abs, "nodes") != 0)
        return cr_errf(err, errlen, "%s: path too long", dir);
    if (!stat_is(abs, "nodes", S_IFDIR)) {
        if ((*runs = calloc(1, sizeof **runs)) == NULL)
            return cr_errf(err, errlen, "out of memory");
        snprintf((*runs)->path, sizeof (*runs)->path, "%s", abs);
        *n = 1;
        return 0;
    }
    char **names;
    size_t count;
    if (db_list_dir(nodes_dir, is_visible, &names, &count, err, errlen) != 0)
        return -1;
    if ((*runs = calloc(count ? count : 1, sizeof **runs)) == NULL) {
        db_free_names(names, count);
        return cr_errf(err, errlen, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; ++i) {
        db_run_dir *r = &(*runs)[i];
        if (db_path_join(r->path, sizeof r->path, nodes_dir, names[i]) != 0)
            rc = cr_errf(err, errlen, "%s/%s: path too long", nodes_dir, names[i]);
        else
            rc = check_node_entry(r->path, err, errlen);
        snprintf(r->cluster, sizeof r->cluster, "%s", abs);
        snprintf(r->node, sizeof r->node, "%s", names[i]);
    }
    *n = count;
    db_free_names(names, count);
    if (rc != 0) {
        free(*runs);
        *runs = NULL;
        *n = 0;
    }
    return rc;
}
