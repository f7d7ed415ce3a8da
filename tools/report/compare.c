/* Two runs side by side, read through the results database: the devices
 * paired, every headline number present in both with the ratio B / A. */
#define _GNU_SOURCE
#include "report/compare.h"

#include "db/import.h"
#include "db/schema.h"
#include "db/tables.h"
#include "error.h"
#include "report/common_numbers.h"
#include "report/extract.h"
#include "report/registry.h"
#include "report/render_text.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The database names a run by its absolute path; a message about it names
 * it as it was given, the way rp_load_run() does (no trailing '/'). */
static void as_given(const char *why, const char *abs, const char *dir, char *err, size_t errlen)
{
    size_t n = strlen(abs), given = strlen(dir);
    while (given > 1 && dir[given - 1] == '/')
        --given;
    if (strncmp(why, abs, n) == 0 && (why[n] == '/' || why[n] == ':' || why[n] == '\0'))
        cr_errf(err, errlen, "%.*s%s", (int)given, dir, why + n);
    else
        cr_errf(err, errlen, "%s", why);
}

static int import_and_load(sqlite3 *db, const char *dir, rp_run *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    int rc = rp_check_run_dir(dir, err, errlen);
    if (rc != 0)
        return rc;
    char abs[PATH_MAX], why[2048];
    db_import_summary sum;
    sqlite3_int64 run_id;
    if (realpath(dir, abs) == NULL) {
        cr_errf(err, errlen, "%s: cannot resolve the path", dir);
        return RP_BAD_DATA;
    }
    if (db_import(db, &dir, 1, &sum, why, sizeof why) != 0 || db_find_run(db, abs, &run_id, why, sizeof why) != 0) {
        as_given(why, abs, dir, err, errlen);
        return RP_BAD_DATA;
    }
    rc = rp_load_run_db(db, run_id, dir, run, err, errlen);
    /* Named by the directory itself: "." or "../b" name no run. */
    const char *last = strrchr(abs, '/');
    if (rc == 0 && last && last[1])
        snprintf(run->name, sizeof run->name, "%s", last + 1);
    return rc;
}

int rp_load_compared(const char *dir_a, const char *dir_b, rp_run *a, rp_run *b, char *err, size_t errlen)
{
    sqlite3 *db;
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    if (db_open_memory(&db, err, errlen) != 0)
        return RP_BAD_DATA;
    int rc = import_and_load(db, dir_a, a, err, errlen);
    if (rc == 0 && (rc = import_and_load(db, dir_b, b, err, errlen)) != 0)
        rp_run_free(a);
    sqlite3_close(db);
    return rc;
}

double rp_ratio(double a, double b)
{
    if (!isfinite(a) || !isfinite(b) || a == 0)
        return NAN;
    return b / a;
}

/* "opencl-0" of "opencl-0-pthread-...", "cuda" of "cuda": the backend and
 * the index run_all.sh put first in a device directory's name. */
static void backend_index(const char *dir, char *out, size_t len)
{
    snprintf(out, len, "%s", dir);
    char *dash = strchr(out, '-');
    if (dash == NULL)
        return;
    char *second = strchr(dash + 1, '-');
    if (second)
        *second = '\0';
}

size_t rp_pair_devices(const rp_run *a, const rp_run *b, rp_pair *pairs, size_t max)
{
    size_t n = 0;
    bool used_a[a->ndevices + 1], used_b[b->ndevices + 1];
    memset(used_a, 0, sizeof used_a);
    memset(used_b, 0, sizeof used_b);
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < a->ndevices; ++i) {
            for (size_t j = 0; j < b->ndevices && !used_a[i]; ++j) {
                if (used_b[j])
                    continue;
                char ka[256], kb[256];
                if (pass == 0) {
                    snprintf(ka, sizeof ka, "%s", a->devices[i].dir);
                    snprintf(kb, sizeof kb, "%s", b->devices[j].dir);
                } else {
                    backend_index(a->devices[i].dir, ka, sizeof ka);
                    backend_index(b->devices[j].dir, kb, sizeof kb);
                }
                if (strcmp(ka, kb) != 0 || n == max)
                    continue;
                used_a[i] = used_b[j] = true;
                pairs[n] = (rp_pair){&a->devices[i], &b->devices[j], ""};
                snprintf(pairs[n].how, sizeof pairs[n].how, "%s",
                         pass == 0 ? "the same directory" : "the same backend and index");
                ++n;
            }
        }
    }
    size_t left_a = 0, left_b = 0, ia = 0, ib = 0;
    for (size_t i = 0; i < a->ndevices; ++i)
        if (!used_a[i])
            ++left_a, ia = i;
    for (size_t j = 0; j < b->ndevices; ++j)
        if (!used_b[j])
            ++left_b, ib = j;
    if (left_a == 1 && left_b == 1 && n < max) {
        pairs[n] = (rp_pair){&a->devices[ia], &b->devices[ib], "the only devices left"};
        ++n;
    }
    /* In A's order of devices, as its report shows them. */
    for (size_t i = 1; i < n; ++i)
        for (size_t j = i; j > 0 && pairs[j].a < pairs[j - 1].a; --j) {
            rp_pair t = pairs[j];
            pairs[j] = pairs[j - 1];
            pairs[j - 1] = t;
        }
    return n;
}


/* One number of both runs: row, quantity, A, B and B / A. */
static void compare_line(FILE *f, const rp_table *ta, const rp_row *ra, int c, const rp_cell *b)
{
    fputs("| ", f);
    rp_md_text(f, ra->key);
    fputs(" | ", f);
    rp_md_text(f, ta->cols[c]);
    fputs(" | ", f);
    rp_md_text(f, ra->cells[c].text);
    fputs(" | ", f);
    rp_md_text(f, b->text);
    fputs(" | ", f);
    double r = rp_ratio(ra->cells[c].num, b->num);
    char text[32] = "\xe2\x80\x93"; /* no ratio: a side is no number, or A is 0 */
    if (isfinite(r))
        snprintf(text, sizeof text, "%.3g", r);
    else if (isinf(r)) /* two finite numbers whose ratio a double cannot hold */
        rp_format_past_double(r, text, sizeof text);
    fprintf(f, "%s |\n", text);
}

/* One table's common numbers, printed unless f is NULL (counting only);
 * returns how many there are, and counts the values on one side only. */
static size_t compare_table(FILE *f, const rp_table *ta, const rp_table *tb, size_t *only_a, size_t *only_b)
{
    size_t shown = 0;
    for (size_t i = 0; i < ta->nrows; ++i) {
        const rp_row *ra = &ta->rows[i];
        for (int c = 0; c < ta->ncols; ++c) {
            if (!rp_compared(ta, ra, c))
                continue;
            const rp_cell *b = rp_counterpart(ta, ra, c, tb);
            if (b == NULL) {
                ++*only_a;
                continue;
            }
            if (shown++ == 0 && f) {
                fputs("**", f);
                rp_md_text(f, ta->title);
                fputs("**\n\n| ", f);
                rp_md_text(f, ta->key_head[0] ? ta->key_head : "row");
                fputs(" | quantity | A | B | B/A |\n|---|---|---:|---:|---:|\n", f);
            }
            if (f)
                compare_line(f, ta, ra, c, b);
        }
    }
    for (size_t j = 0; j < tb->nrows; ++j)
        for (int c = 0; c < tb->ncols; ++c)
            *only_b += rp_compared(tb, &tb->rows[j], c) && rp_counterpart(tb, &tb->rows[j], c, ta) == NULL;
    if (shown && f)
        fputc('\n', f);
    return shown;
}

static size_t numbers_in(const rp_table *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; ++i)
        for (int c = 0; c < t->ncols; ++c)
            n += rp_compared(t, &t->rows[i], c);
    return n;
}

/* The devices of run that no pair holds, side "A" or "B". */
static void list_unpaired(FILE *f, const char *side, const rp_run *run, const rp_pair *pairs, size_t np)
{
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_device *d = &run->devices[i];
        bool paired = false;
        for (size_t p = 0; p < np; ++p)
            paired = paired || pairs[p].a == d || pairs[p].b == d;
        if (!paired) {
            fprintf(f, "Only in %s: ", side);
            rp_md_text(f, d->label);
            fputs(" (", f);
            rp_md_text(f, d->dir);
            fputs(").\n\n", f);
        }
    }
}

void rp_render_compare(FILE *f, const rp_run *a, const rp_run *b)
{
    fputs("# crossroof comparison: ", f);
    rp_md_text(f, b->name);
    fputs(" (B) against ", f);
    rp_md_text(f, a->name);
    fputs(" (A)\n\n", f);
    fputs("Every headline number found in both runs, with B / A: above 1 the value is larger in B (faster for "
          "bandwidths and throughputs, slower for times and latencies; for contention ratios, more lost to "
          "contention).\n\n",
          f);
    rp_pair pairs[64];
    size_t np = rp_pair_devices(a, b, pairs, 64);
    for (size_t p = 0; p < np; ++p) {
        const rp_device *da = pairs[p].a, *db = pairs[p].b;
        fputs("## ", f);
        rp_md_text(f, da->label);
        fputs(" / ", f);
        rp_md_text(f, db->label);
        fputs("\n\nA: ", f);
        rp_md_text(f, da->dir[0] ? da->dir : a->name);
        fputs(", B: ", f);
        rp_md_text(f, db->dir[0] ? db->dir : b->name);
        fprintf(f, " (paired as %s).\n\n", pairs[p].how);
        size_t only_a = 0, only_b = 0, shown = 0;
        for (int s = 0; s < rp_nsections(); ++s) {
            const rp_section *sa = &da->sections[s], *sb = &db->sections[s];
            size_t common = 0, ignore = 0;
            for (size_t k = 0; k < sa->ntables; ++k) {
                const rp_table *tb = rp_find_table(sb, sa->tables[k].id);
                if (tb)
                    common += compare_table(NULL, &sa->tables[k], tb, &ignore, &ignore);
            }
            if (common)
                fprintf(f, "### %s\n\n", rp_section_title(s));
            for (size_t k = 0; k < sa->ntables; ++k) {
                const rp_table *tb = rp_find_table(sb, sa->tables[k].id);
                if (tb)
                    shown += compare_table(f, &sa->tables[k], tb, &only_a, &only_b);
                else
                    only_a += numbers_in(&sa->tables[k]);
            }
            for (size_t k = 0; k < sb->ntables; ++k)
                if (rp_find_table(sa, sb->tables[k].id) == NULL)
                    only_b += numbers_in(&sb->tables[k]);
        }
        fprintf(f, "%zu values compared; %zu only in A, %zu only in B.\n\n", shown, only_a, only_b);
    }
    list_unpaired(f, "A", a, pairs, np);
    list_unpaired(f, "B", b, pairs, np);
}
