/* The shared reader against mutants of real files: every file of the
 * fixture run and Li's reference table, each mutant parsed in memory (one
 * in sixteen through a file) as what its name says it is, or as a CSV of
 * no known kind. The reader accepts it or refuses it with one line, never
 * crashes, and what it accepts holds only what the schema allows. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "shared/result_reader.h"
#include "shared/tests/fuzz.h"
#include "tests/test_main.h"

#include <math.h>
#include <unistd.h>

#define NFILES (FUZZ_NFILES + 1)

typedef struct {
    char path[512];
    const char *name; /* as the messages name it */
    const cr_csv_schema *schema;
    fuzz_buf bytes;
} fixture;

static fixture fixtures[NFILES];

static void load_fixtures(void)
{
    for (size_t i = 0; i < NFILES; ++i) {
        fixture *x = &fixtures[i];
        if (i < FUZZ_NFILES) {
            snprintf(x->path, sizeof x->path, "%s/%s", FUZZ_DATA, fuzz_run_files[i]);
            x->schema = cr_schema_for(fuzz_run_files[i]);
        } else {
            snprintf(x->path, sizeof x->path, "%s/results/reference/li2016-table3.2.csv", CR_SOURCE_DIR);
            x->schema = &cr_schema_reference;
        }
        x->name = strrchr(x->path, '/') + 1;
        x->bytes = fuzz_read(x->path);
    }
}

/* What was accepted holds what its schema says: each field of a known
 * column passes its check again, and every number reads as a finite one. */
static void expect_schema_holds(const cr_csv_table *t, const cr_csv_schema *s, const fuzz_run *f, size_t i)
{
    for (size_t c = 0; c < t->ncols; ++c) {
        const cr_column_spec *spec = cr_schema_column(s, t->names[c]);
        for (size_t r = 0; spec && r < t->nrows; ++r) {
            const char *v = t->rows[r].fields[c];
            double x;
            char err[512];
            if (cr_field_fault(spec, v) != NULL ||
                ((spec->kind == CR_NUMBER || spec->kind == CR_NONNEG) &&
                 (cr_csv_number(t, r, (int)c, true, &x, err, sizeof err) != 0 || isinf(x))))
                fail_msg("seed %llu, mutant %zu: %s:%u: column '%s': '%s' was accepted", (unsigned long long)f->seed,
                         i, t->path, t->rows[r].line, t->names[c], v);
        }
    }
    /* Every column of the schema, but one added later may be absent. */
    size_t absent = 0;
    for (size_t c = 0; c < s->ncols; ++c)
        absent += s->cols[c].presence == CR_ADDED_LATER && cr_csv_column(t, s->cols[c].name) < 0;
    if (s->ncols > 0 && !s->open && t->ncols + absent != s->ncols)
        fail_msg("seed %llu, mutant %zu: %s: %zu columns accepted, the schema has %zu (%zu added later absent)",
                 (unsigned long long)f->seed, i, t->path, t->ncols, s->ncols, absent);
}

/* Through a file: cr_csv_load's own reading, on a sixteenth of them. */
static int load_through_file(const fuzz_buf *m, const char *name, const cr_csv_schema *s, cr_csv_table *t, char *err,
                             size_t errlen)
{
    char dir[] = "/tmp/crossroof-fuzz-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fuzz_write(path, m);
    int rc = cr_csv_load(t, path, s, err, errlen);
    unlink(path);
    rmdir(dir);
    return rc;
}

static void test_real_files_read(void **state)
{
    (void)state;
    for (size_t i = 0; i < NFILES; ++i) {
        cr_csv_table t;
        char err[1024] = "";
        if (cr_csv_load(&t, fixtures[i].path, fixtures[i].schema, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(t.nrows > 0);
        cr_csv_free(&t);
    }
}

/* A mutant of one fixture, read in memory or, a sixteenth of the time,
 * through a file, with its own schema or, an eighth of the time, as a CSV
 * of no known kind. */
static int read_mutant(void *ctx, fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen,
                       const char **what)
{
    (void)ctx;
    const fixture *x = &fixtures[fuzz_below(r, NFILES)];
    fuzz_buf m = fuzz_mutant(r, &x->bytes);
    const cr_csv_schema *s = fuzz_below(r, 8) ? x->schema : &cr_schema_any;
    cr_csv_table t;
    int rc = fuzz_below(r, 16) ? cr_csv_parse(&t, x->name, m.bytes, m.len, s, err, errlen)
                               : load_through_file(&m, x->name, s, &t, err, errlen);
    if (rc == 0) {
        expect_schema_holds(&t, s, f, i);
        cr_csv_free(&t);
    }
    *what = x->name;
    free(m.bytes);
    return rc;
}

static void test_mutants_are_read_or_refused(void **state)
{
    (void)state;
    fuzz_drive("result reader", 12000, 10, read_mutant, NULL);
}

static int setup(void **state)
{
    (void)state;
    load_fixtures();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < NFILES; ++i)
        free(fixtures[i].bytes.bytes);
    return 0;
}

TEST_MAIN(setup, teardown, test_real_files_read, test_mutants_are_read_or_refused)
