/* Which rows stand for each level. Every rule starts from the device's own
 * rows (not the host references measured beside them) that verified (valid
 * = 1), that measured something (not "unsupported") and that the
 * plausibility gate did not call an artifact (flags above-peak,
 * above-host-limit; energy-idle and energy-below-static leave the row's energy out); it picks from them the rows of one
 * benchmark that stress the level alone, and the level's value is the
 * median of their picojoules per byte (pj_per_byte) or per operation
 * (pj_per_op), the dynamic energy with the static power subtracted:
 *   dram       stream footprint rows whose working set (bytes_per_rep: the
 *              whole arrays, moved once a repetition) is at least 4x the
 *              last-level cache, STREAM's rule: per kernel and type the
 *              largest such point
 *   llc        stream footprint rows between 1/8 and 1/2 of the last-level
 *              cache: resident in it, above the caches below it; per kernel
 *              and type the largest such point
 *   shared     the bandwidth path kernel-local-memory (work-groups streaming
 *              tiles through local, CUDA's shared, memory: e_sr): of its
 *              local-width rows, one per vector width over one buffer, the
 *              fastest (the narrower widths pay for more accesses per
 *              byte); of an older file's size rows, the largest transfer.
 *              Its bytes are the local traffic, 510 (older files: 128) per
 *              byte of the buffer against 2 of global, whose energy the
 *              figure therefore includes but hardly depends on
 *   pcie       bandwidth copies between pinned host memory and the device
 *              (h2d-*pinned*, d2h-*pinned*) at the largest transfer size, on
 *              a device with memory of its own
 *   zero-copy  bandwidth kernel reads of host memory in place (CUDA's mapped
 *              memory, OpenCL's host and use-host-pointer buffers) at the
 *              largest transfer size
 *   atomic     atomics degree-sweep rows in global memory at the lowest
 *              contention degree, every read-modify-write operation (not the
 *              atomic read)
 *   sfu-op     sfu throughput rows of the fast versions in float (OpenCL's
 *              native_*, CUDA's PTX .approx: the special function unit),
 *              per call with the chain's multiply-add and running sum
 *   sp-op      the fma row in float at the highest throughput, per
 *              floating-point operation (an FMA counts two)
 *   dp-op      the same in double, where such rows exist
 * A level whose rows carry no energy says so with the reason of the
 * benchmark's sensor row; a level no row stands for says why. */
#define _GNU_SOURCE
#include "energy_levels/levels.h"

#include "options.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *el_basis_name(el_basis b)
{
    return b == EL_PER_BYTE ? "per-byte" : "per-op";
}

const char *el_status_name(el_status s)
{
    return s == EL_MEASURED ? "measured" : s == EL_NO_SENSOR ? "no-sensor" : "no-rows";
}

/* ---- reading a row ---- */

static double number(const char *text)
{
    double v;
    return cr_number_fault(text, &v) == NULL ? v : NAN;
}

static double param(const el_results *f, size_t i, const char *key)
{
    char v[64];
    return cr_params_get(el_field(f, i, "params"), key, v, sizeof v) ? number(v) : NAN;
}

static bool is(const el_results *f, size_t i, const char *col, const char *value)
{
    return strcmp(el_field(f, i, col), value) == 0;
}

static bool has_flag(const char *flags, const char *token)
{
    size_t n = strlen(token);
    for (const char *p = flags; *p; p += strcspn(p, ";"), p += *p == ';') {
        if (strncmp(p, token, n) == 0 && (p[n] == ';' || p[n] == '\0'))
            return true;
    }
    return false;
}

static bool usable(const el_results *f, size_t i)
{
    const char *flags = el_field(f, i, "flags");
    return strncmp(el_field(f, i, "backend"), "host", 4) != 0 && is(f, i, "valid", "1") &&
           !is(f, i, "stop", "unsupported") && !has_flag(flags, "above-peak") && !has_flag(flags, "above-host-limit");
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* ---- the rules ---- */

/* Whether row i stands for the level, and the number the rule picks by. */
typedef bool wants_fn(const el_device *d, const el_results *f, size_t i, double *key);

static bool stream_point(const el_results *f, size_t i, double *key)
{
    *key = number(el_field(f, i, "bytes_per_rep"));
    return is(f, i, "sweep", "footprint") && *key > 0;
}

static bool wants_dram(const el_device *d, const el_results *f, size_t i, double *key)
{
    return stream_point(f, i, key) && *key >= 4.0 * (double)d->llc_bytes;
}

static bool wants_llc(const el_device *d, const el_results *f, size_t i, double *key)
{
    return stream_point(f, i, key) && *key >= (double)d->llc_bytes / 8 && *key <= (double)d->llc_bytes / 2;
}

static bool wants_pcie(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    const char *v = el_field(f, i, "variant");
    *key = number(el_field(f, i, "size_bytes"));
    return is(f, i, "sweep", "size") && (starts_with(v, "h2d-") || starts_with(v, "d2h-")) &&
           strstr(v, "pinned") != NULL && strchr(v, ':') == NULL && *key > 0;
}

static bool wants_zero_copy(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    static const char *const reads[] = {"kernel-read-mapped", "kernel-read-host-ro", "kernel-read-host-rw",
                                        "kernel-read-use-ro", "kernel-read-use-rw"};
    *key = number(el_field(f, i, "size_bytes"));
    bool host = false;
    for (size_t k = 0; k < sizeof reads / sizeof *reads; ++k)
        host = host || is(f, i, "variant", reads[k]);
    return is(f, i, "sweep", "size") && host && *key > 0;
}

static bool wants_shared(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    *key = number(el_field(f, i, "size_bytes"));
    return (is(f, i, "sweep", "local-width") || is(f, i, "sweep", "size")) &&
           is(f, i, "variant", "kernel-local-memory") && *key > 0;
}

static bool wants_atomic(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    char space[16];
    *key = param(f, i, "degree");
    return is(f, i, "sweep", "degree") && !is(f, i, "variant", "read") &&
           cr_params_get(el_field(f, i, "params"), "space", space, sizeof space) && strcmp(space, "global") == 0 &&
           *key >= 1;
}

static bool wants_sfu(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    const char *v = el_field(f, i, "variant");
    *key = number(el_field(f, i, "figure"));
    return is(f, i, "sweep", "throughput") && is(f, i, "dtype", "float") &&
           (ends_with(v, "/native") || ends_with(v, "/ptx-approx"));
}

static bool fma_point(const el_results *f, size_t i, const char *dtype, double *key)
{
    *key = number(el_field(f, i, "figure"));
    return is(f, i, "dtype", dtype) && *key > 0;
}

static bool wants_sp(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    return fma_point(f, i, "float", key);
}

static bool wants_dp(const el_device *d, const el_results *f, size_t i, double *key)
{
    (void)d;
    return fma_point(f, i, "double", key);
}

/* Why a level cannot be measured on this device at all; NULL where it can. */
typedef const char *cannot_fn(const el_device *d);

static const char *cannot_without_llc(const el_device *d)
{
    return d->llc_bytes ? NULL
                        : "the last-level cache is unknown (the metadata gives neither device.cache_bytes nor "
                          "llc_bytes): no stream row can be placed in a level";
}

static const char *cannot_without_link(const el_device *d)
{
    return d->discrete == EL_YES  ? NULL
           : d->discrete == EL_NO ? "the device shares the host's memory: its copies cross no PCIe link"
                                  : "the metadata does not say whether the device has memory of its own "
                                    "(device.type, device.unified_memory)";
}

typedef enum {
    PICK_ALL,
    PICK_LARGEST,         /* the rows at the largest key */
    PICK_SMALLEST,        /* the rows at the smallest key */
    PICK_LARGEST_PER_KIND, /* per variant and type, the row at its largest key */
    PICK_LARGEST_FASTEST   /* of the rows at the largest key, the one of the highest figure */
} pick_rule;

typedef enum { KEY_WORKING_SET, KEY_TRANSFER, KEY_DEGREE, KEY_GOPS } key_kind;

static const char no_local_rows[] =
    "no kernel-local-memory row verified: the path was not selected, the device does not support it, or it failed";

typedef struct {
    const char *level;
    el_basis basis;
    const char *benchmark; /* NULL: no benchmark measures the level */
    wants_fn *wants;
    pick_rule pick;
    key_kind key;
    const char *none;    /* why no row, the benchmark's file being there; %s: the last-level cache */
    bool only_with_rows; /* left out where no row stands for it */
    cannot_fn *cannot;
} rule;

static const rule rules[] = {
    {"dram", EL_PER_BYTE, "stream", wants_dram, PICK_LARGEST_PER_KIND, KEY_WORKING_SET,
     "no stream footprint row has a working set of at least 4x the %s last-level cache", false,
     cannot_without_llc},
    {"llc", EL_PER_BYTE, "stream", wants_llc, PICK_LARGEST_PER_KIND, KEY_WORKING_SET,
     "no stream footprint row has a working set between 1/8 and 1/2 of the %s last-level cache", false,
     cannot_without_llc},
    {"shared", EL_PER_BYTE, "bandwidth", wants_shared, PICK_LARGEST_FASTEST, KEY_TRANSFER, no_local_rows, false,
     NULL},
    {"pcie", EL_PER_BYTE, "bandwidth", wants_pcie, PICK_LARGEST, KEY_TRANSFER,
     "no copy between pinned host memory and the device (h2d-*pinned*, d2h-*pinned*) verified", false,
     cannot_without_link},
    {"zero-copy", EL_PER_BYTE, "bandwidth", wants_zero_copy, PICK_LARGEST, KEY_TRANSFER,
     "no kernel read of host memory in place (kernel-read-mapped, kernel-read-host-*, kernel-read-use-*) verified",
     false, NULL},
    {"atomic", EL_PER_OP, "atomics", wants_atomic, PICK_SMALLEST, KEY_DEGREE,
     "no atomics degree-sweep row in global memory verified", false, NULL},
    {"sfu-op", EL_PER_OP, "sfu", wants_sfu, PICK_ALL, KEY_GOPS,
     "no sfu throughput row of a fast version in float (native, ptx-approx) verified", false, NULL},
    {"sp-op", EL_PER_OP, "fma", wants_sp, PICK_LARGEST, KEY_GOPS, "no fma row in float verified", false, NULL},
    {"dp-op", EL_PER_OP, "fma", wants_dp, PICK_LARGEST, KEY_GOPS, "no fma row in double verified", true, NULL},
};
#define NRULES (sizeof rules / sizeof *rules)

bool el_level_known(const char *name, el_basis *basis)
{
    for (size_t r = 0; r < NRULES; ++r) {
        if (strcmp(rules[r].level, name) == 0) {
            *basis = rules[r].basis;
            return true;
        }
    }
    return false;
}

/* ---- picking ---- */

typedef struct {
    const el_results *f;
    size_t row;
    double key;
} pick;

typedef struct {
    pick *v;
    size_t n, cap;
} picks;

static void push(picks *p, const el_results *f, size_t row, double key)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        pick *v = realloc(p->v, p->cap * sizeof *v);
        if (v == NULL) {
            fputs("energy-levels: error: out of memory\n", stderr);
            exit(1);
        }
        p->v = v;
    }
    p->v[p->n++] = (pick){f, row, key};
}

static bool same_kind(const pick *a, const pick *b)
{
    return strcmp(el_field(a->f, a->row, "variant"), el_field(b->f, b->row, "variant")) == 0 &&
           strcmp(el_field(a->f, a->row, "dtype"), el_field(b->f, b->row, "dtype")) == 0;
}

static double figure(const pick *p) { return number(el_field(p->f, p->row, "figure")); }

/* Keeps the candidates the rule picks, in their order. */
static void narrow(picks *p, pick_rule how)
{
    if (how == PICK_ALL || p->n == 0)
        return;
    double lo = p->v[0].key, hi = p->v[0].key;
    for (size_t i = 1; i < p->n; ++i) {
        lo = fmin(lo, p->v[i].key);
        hi = fmax(hi, p->v[i].key);
    }
    size_t kept = 0, fastest = SIZE_MAX;
    for (size_t i = 0; i < p->n; ++i)
        if (p->v[i].key == hi && (fastest == SIZE_MAX || figure(&p->v[i]) > figure(&p->v[fastest])))
            fastest = i;
    for (size_t i = 0; i < p->n; ++i) {
        bool keep = how == PICK_LARGEST           ? p->v[i].key == hi
                    : how == PICK_SMALLEST        ? p->v[i].key == lo
                    : how == PICK_LARGEST_FASTEST ? i == fastest
                                                  : true;
        if (how == PICK_LARGEST_PER_KIND)
            for (size_t j = 0; j < p->n && keep; ++j)
                keep = !(same_kind(&p->v[i], &p->v[j]) &&
                         (p->v[j].key > p->v[i].key || (p->v[j].key == p->v[i].key && j < i)));
        if (keep)
            p->v[kept++] = p->v[i];
    }
    p->n = kept;
}

/* ---- describing the rows used ---- */

static void append(char *buf, size_t len, const char *fmt, const char *text)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, fmt, text);
}

static void format_key(key_kind k, double v, char *out, size_t len)
{
    if (k == KEY_WORKING_SET || k == KEY_TRANSFER)
        cr_format_bytes((uint64_t)v, out, len);
    else if (k == KEY_DEGREE)
        snprintf(out, len, "%.0f", v);
    else
        snprintf(out, len, "%.4g Gop/s", v);
}

/* "stream-cuda.csv: copy/float, triad/double at working sets 1 GiB to 1.5 GiB" */
static void describe(const rule *r, const picks *p, char *out, size_t len)
{
    out[0] = '\0';
    for (size_t i = 0; i < p->n; ++i) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j)
            seen = p->v[j].f == p->v[i].f;
        if (!seen)
            append(out, len, i ? "+%s" : "%s", p->v[i].f->name);
    }
    append(out, len, "%s", ":");
    size_t shown = 0;
    for (size_t i = 0; i < p->n; ++i) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j)
            seen = same_kind(&p->v[i], &p->v[j]);
        if (seen)
            continue;
        if (shown++ == 8) {
            append(out, len, "%s", " ...");
            break;
        }
        const char *dtype = el_field(p->v[i].f, p->v[i].row, "dtype");
        append(out, len, shown > 1 ? ", %s" : " %s", el_field(p->v[i].f, p->v[i].row, "variant"));
        if (*dtype)
            append(out, len, "/%s", dtype);
    }
    double lo = p->v[0].key, hi = p->v[0].key;
    for (size_t i = 1; i < p->n; ++i) {
        lo = fmin(lo, p->v[i].key);
        hi = fmax(hi, p->v[i].key);
    }
    static const char *const words[] = {[KEY_WORKING_SET] = "working set", [KEY_TRANSFER] = "transfers of",
                                        [KEY_DEGREE] = "degree", [KEY_GOPS] = "at"};
    char a[32], b[32];
    format_key(r->key, lo, a, sizeof a);
    format_key(r->key, hi, b, sizeof b);
    append(out, len, "; %s", words[r->key]);
    append(out, len, " %s", a);
    if (hi != lo)
        append(out, len, " to %s", b);
}

/* ---- one level ---- */

static bool any_file(const el_device *d, const char *benchmark)
{
    for (size_t i = 0; i < d->nfiles; ++i)
        if (strcmp(d->files[i].benchmark, benchmark) == 0)
            return true;
    return false;
}

/* Energy the device idled through, or below the static power, is the
 * sensor's window, not a cost: a row with a sensor flagged so has its
 * energy left out (empty; negative in files written before that). */
static bool energy_left_out(const el_results *f, size_t row)
{
    const char *flags = el_field(f, row, "flags"), *sensor = el_field(f, row, "energy_sensor");
    return *sensor && strcmp(sensor, "none") != 0 &&
           (has_flag(flags, "energy-idle") || has_flag(flags, "energy-below-static"));
}

static void measure(const rule *r, const picks *p, el_level *out)
{
    const char *col = r->basis == EL_PER_BYTE ? "pj_per_byte" : "pj_per_op";
    double *v = malloc(p->n * sizeof *v);
    if (v == NULL) {
        fputs("energy-levels: error: out of memory\n", stderr);
        exit(1);
    }
    size_t n = 0, left_out = 0;
    for (size_t i = 0; i < p->n; ++i) {
        if (energy_left_out(p->v[i].f, p->v[i].row)) {
            left_out++;
            continue;
        }
        double pj = number(el_field(p->v[i].f, p->v[i].row, col));
        if (!isfinite(pj))
            continue;
        v[n++] = pj;
        const char *sensor = el_field(p->v[i].f, p->v[i].row, "energy_sensor");
        if (*sensor && strstr(out->sensor, sensor) == NULL)
            append(out->sensor, sizeof out->sensor, out->sensor[0] ? ";%s" : "%s", sensor);
    }
    describe(r, p, out->source, sizeof out->source);
    out->rows = n;
    if (n > 0) {
        out->status = EL_MEASURED;
        cr_summary spread;
        cr_summarize(v, n, &spread);
        out->pj = spread.median;
        if (!(out->pj > 0))
            snprintf(out->reason, sizeof out->reason,
                     "the dynamic energy is not above zero: the static power subtracted is as large as what the "
                     "rows drew");
        else if (left_out)
            snprintf(out->reason, sizeof out->reason,
                     "%zu of the %zu rows left out: their energy was the idle device's (energy-idle) or below the "
                     "static power (energy-below-static)",
                     left_out, p->n);
        else if (n < p->n)
            snprintf(out->reason, sizeof out->reason, "%zu of the %zu rows carry no energy", p->n - n, p->n);
    } else if (left_out) {
        out->status = EL_NO_SENSOR;
        snprintf(out->reason, sizeof out->reason,
                 "the energy of every row was the idle device's (energy-idle) or below the static power "
                 "(energy-below-static): the sensor did not resolve the points");
    } else {
        out->status = EL_NO_SENSOR;
        const char *why = NULL;
        for (size_t i = 0; i < p->n && why == NULL; ++i)
            why = p->v[i].f->sensor_reason[0] ? p->v[i].f->sensor_reason : NULL;
        if (why)
            snprintf(out->reason, sizeof out->reason, "%s", why);
        else if (cr_csv_column(&p->v[0].f->table, col) < 0)
            snprintf(out->reason, sizeof out->reason, "%s has no energy columns: it was written before energy was measured",
                     p->v[0].f->name);
        else
            snprintf(out->reason, sizeof out->reason, "the rows carry no energy and %s has no sensor row saying why",
                     p->v[0].f->name);
    }
    free(v);
}

/* Fills out for rule r; false where the level is left out. */
static bool level(const el_device *d, const rule *r, el_level *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->level, sizeof out->level, "%s", r->level);
    out->basis = r->basis;
    out->status = EL_NO_ROWS;
    out->pj = out->thesis_pj = NAN;
    const char *cannot = r->cannot ? r->cannot(d) : NULL;
    if (cannot) {
        snprintf(out->reason, sizeof out->reason, "%s", cannot);
        return !r->only_with_rows;
    }
    if (!any_file(d, r->benchmark)) {
        snprintf(out->reason, sizeof out->reason, "no %s-*.csv here: the %s benchmark did not run on this device",
                 r->benchmark, r->benchmark);
        return !r->only_with_rows;
    }
    picks p = {0};
    for (size_t k = 0; k < d->nfiles; ++k) {
        const el_results *f = &d->files[k];
        if (strcmp(f->benchmark, r->benchmark) != 0)
            continue;
        for (size_t i = 0; i < f->table.nrows; ++i) {
            double key;
            if (usable(f, i) && r->wants(d, f, i, &key) && isfinite(key))
                push(&p, f, i, key);
        }
    }
    narrow(&p, r->pick);
    if (p.n == 0) {
        char llc[32];
        cr_format_bytes(d->llc_bytes, llc, sizeof llc);
        snprintf(out->reason, sizeof out->reason, r->none, llc);
    } else {
        measure(r, &p, out);
    }
    free(p.v);
    return p.n > 0 || !r->only_with_rows;
}

size_t el_levels_compute(const el_device *d, el_level *out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < NRULES && n < max; ++r)
        if (level(d, &rules[r], &out[n]))
            n++;
    return n;
}
