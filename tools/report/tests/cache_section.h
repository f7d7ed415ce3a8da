/* A report section built by one of the cache tables' builders
 * (cache_detect.c, cache_model.c) from a small CSV text, the cells it
 * holds, and its release: the cache tables' tests differ only in their
 * rows and the cells they expect. Include after cmocka.h. */
#ifndef CR_REPORT_CACHE_SECTION_H
#define CR_REPORT_CACHE_SECTION_H

#include "report/model.h"

#include <string.h>

/* The file name the builders see; it only labels their notes. */
#define CACHE_SECTION_FILE "cache-opencl.csv"

typedef void (*cache_section_builder)(rp_section *sec, const char *file, const cr_csv_table *t);

typedef struct {
    cr_csv_table csv;
    rp_section sec;
} cache_section;

/* s holds what build makes of csv, or the test fails. */
static inline void cache_section_build(cache_section *s, const char *csv, cache_section_builder build)
{
    char err[256];
    assert_int_equal(cr_csv_parse(&s->csv, CACHE_SECTION_FILE, csv, strlen(csv), &cr_schema_any, err, sizeof err),
                     0);
    memset(&s->sec, 0, sizeof s->sec);
    build(&s->sec, CACHE_SECTION_FILE, &s->csv);
}

/* The table with this id, or the test fails. */
static inline const rp_table *cache_section_table(const cache_section *s, const char *id)
{
    const rp_table *t = rp_find_table(&s->sec, id);
    assert_non_null(t);
    return t;
}

/* The cell of row `key` under column `col`, or the test fails. */
static inline const rp_cell *cache_cell(const rp_table *t, const char *key, const char *col)
{
    const rp_row *r = rp_find_row(t, key);
    assert_non_null(r);
    int c = rp_col_index(t, col);
    assert_true(c >= 0);
    return &r->cells[c];
}

/* A cell the table must hold, as text. */
typedef struct {
    const char *key, *col, *text;
} cache_cell_want;

/* s holds what build makes of csv: table id with `rows` rows, among them
 * the n cells of want, and a single note, `note`; or the test fails. */
static inline const rp_table *cache_section_check(cache_section *s, const char *csv, cache_section_builder build,
                                                  const char *id, size_t rows, const cache_cell_want *want, size_t n,
                                                  const char *note)
{
    cache_section_build(s, csv, build);
    const rp_table *t = cache_section_table(s, id);
    assert_int_equal(t->nrows, rows);
    for (size_t i = 0; i < n; ++i)
        assert_string_equal(cache_cell(t, want[i].key, want[i].col)->text, want[i].text);
    assert_int_equal(s->sec.notes.n, 1);
    assert_string_equal(s->sec.notes.v[0], note);
    return t;
}

static inline void cache_section_free(cache_section *s)
{
    for (size_t i = 0; i < s->sec.ntables; ++i)
        rp_table_free(&s->sec.tables[i]);
    rp_strings_free(&s->sec.notes);
    cr_csv_free(&s->csv);
}

#endif
