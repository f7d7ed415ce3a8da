/* Reading a run, from its directory or from the results database: its
 * devices, each device's metadata, which benchmarks ran and how they ended
 * (run_all.sh's run-log.csv), every CSV handed to its section's headline
 * extraction, every figure. */
#define _GNU_SOURCE
#include "report/extract.h"
#include "shared/names.h"

#include "db/run_dirs.h"
#include "db/tables.h"
#include "error.h"
#include "report/peers.h"
#include "report/registry.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The names in a directory, sorted bytewise (not by locale: the report must
 * not depend on where it is made). */
static void list_dir(const char *path, rp_strings *out)
{
    struct dirent **ents;
    int n = scandir(path, &ents, NULL, cr_dirent_by_name);
    for (int i = 0; i < n; ++i) {
        if (ents[i]->d_name[0] != '.')
            rp_strings_push(out, "%s", ents[i]->d_name);
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the run's files come from: its directory, or the results database
 * (db/tables.h), which gives back every CSV as the reader reads the file
 * (the figures, which it does not hold, aside). */
typedef struct {
    sqlite3 *db; /* NULL: the directory */
    sqlite3_int64 run_id;
} source;

/* The database's list of names onto out, freed. */
static void take_names(rp_strings *out, char **names, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        rp_strings_push(out, "%s", names[i]);
    db_free_names(names, n);
}

/* The names of a device's files, sorted. */
static int list_files(const source *src, const rp_device *d, rp_strings *out, char *err, size_t errlen)
{
    if (src->db == NULL) {
        list_dir(d->path, out);
        return 0;
    }
    char **names;
    size_t n;
    if (db_device_files(src->db, src->run_id, d->dir, &names, &n, err, errlen) != 0)
        return -1;
    take_names(out, names, n);
    return 0;
}

/* A CSV of device d, or of the run for a NULL d (the run log), read through
 * the shared reader by what its name says it is; err says why when it does
 * not read. */
static int read_csv(const source *src, const rp_run *run, const rp_device *d, const char *file, cr_csv_table *t,
                    char *err, size_t errlen)
{
    if (src->db)
        return db_load_table(src->db, src->run_id, d ? d->dir : NULL, file, t, err, errlen);
    char path[RP_PATH_LEN + 256];
    snprintf(path, sizeof path, "%s/%s", d ? d->path : run->path, file);
    return cr_csv_load(t, path, cr_schema_for(file), err, errlen);
}

/* Any name there, a link to nothing too: read, it is refused by name. */
static bool named(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static bool has_log(const source *src, const rp_run *run)
{
    if (src->db)
        return db_has_run_log(src->db, src->run_id);
    char path[RP_PATH_LEN + 32];
    snprintf(path, sizeof path, "%s/run-log.csv", run->path);
    return named(path);
}

/* ---- run_all.sh's log ---- */

static int load_log(const source *src, rp_run *run, char *err, size_t errlen)
{
    cr_csv_table t;
    if (!has_log(src, run))
        return 0;
    if (read_csv(src, run, NULL, "run-log.csv", &t, err, errlen) != 0)
        return -1;
    run->has_log = true;
    rp_table *log = &run->log;
    snprintf(log->id, sizeof log->id, "run-log");
    snprintf(log->title, sizeof log->title, "run_all.sh's record of every benchmark");
    snprintf(log->key_head, sizeof log->key_head, "benchmark");
    static const char *const cols[] = {"device", "status", "exit", "seconds", "mode", "reason"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; ++c)
        snprintf(log->cols[log->ncols++], sizeof log->cols[0], "%s", cols[c]);
    for (size_t i = 0; i < t.nrows; ++i) {
        /* "dir/task": a task is listed once per device directory. */
        const char *dir = rp_get(&t, i, "dir");
        rp_row *r = rp_row_for(log, "%s%s%s", dir, *dir ? "/" : "", rp_get(&t, i, "task"));
        rp_set_text(r, 0, "%s", rp_get(&t, i, "device"));
        rp_set_text(r, 1, "%s", rp_get(&t, i, "status"));
        rp_set_int(r, 2, rp_number(rp_get(&t, i, "exit_code")));
        rp_set_num(r, 3, rp_number(rp_get(&t, i, "seconds")), 4);
        rp_set_text(r, 4, "%s", rp_get(&t, i, "mode"));
        rp_set_text(r, 5, "%s", rp_get(&t, i, "reason"));
    }
    cr_csv_free(&t);
    return 0;
}

/* ---- the peers: tools/peers.sh's ratio table, in peers/ beside the devices ---- */

static bool has_peers(const source *src, const rp_run *run)
{
    if (src->db == NULL) {
        char path[RP_PATH_LEN + 32];
        snprintf(path, sizeof path, "%s/" RP_PEERS_DIR "/peers.csv", run->path);
        return named(path);
    }
    char **names, err[256];
    size_t n;
    bool found = false;
    if (db_device_files(src->db, src->run_id, RP_PEERS_DIR, &names, &n, err, sizeof err) != 0)
        return false;
    for (size_t i = 0; i < n; ++i)
        found = found || strcmp(names[i], "peers.csv") == 0;
    db_free_names(names, n);
    return found;
}

static int load_peers(const source *src, rp_run *run, char *err, size_t errlen)
{
    if (!has_peers(src, run))
        return 0;
    rp_device where = {0};
    snprintf(where.dir, sizeof where.dir, RP_PEERS_DIR);
    if (snprintf(where.path, sizeof where.path, "%s/" RP_PEERS_DIR, run->path) >= (int)sizeof where.path)
        return cr_errf(err, errlen, "%s: the path of its peers is over %zu bytes", run->path, sizeof where.path - 1);
    cr_csv_table t;
    if (read_csv(src, run, &where, "peers.csv", &t, err, errlen) != 0)
        return -1;
    rp_peers_table(&run->peers, &t);
    run->has_peers = true;
    cr_csv_free(&t);
    return 0;
}

/* ---- the device and host ---- */

/* SIZE: a byte count; COUNT: a number that 0 means unknown (no device). */
enum { PLAIN, BYTES, COUNT };
typedef struct {
    const char *key, *label;
    int kind;
} meta_key;
static const meta_key meta_keys[] = {
    {"device.name", "device", PLAIN},
    {"device.vendor", "vendor", PLAIN},
    {"device.platform", "platform", PLAIN},
    {"device.driver", "driver", PLAIN},
    {"device.api_version", "API version", PLAIN},
    {"device.type", "type", PLAIN},
    {"device.compute_units", "compute units", COUNT},
    {"device.clock_mhz", "clock (MHz)", COUNT},
    {"device.global_mem_bytes", "global memory", BYTES},
    {"device.max_alloc_bytes", "largest allocation", BYTES},
    {"device.local_mem_bytes", "local memory per group", BYTES},
    {"device.local_mem_default_bytes", "local memory per group without opting in", BYTES},
    {"device.cache_bytes", "device cache", BYTES},
    {"device.unified_memory", "unified memory", PLAIN},
    {"device.fp64", "fp64", PLAIN},
    {"device.timer_resolution_ns", "timer resolution (ns)", COUNT},
    {"device.pci_bus_id", "PCI bus", PLAIN},
    {"device.pcie_link_GBps", "PCIe link (GB/s)", COUNT},
    {"peak.memory_GBps", "memory peak (GB/s)", COUNT},
    {"peak.float_GFLOPs", "float peak (GFLOP/s)", COUNT},
    {"peak.double_GFLOPs", "double peak (GFLOP/s)", COUNT},
    {"peak.float_GFLOPs_modelled", "float peak modelled (GFLOP/s)", COUNT},
    {"peak.double_GFLOPs_modelled", "double peak modelled (GFLOP/s)", COUNT},
    {"peak.host_clock_MHz", "host clock of the compute peak (MHz)", COUNT},
    {"peak.compute_check", "compute peak, measured against modelled", PLAIN},
    {"mode", "mode", PLAIN},
    {"host", "host", PLAIN},
    {"cpu", "CPU", PLAIN},
    {"online_cpus", "online CPUs", PLAIN},
    {"topology", "topology", PLAIN},
    {"os", "OS", PLAIN},
    {"compiler", "compiler", PLAIN},
    {"crossroof_version", "crossroof", PLAIN},
    {"git_revision", "git revision", PLAIN},
    {"date", "date", PLAIN},
};

static const char *meta_value(const cr_csv_table *t, const char *key)
{
    for (size_t i = 0; i < t->nrows; ++i)
        if (strcmp(rp_get(t, i, "key"), key) == 0)
            return rp_get(t, i, "value");
    return "";
}

/* The device table from one metadata file t, and the device's label. */
static void device_table(rp_device *d, const char *file, const cr_csv_table *t)
{
    rp_section *sec = &d->sections[RP_DEVICE_SECTION];
    rp_table *tab = rp_add_table(sec, "device", "", "", "value", NULL);
    snprintf(tab->title, sizeof tab->title, "From %s", file);
    for (size_t k = 0; k < sizeof meta_keys / sizeof *meta_keys; ++k) {
        const char *v = meta_value(t, meta_keys[k].key);
        double num = rp_number(v);
        if (*v == '\0' || (meta_keys[k].kind != PLAIN && num == 0))
            continue;
        rp_row *r = rp_row_for(tab, "%s", meta_keys[k].label);
        if (meta_keys[k].kind == BYTES && isfinite(num) && num > 0) {
            char human[48];
            rp_format_bytes(num, human, sizeof human);
            rp_set_text(r, 0, "%s", human);
            r->cells[0].num = num;
        } else {
            rp_set_text(r, 0, "%s", v);
            r->cells[0].num = num;
        }
    }
    const char *name = meta_value(t, "device.name"), *backend = meta_value(t, "backend");
    if (*name)
        snprintf(d->label, sizeof d->label, "%s%s%s%s", name, *backend ? " (" : "", backend, *backend ? ")" : "");
    snprintf(d->device_name, sizeof d->device_name, "%s", name);
    snprintf(d->backend, sizeof d->backend, "%s", backend);
}

/* A CPU device's compute peak is measured where FLOP rates are judged
 * (fma's metadata, peak.compute_check set): there the device table's
 * compute peaks are that file's, with the model beside them and whether
 * the two agree; the metadata of the other benchmarks has the device's
 * own. */
static void measured_compute_rows(rp_device *d, const char *file, const cr_csv_table *t)
{
    rp_section *sec = &d->sections[RP_DEVICE_SECTION];
    if (*meta_value(t, "peak.compute_check") == '\0' || sec->ntables == 0)
        return;
    rp_table *tab = &sec->tables[0];
    for (size_t k = 0; k < sizeof meta_keys / sizeof *meta_keys; ++k) {
        const char *key = meta_keys[k].key, *v = meta_value(t, key);
        bool compute = strncmp(key, "peak.", 5) == 0 && (strstr(key, "GFLOPs") || strstr(key, "_MHz") ||
                                                          strstr(key, "compute"));
        if (!compute || *v == '\0')
            continue;
        rp_row *r = rp_row_for(tab, "%s", meta_keys[k].label);
        rp_set_text(r, 0, "%s (%s)", v, file);
        r->cells[0].num = rp_number(v);
    }
}

/* The metadata file the device table comes from: that of a part whose
 * metadata describes the device first (report/part.h), else the first. */
static const char *device_meta(const rp_strings *files)
{
    const char *first = NULL;
    for (size_t i = 0; i < files->n; ++i) {
        if (!cr_ends_with(files->v[i], ".meta.csv"))
            continue;
        const rp_part *p = rp_part_of_file(files->v[i]);
        if (p && p->describes_device)
            return files->v[i];
        if (first == NULL)
            first = files->v[i];
    }
    return first;
}

/* Every metadata file is read (each is linked from the report); the
 * benchmarks' files agree on the device, and the device table comes from
 * device_meta()'s, with a measured compute peak from the file that has it. */
static int load_meta(const source *src, const rp_run *run, rp_device *d, const rp_strings *files, char *err,
                     size_t errlen)
{
    rp_section *sec = &d->sections[RP_DEVICE_SECTION];
    const char *chosen = device_meta(files);
    snprintf(d->label, sizeof d->label, "%s", d->dir[0] ? d->dir : "device");
    cr_csv_table t;
    if (chosen) {
        if (read_csv(src, run, d, chosen, &t, err, errlen) != 0)
            return -1;
        sec->ran = true;
        device_table(d, chosen, &t);
        cr_csv_free(&t);
    }
    for (size_t i = 0; i < files->n; ++i) {
        const char *f = files->v[i];
        if (!cr_ends_with(f, ".meta.csv"))
            continue;
        rp_strings_push(&sec->sources, "%s", f);
        if (read_csv(src, run, d, f, &t, err, errlen) != 0)
            return -1;
        measured_compute_rows(d, f, &t);
        cr_csv_free(&t);
    }
    return 0;
}

/* ---- what ran, and every row's verification ---- */

/* The name run_all.sh records a CSV's producer under: its part's, else the
 * file's name up to its first '.'. */
static void task_of(const char *csv, char *task, size_t len)
{
    const rp_part *p = rp_part_of_file(csv);
    if (p && p->task) {
        snprintf(task, len, "%s", p->task);
        return;
    }
    snprintf(task, len, "%s", csv);
    char *dot = strchr(task, '.');
    if (dot)
        *dot = '\0';
}

static void count_rows(rp_device *d, rp_table *bench, const char *file, const cr_csv_table *t)
{
    char task[256];
    task_of(file, task, sizeof task);
    rp_row *r = rp_row_for(bench, "%s", task);
    int valid = cr_csv_column(t, "valid");
    size_t invalid = 0, first_bad = 0;
    for (size_t i = 0; valid >= 0 && i < t->nrows; ++i)
        if (strcmp(t->rows[i].fields[valid], "0") == 0 && invalid++ == 0)
            first_bad = i;
    double rows = rp_number(r->cells[2].text);
    rp_set_int(r, 2, (isfinite(rows) ? rows : 0) + (double)t->nrows);
    double bad = rp_number(r->cells[3].text);
    rp_set_int(r, 3, (isfinite(bad) ? bad : 0) + (double)invalid);
    if (invalid) {
        rp_section *sec = &d->sections[rp_section_of_file(file)];
        rp_strings_push(&sec->notes,
                        "%zu of %zu rows of %s failed verification and are left out of the tables; the first: "
                        "%s %s %s: %s",
                        invalid, t->nrows, file, rp_get(t, first_bad, "variant"), rp_get(t, first_bad, "dtype"),
                        rp_get(t, first_bad, "sweep"), rp_get(t, first_bad, "note"));
    }
}

/* The run log's rows for this device: its benchmarks' status, time and
 * reason in the benchmarks table; a benchmark that ended without results
 * says why in its section. Whether the API found a device here: not where
 * every benchmark the log has for it was skipped (the reason kept). */
static void take_log(rp_device *d, rp_table *bench, const rp_run *run)
{
    size_t dl = strlen(d->dir), rows = 0, ran = 0;
    for (size_t i = 0; run->has_log && i < run->log.nrows; ++i) {
        const rp_row *l = &run->log.rows[i];
        if (strncmp(l->key, d->dir, dl) != 0 || l->key[dl] != '/')
            continue;
        const char *task = l->key + dl + 1, *status = l->cells[1].text, *reason = l->cells[5].text;
        rp_row *r = rp_row_for(bench, "%s", task);
        rp_set_text(r, 0, "%s", status);
        rp_set_num(r, 1, l->cells[3].num, 3);
        rp_set_text(r, 4, "%s", reason);
        ++rows;
        ran += strcmp(status, "skipped") != 0;
        if (strcmp(status, "passed") != 0)
            rp_strings_push(&d->sections[rp_section_of_file(task)].notes, "%s %s%s%s", task, status,
                            reason[0] ? ": " : "", reason);
        if (strcmp(status, "skipped") == 0 && d->why[0] == '\0')
            snprintf(d->why, sizeof d->why, "%s", reason);
    }
    /* Without a log: no device where no metadata names one. */
    d->no_device = rows ? ran == 0 : d->device_name[0] == '\0';
}

/* Every CSV into its section (and its rows counted), every figure listed;
 * -1 with err at the first CSV that does not read. */
static int take_files(const source *src, rp_device *d, rp_table *bench, const rp_run *run, const rp_strings *files,
                      char *err, size_t errlen)
{
    for (size_t i = 0; i < files->n; ++i) {
        const char *f = files->v[i];
        if (cr_ends_with(f, ".csv") && !cr_ends_with(f, ".meta.csv") && strcmp(f, "run-log.csv") != 0) {
            cr_csv_table t;
            if (read_csv(src, run, d, f, &t, err, errlen) != 0)
                return -1;
            count_rows(d, bench, f, &t);
            rp_take_file(d, f, &t);
            cr_csv_free(&t);
        } else if (cr_ends_with(f, ".png")) {
            rp_strings_push(&d->sections[rp_section_of_file(f)].figures, "%s", f);
        }
    }
    return 0;
}

/* Tables the results had no rows for would be empty frames; a section
 * with figures has run. */
static void drop_empty_tables(rp_device *d)
{
    for (int s = 0; s < rp_nsections(); ++s) {
        rp_section *sec = &d->sections[s];
        size_t keep = 0;
        for (size_t i = 0; i < sec->ntables; ++i) {
            if (sec->tables[i].nrows > 0)
                sec->tables[keep++] = sec->tables[i];
            else
                rp_table_free(&sec->tables[i]);
        }
        sec->ntables = keep;
        if (sec->figures.n)
            sec->ran = true;
    }
}

/* Reads one device directory into d (path and dir set by the caller);
 * -1 with err at the first CSV that does not read. */
static int load_device(const source *src, rp_device *d, const rp_run *run, char *err, size_t errlen)
{
    rp_strings files = {0};
    int rc = list_files(src, d, &files, err, errlen);
    if (rc == 0)
        rc = load_meta(src, run, d, &files, err, errlen);
    if (rc == 0) {
        rp_table *bench = rp_add_table(&d->sections[RP_DEVICE_SECTION], "benchmarks", "What ran on this device",
                                       "benchmark", "status", "time (s)", "rows", "invalid rows", "note", NULL);
        take_log(d, bench, run);
        rc = take_files(src, d, bench, run, &files, err, errlen);
    }
    rp_strings_free(&files);
    if (rc != 0)
        return -1;
    drop_empty_tables(d);
    if (!d->no_device)
        rp_summarize(d);
    return 0;
}

/* Whether a name in path ends with suffix, or with other where not NULL. */
static bool holds(const char *path, const char *suffix, const char *other)
{
    rp_strings files = {0};
    list_dir(path, &files);
    bool any = false;
    for (size_t i = 0; i < files.n && !any; ++i)
        any = cr_ends_with(files.v[i], suffix) || (other && cr_ends_with(files.v[i], other));
    rp_strings_free(&files);
    return any;
}

static rp_device *new_device(rp_run *run)
{
    run->devices = rp_grow(run->devices, &run->ndevices, sizeof *run->devices);
    return &run->devices[run->ndevices - 1];
}

/* The device directories of the run ("" alone for a run that is one
 * device's directory), in name order. */
static int list_devices(const source *src, const rp_run *run, rp_strings *out, char *err, size_t errlen)
{
    if (src->db) {
        char **dirs;
        size_t n;
        if (db_run_devices(src->db, src->run_id, &dirs, &n, err, errlen) != 0)
            return -1;
        for (size_t i = 0; i < n; ++i)
            if (strcmp(dirs[i], RP_PEERS_DIR) != 0)
                rp_strings_push(out, "%s", dirs[i]);
        db_free_names(dirs, n);
        return 0;
    }
    if (holds(run->path, ".meta.csv", NULL)) {
        rp_strings_push(out, "%s", "");
        return 0;
    }
    rp_strings entries = {0};
    list_dir(run->path, &entries);
    for (size_t i = 0; i < entries.n; ++i) {
        char sub[RP_PATH_LEN + 256];
        snprintf(sub, sizeof sub, "%s/%s", run->path, entries.v[i]);
        if (is_dir(sub) && holds(sub, ".csv", ".log") && strlen(sub) < RP_PATH_LEN && strcmp(entries.v[i], RP_PEERS_DIR) != 0)
            rp_strings_push(out, "%s", entries.v[i]);
    }
    rp_strings_free(&entries);
    return 0;
}

static int load_run(const source *src, const char *path, rp_run *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    if (snprintf(run->path, sizeof run->path, "%s", path) >= (int)sizeof run->path) {
        cr_errf(err, errlen, "%.64s...: the path is over %zu bytes", path, sizeof run->path - 1);
        return RP_BAD_DATA;
    }
    size_t n = strlen(run->path);
    while (n > 1 && run->path[n - 1] == '/')
        run->path[--n] = '\0';
    const char *slash = strrchr(run->path, '/');
    snprintf(run->name, sizeof run->name, "%.*s", (int)sizeof run->name - 1, slash ? slash + 1 : run->path);
    rp_strings dirs = {0};
    int rc = load_log(src, run, err, errlen);
    if (rc == 0)
        rc = load_peers(src, run, err, errlen);
    if (rc == 0)
        rc = list_devices(src, run, &dirs, err, errlen);
    for (size_t i = 0; i < dirs.n && rc == 0; ++i) {
        rp_device *d = new_device(run);
        snprintf(d->dir, sizeof d->dir, "%s", dirs.v[i]);
        if (snprintf(d->path, sizeof d->path, "%s%s%s", run->path, *d->dir ? "/" : "", d->dir) >= (int)sizeof d->path)
            rc = cr_errf(err, errlen, "%s/%s: the path is over %zu bytes", run->path, d->dir, sizeof d->path - 1);
        else
            rc = load_device(src, d, run, err, errlen);
    }
    rp_strings_free(&dirs);
    if (rc != 0) {
        rp_run_free(run);
        return RP_BAD_DATA;
    }
    /* Devices first (a CUDA directory without a GPU holds only skips and an
     * offline table); otherwise in directory order. */
    for (size_t i = 1; i < run->ndevices; ++i)
        for (size_t j = i; j > 0 && !run->devices[j].no_device && run->devices[j - 1].no_device; --j) {
            rp_device t = run->devices[j];
            run->devices[j] = run->devices[j - 1];
            run->devices[j - 1] = t;
        }
    if (run->ndevices == 0) {
        rp_run_free(run);
        cr_errf(err, errlen, "%s holds no results (no CSV files, nor directories of them)", path);
        return RP_NOT_A_RUN;
    }
    return 0;
}

void rp_device_dirs(const char *path, rp_strings *out)
{
    rp_run probe;
    memset(&probe, 0, sizeof probe);
    snprintf(probe.path, sizeof probe.path, "%s", path);
    list_devices(&(source){NULL, 0}, &probe, out, NULL, 0);
}

int rp_check_run_dir(const char *path, char *err, size_t errlen)
{
    if (!is_dir(path)) {
        cr_errf(err, errlen, "%s is not a directory", path);
        return RP_NOT_A_RUN;
    }
    rp_strings dirs = {0};
    rp_device_dirs(path, &dirs);
    char log[RP_PATH_LEN + 32];
    snprintf(log, sizeof log, "%s/run-log.csv", path);
    bool any = dirs.n > 0 || named(log);
    rp_strings_free(&dirs);
    if (any)
        return 0;
    cr_errf(err, errlen, "%s holds no results (no CSV files, nor directories of them)", path);
    return RP_NOT_A_RUN;
}

int rp_load_run(const char *path, rp_run *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    int rc = rp_check_run_dir(path, err, errlen);
    return rc != 0 ? rc : load_run(&(source){NULL, 0}, path, run, err, errlen);
}

int rp_load_run_db(sqlite3 *db, sqlite3_int64 run_id, const char *path, rp_run *run, char *err, size_t errlen)
{
    return load_run(&(source){db, run_id}, path, run, err, errlen);
}
