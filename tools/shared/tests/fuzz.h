/* Seeded mutations of real result files, for the fuzz tests of every tool
 * that reads a results directory: byte flips, truncation at any point,
 * lines duplicated, deleted or swapped, huge lines inserted, columns
 * swapped, fields replaced by the values a reader must refuse. Each mutant
 * is fed to the reader in-process; under the -san build of the unit tests
 * ASan and UBSan watch it.
 *
 * The fixtures are real files: tools/shared/tests/data/run is a run of
 * every benchmark's OpenCL executable (--quick, on PoCL), trimmed to a few
 * KB a file, with xgraph's output for it (see data/README.md). Committed
 * rather than made at test time, so that the unit tests need no device
 * and every machine fuzzes the same bytes.
 *
 * CR_FUZZ_SEED (default 16) and CR_FUZZ_ITERS pick the mutants; mutant i
 * depends only on the seed and i, so a failure named "seed S, mutant i" is
 * found again with the same seed. CR_FUZZ_SECONDS caps a test's time (the
 * mutants after the cap are skipped, and the count says so). Include after
 * cmocka.h. */
#ifndef CR_FUZZ_H
#define CR_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/scratch_dir.h"

/* Unit tests run from the source tree's root (the Makefile runs them
 * there); CR_SOURCE_DIR, where the build defines it, says so anywhere. */
#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif
#define FUZZ_DATA CR_SOURCE_DIR "/tools/shared/tests/data/run"

/* The run's files, relative to FUZZ_DATA. */
static const char *const fuzz_run_files[] = {
    "run-log.csv",
    "opencl-0-cpu/atomics-opencl.csv",
    "opencl-0-cpu/atomics-opencl.meta.csv",
    "opencl-0-cpu/bandwidth-opencl.csv",
    "opencl-0-cpu/bandwidth-opencl.meta.csv",
    "opencl-0-cpu/fma-opencl.csv",
    "opencl-0-cpu/fma-opencl.meta.csv",
    "opencl-0-cpu/latency-opencl.csv",
    "opencl-0-cpu/latency-opencl.meta.csv",
    "opencl-0-cpu/regspill-opencl.csv",
    "opencl-0-cpu/regspill-opencl.meta.csv",
    "opencl-0-cpu/sfu-opencl.csv",
    "opencl-0-cpu/sfu-opencl.meta.csv",
    "opencl-0-cpu/sfu-opencl.table.csv",
    "opencl-0-cpu/stream-opencl.csv",
    "opencl-0-cpu/stream-opencl.meta.csv",
    "opencl-0-cpu/xgraph-app.csv",
    "opencl-0-cpu/xgraph-params.csv",
};
#define FUZZ_NFILES (sizeof fuzz_run_files / sizeof *fuzz_run_files)

typedef struct {
    char *bytes;
    size_t len;
} fuzz_buf;

/* The whole of a file; fails the test when it cannot be read. */
static inline fuzz_buf fuzz_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot read %s (the unit tests run from the source tree's root)", path);
    fuzz_buf b = {NULL, 0};
    size_t cap = 0;
    for (;;) {
        if (b.len + 4096 > cap) {
            cap = cap ? 2 * cap : 65536;
            b.bytes = realloc(b.bytes, cap);
            assert_non_null(b.bytes);
        }
        size_t got = fread(b.bytes + b.len, 1, cap - b.len - 1, f);
        b.len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    b.bytes[b.len] = '\0';
    return b;
}

static inline void fuzz_write(const char *path, const fuzz_buf *b)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->bytes, 1, b->len, f), b->len);
    assert_int_equal(fclose(f), 0);
}

/* ---- the random source: splitmix64, one stream per mutant ---- */

typedef struct {
    uint64_t s;
} fuzz_rng;

static inline uint64_t fuzz_next(fuzz_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A number in [0, n), n > 0. */
static inline size_t fuzz_below(fuzz_rng *r, size_t n)
{
    return (size_t)(fuzz_next(r) % n);
}

static inline fuzz_rng fuzz_rng_for(uint64_t seed, uint64_t mutant)
{
    fuzz_rng r = {seed * 0x2545f4914f6cdd1du ^ mutant};
    fuzz_next(&r);
    return r;
}

/* ---- editing a buffer ---- */

/* Replaces len bytes at at by the n bytes of with. */
static inline void fuzz_splice(fuzz_buf *b, size_t at, size_t len, const char *with, size_t n)
{
    char *out = malloc(b->len - len + n + 1);
    assert_non_null(out);
    memcpy(out, b->bytes, at);
    memcpy(out + at, with, n);
    memcpy(out + at + n, b->bytes + at + len, b->len - at - len);
    b->len = b->len - len + n;
    out[b->len] = '\0';
    free(b->bytes);
    b->bytes = out;
}

/* The start and length (its end included) of a random line. */
static inline void fuzz_line(fuzz_rng *r, const fuzz_buf *b, size_t *start, size_t *len)
{
    size_t at = b->len ? fuzz_below(r, b->len) : 0;
    while (at > 0 && b->bytes[at - 1] != '\n')
        --at;
    size_t end = at;
    while (end < b->len && b->bytes[end] != '\n')
        ++end;
    *start = at;
    *len = end - at + (end < b->len);
}

/* Swaps fields i and j on every line, fields as split at commas (a quoted
 * comma splits too: another way to break a file). */
static inline void fuzz_swap_columns(fuzz_buf *b, size_t i, size_t j)
{
    fuzz_buf out = {malloc(b->len + 1), 0};
    assert_non_null(out.bytes);
    for (size_t p = 0; p < b->len;) {
        size_t end = p;
        while (end < b->len && b->bytes[end] != '\n')
            ++end;
        size_t starts[64], ends[64], n = 0;
        for (size_t q = p; n < 64;) {
            starts[n] = q;
            while (q < end && b->bytes[q] != ',')
                ++q;
            ends[n++] = q;
            if (q >= end)
                break;
            ++q;
        }
        for (size_t f = 0; f < n; ++f) {
            size_t k = f == i ? j : f == j ? i : f;
            if (k >= n)
                k = f;
            if (f)
                out.bytes[out.len++] = ',';
            memcpy(out.bytes + out.len, b->bytes + starts[k], ends[k] - starts[k]);
            out.len += ends[k] - starts[k];
        }
        /* What did not fit in 64 fields stays as it was. */
        if (ends[n - 1] < end) {
            memcpy(out.bytes + out.len, b->bytes + ends[n - 1], end - ends[n - 1]);
            out.len += end - ends[n - 1];
        }
        if (end < b->len)
            out.bytes[out.len++] = '\n';
        p = end + 1;
    }
    out.bytes[out.len] = '\0';
    free(b->bytes);
    *b = out;
}

/* Values a field must not hold, and some it may. */
static const char *const fuzz_values[] = {
    "nan", "NaN", "inf", "-inf", "1e400", "-1e400", "1e-400", "18446744073709551616", "18446744073709551615",
    "-1", "-0", "0", "1", "2", "256", "0x10", " 1", "1 ", "1,5", "\"", "\"\"", "", "a\"b", "\"x\ny\"",
    "<script>alert(1)</script>", "\xc3\xa9", "\xff", "\xed\xa0\x80", "\r", "#", "key", "value", "benchmark",
};

/* One mutation of b. */
static inline void fuzz_mutate_once(fuzz_rng *r, fuzz_buf *b)
{
    size_t start, len;
    switch (fuzz_below(r, 10)) {
    case 0: /* flip a byte, or a bit of one */
        if (b->len) {
            size_t at = fuzz_below(r, b->len);
            b->bytes[at] = fuzz_below(r, 2) ? (char)fuzz_next(r) : (char)(b->bytes[at] ^ (1 << fuzz_below(r, 8)));
        }
        break;
    case 1: /* cut short anywhere */
        b->len = b->len ? fuzz_below(r, b->len + 1) : 0;
        b->bytes[b->len] = '\0';
        break;
    case 2: /* a line twice */
        fuzz_line(r, b, &start, &len);
        fuzz_splice(b, start, 0, b->bytes + start, len);
        break;
    case 3: /* a line gone */
        fuzz_line(r, b, &start, &len);
        fuzz_splice(b, start, len, "", 0);
        break;
    case 4: { /* a huge line: around the line bound, or past it */
        size_t n = fuzz_below(r, 4) ? 65530 + fuzz_below(r, 12) : 66000 + fuzz_below(r, 60000);
        char *huge = malloc(n + 1);
        assert_non_null(huge);
        char fill = fuzz_below(r, 2) ? ',' : 'x';
        memset(huge, fill, n);
        huge[n] = '\n';
        fuzz_line(r, b, &start, &len);
        fuzz_splice(b, start, 0, huge, n + 1);
        free(huge);
        break;
    }
    case 5: /* two columns swapped */
        fuzz_swap_columns(b, fuzz_below(r, 30), fuzz_below(r, 30));
        break;
    case 6: { /* a field replaced */
        size_t at = b->len ? fuzz_below(r, b->len) : 0, end = at;
        while (at > 0 && b->bytes[at - 1] != ',' && b->bytes[at - 1] != '\n')
            --at;
        while (end < b->len && b->bytes[end] != ',' && b->bytes[end] != '\n')
            ++end;
        const char *v = fuzz_values[fuzz_below(r, sizeof fuzz_values / sizeof *fuzz_values)];
        fuzz_splice(b, at, end - at, v, strlen(v));
        break;
    }
    case 7: { /* random bytes inserted */
        char junk[16];
        size_t n = 1 + fuzz_below(r, sizeof junk);
        for (size_t i = 0; i < n; ++i)
            junk[i] = (char)fuzz_next(r);
        fuzz_splice(b, b->len ? fuzz_below(r, b->len) : 0, 0, junk, n);
        break;
    }
    case 8: { /* two lines swapped */
        size_t s2, l2;
        fuzz_line(r, b, &start, &len);
        fuzz_line(r, b, &s2, &l2);
        if (s2 < start) {
            size_t t = s2;
            s2 = start, start = t;
            t = l2;
            l2 = len, len = t;
        }
        if (start + len <= s2) {
            char *first = malloc(len + 1), *second = malloc(l2 + 1);
            assert_non_null(first);
            assert_non_null(second);
            memcpy(first, b->bytes + start, len);
            memcpy(second, b->bytes + s2, l2);
            fuzz_splice(b, s2, l2, first, len);
            fuzz_splice(b, start, len, second, l2);
            free(first);
            free(second);
        }
        break;
    }
    default: /* a byte of CSV syntax inserted: a quote, a comma, a line break */
        fuzz_splice(b, b->len ? fuzz_below(r, b->len) : 0, 0, &"\",\n\r"[fuzz_below(r, 4)], 1);
        break;
    }
}

/* A mutant of the file: one to four mutations. */
static inline fuzz_buf fuzz_mutant(fuzz_rng *r, const fuzz_buf *file)
{
    fuzz_buf b = {malloc(file->len + 1), file->len};
    assert_non_null(b.bytes);
    memcpy(b.bytes, file->bytes, file->len + 1);
    for (size_t k = 1 + fuzz_below(r, 4); k > 0; --k)
        fuzz_mutate_once(r, &b);
    return b;
}

/* ---- a copy of the run, its files mutated in place ---- */

typedef struct {
    char root[64];  /* a fresh temporary directory */
    char run[128];  /* root/run: the copy of FUZZ_DATA */
    const char *const *files; /* the files to mutate, relative to run */
    size_t nfiles;
    fuzz_buf *originals;
    size_t changed[2], nchanged; /* by the last fuzz_plant */
} fuzz_copy;

static inline void fuzz_copy_path(const fuzz_copy *c, size_t k, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", c->run, c->files[k]);
}

/* Copies the real run; 0, or -1 when it cannot. */
static inline int fuzz_copy_make(fuzz_copy *c, const char *const *files, size_t nfiles)
{
    memset(c, 0, sizeof *c);
    if (cr_scratch_make(c->root, sizeof c->root, "fuzz") != 0)
        return -1;
    snprintf(c->run, sizeof c->run, "%s/run", c->root);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp -R '%s' '%s'", FUZZ_DATA, c->run);
    if (system(cmd) != 0)
        return -1;
    c->files = files;
    c->nfiles = nfiles;
    c->originals = calloc(nfiles, sizeof *c->originals);
    for (size_t k = 0; c->originals && k < nfiles; ++k) {
        char path[512];
        fuzz_copy_path(c, k, path, sizeof path);
        c->originals[k] = fuzz_read(path);
    }
    return c->originals ? 0 : -1;
}

static inline int fuzz_copy_free(fuzz_copy *c)
{
    for (size_t k = 0; c->originals && k < c->nfiles; ++k)
        free(c->originals[k].bytes);
    free(c->originals);
    return cr_scratch_remove(c->root);
}

/* Mutates one or two of the files in place. */
static inline void fuzz_plant(fuzz_copy *c, fuzz_rng *r)
{
    c->nchanged = 1 + fuzz_below(r, 2);
    for (size_t i = 0; i < c->nchanged; ++i) {
        c->changed[i] = fuzz_below(r, c->nfiles);
        fuzz_buf m = fuzz_mutant(r, &c->originals[c->changed[i]]);
        char path[512];
        fuzz_copy_path(c, c->changed[i], path, sizeof path);
        fuzz_write(path, &m);
        free(m.bytes);
    }
}

/* Puts back what fuzz_plant changed. */
static inline void fuzz_restore(fuzz_copy *c)
{
    for (size_t i = 0; i < c->nchanged; ++i) {
        char path[512];
        fuzz_copy_path(c, c->changed[i], path, sizeof path);
        fuzz_write(path, &c->originals[c->changed[i]]);
    }
}

/* ---- the loop ---- */

typedef struct {
    uint64_t seed;
    size_t iters;
    double seconds; /* the cap */
    double started;
    size_t done;     /* mutants tried */
    size_t accepted; /* of them, read without complaint */
} fuzz_run;

static inline double fuzz_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline size_t fuzz_env(const char *name, size_t fallback)
{
    const char *v = getenv(name);
    return v && *v ? (size_t)strtoull(v, NULL, 0) : fallback;
}

/* The run's settings; says them first, so that a crash can be replayed. */
static inline fuzz_run fuzz_start(const char *what, size_t iters, double seconds)
{
    fuzz_run f = {.seed = fuzz_env("CR_FUZZ_SEED", 16), .iters = fuzz_env("CR_FUZZ_ITERS", iters),
                  .seconds = (double)fuzz_env("CR_FUZZ_SECONDS", (size_t)seconds)};
    printf("%s: seed %llu (CR_FUZZ_SEED), %zu mutants (CR_FUZZ_ITERS), at most %.0f s (CR_FUZZ_SECONDS)\n", what,
           (unsigned long long)f.seed, f.iters, f.seconds);
    fflush(stdout);
    f.started = fuzz_now();
    return f;
}

/* Whether mutant i is to be tried. */
static inline bool fuzz_more(const fuzz_run *f, size_t i)
{
    if (i >= f->iters || fuzz_now() - f->started > f->seconds)
        return false;
    if (getenv("CR_FUZZ_VERBOSE"))
        fprintf(stderr, "mutant %zu\n", i);
    return true;
}

static inline void fuzz_report(const char *what, const fuzz_run *f)
{
    printf("%s: seed %llu, %zu of %zu mutants in %.2f s (%zu accepted, %zu refused)%s\n", what,
           (unsigned long long)f->seed, f->done, f->iters, fuzz_now() - f->started, f->accepted, f->done - f->accepted,
           f->done < f->iters ? ": stopped by the time cap" : "");
}

/* A refusal is one non-empty line. */
static inline void fuzz_expect_refusal(const fuzz_run *f, size_t i, const char *what, const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n') != NULL)
        fail_msg("seed %llu, mutant %zu (%s): refused with the message '%s' (want one non-empty line)",
                 (unsigned long long)f->seed, i, what, err);
}

/* One mutant, made from r and read: 0 when it was read (and what was read
 * passed the reader's own checks), else refused with err; what names the
 * file the refusal is about. */
typedef int (*fuzz_reading)(void *ctx, fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen,
                            const char **what);

/* The loop every reader's fuzz test runs: mutants until the count or the
 * time cap, each read or refused in one line, and both kinds seen. */
static inline void fuzz_drive(const char *what, size_t iters, double seconds, fuzz_reading read, void *ctx)
{
    fuzz_run f = fuzz_start(what, iters, seconds);
    for (size_t i = 0; fuzz_more(&f, i); ++i, ++f.done) {
        fuzz_rng r = fuzz_rng_for(f.seed, i);
        char err[1024] = "";
        const char *file = "";
        if (read(ctx, &r, &f, i, err, sizeof err, &file) == 0)
            ++f.accepted;
        else
            fuzz_expect_refusal(&f, i, file, err);
    }
    fuzz_report(what, &f);
    /* The mutants reach both sides: some harmless, most not. */
    assert_true(f.accepted > 0 && f.accepted < f.done);
}

/* A reader of the copy's run directory: 0 read, else refused with err. */
typedef int (*fuzz_run_reading)(fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen);

typedef struct {
    fuzz_copy *copy;
    fuzz_run_reading read;
} fuzz_planted;

static inline int fuzz_read_planted(void *ctx, fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen,
                                    const char **what)
{
    fuzz_planted *p = ctx;
    fuzz_plant(p->copy, r);
    int rc = p->read(r, f, i, err, errlen);
    *what = p->copy->files[p->copy->changed[0]];
    fuzz_restore(p->copy);
    return rc;
}

/* fuzz_drive for a reader of a whole run: each mutant is one or two of the
 * copy's files mutated in place, read, and put back. */
static inline void fuzz_drive_planted(const char *what, size_t iters, double seconds, fuzz_copy *copy,
                                      fuzz_run_reading read)
{
    fuzz_planted p = {copy, read};
    fuzz_drive(what, iters, seconds, fuzz_read_planted, &p);
}

#endif
