/* The reproduction's parts: the theses' tables built in (every value
 * traceable to its seed, table or figure, page and line; where the seed
 * texts are at hand, the value printed on that line), what the table
 * reader refuses (a value without its source), the printed forms of
 * numbers, the rank correlation and the verdicts' names. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reproduce/reproduce.h"
#include "reproduce/rules.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a within eps of b: cmocka's own compares floats only. */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static const char *const seeds[] = {"000_38e85b0dab01f860.txt", "001_b3fae09009f6eb9c.txt", "002_d31f78f2cbf54890.txt",
                                    "003_01002b527b87e544.txt", "004_4652df5c2d707da4.txt"};

static bool known_seed(const char *name)
{
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; ++i)
        if (strcmp(seeds[i], name) == 0)
            return true;
    return false;
}

/* A printed page: "37", "37-39" or a roman numeral. */
static bool page_form(const char *p)
{
    size_t digits = strspn(p, "0123456789");
    if (digits > 0 && p[digits] == '\0')
        return true;
    if (digits > 0 && p[digits] == '-')
        return strspn(p + digits + 1, "0123456789") == strlen(p + digits + 1) && p[digits + 1] != '\0';
    return *p && strspn(p, "ivxlc") == strlen(p);
}

static void test_every_value_has_its_source(void **state)
{
    (void)state;
    rr_thesis th;
    char err[512];
    if (rr_thesis_builtin(&th, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(th.nvalues > 100);
    for (size_t i = 0; i < th.nvalues; ++i) {
        const rr_value *v = &th.values[i];
        if (!known_seed(v->seed) || !page_form(v->page) || v->seed_line == 0 || !*v->source)
            fail_msg("thesis-values.csv: %s %s %s: seed '%s', page '%s', line %u, source '%s'", v->target,
                     v->quantity, v->key, v->seed, v->page, v->seed_line, v->source);
        if (rr_claim_of(&th, v->target) == NULL)
            fail_msg("thesis-values.csv: target %s has no claim in thesis-claims.csv", v->target);
    }
    /* Every target compared has its claim and values to compare with. */
    for (size_t t = 0; t < rr_target_count(); ++t) {
        size_t i = 0;
        if (rr_claim_of(&th, rr_target_at(t)->id) == NULL || rr_next_value(&th, rr_target_at(t)->id, NULL, &i) == NULL)
            fail_msg("target %s has no claim or no value", rr_target_at(t)->id);
    }
    rr_thesis_free(&th);
}

/* Line n of a file, into buf; false where the file has no such line. */
static bool line_of(const char *path, unsigned n, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    bool found = false;
    char *line = NULL;
    size_t cap = 0;
    for (unsigned k = 1; getline(&line, &cap, f) >= 0; ++k)
        if (k == n) {
            snprintf(buf, len, "%s", line);
            found = true;
            break;
        }
    free(line);
    fclose(f);
    return found;
}

/* The digits of a value as printed ("2.3433E-8": 23433; "2.2×10^{-9}":
 * 22), which the line of the seed must hold in that order. */
static void leading_digits(const char *value, char *out, size_t len)
{
    size_t n = 0;
    for (const char *p = value; *p && n + 1 < len; ++p) {
        if ((*p == 'E' || *p == 'e' || strncmp(p, "×", 2) == 0) && n > 0)
            break;
        if (*p >= '0' && *p <= '9')
            out[n++] = *p;
    }
    out[n] = '\0';
}

static bool digits_in(const char *line, const char *digits)
{
    char all[8192];
    size_t n = 0;
    for (const char *p = line; *p && n + 1 < sizeof all; ++p)
        if (*p >= '0' && *p <= '9')
            all[n++] = *p;
    all[n] = '\0';
    return strstr(all, digits) != NULL;
}

/* The seed texts sit beside the project's tree where they were read from;
 * a clone without them checks the sources' form above only (said). */
static void test_every_value_is_on_its_line(void **state)
{
    (void)state;
    char dir[4096], probe[4200];
    snprintf(dir, sizeof dir, "%s/../shared/seeds", CR_SOURCE_DIR);
    snprintf(probe, sizeof probe, "%s/%s", dir, seeds[0]);
    FILE *f = fopen(probe, "r");
    if (f == NULL) {
        print_message("the seed texts are not at %s: each value's line is not checked here\n", dir);
        skip();
    }
    fclose(f);
    rr_thesis th;
    char err[512];
    if (rr_thesis_builtin(&th, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (size_t i = 0; i < th.nvalues; ++i) {
        const rr_value *v = &th.values[i];
        char path[4400], line[8192], digits[64];
        snprintf(path, sizeof path, "%s/%s", dir, v->seed);
        if (!line_of(path, v->seed_line, line, sizeof line))
            fail_msg("%s: no line %u (%s %s)", v->seed, v->seed_line, v->target, v->key);
        leading_digits(v->value_text, digits, sizeof digits);
        if (*digits && !digits_in(line, digits))
            fail_msg("%s:%u does not print %s (%s %s %s)", v->seed, v->seed_line, v->value_text, v->target,
                     v->quantity, v->key);
    }
    rr_thesis_free(&th);
}

static const char header[] = "target,seed,source,page,seed_line,quantity,key,value,unit,kind,note\n";
static const char claims[] =
    "target,title,seed,source,page,claim\nt,\"T 2000, Table 1: t\",000_38e85b0dab01f860.txt,Table 1,3,a claim\n";

static int parse_values(const char *rows, rr_thesis *th, char *err, size_t errlen)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s", header, rows);
    return rr_thesis_parse(th, "values.csv", text, strlen(text), "claims.csv", claims, strlen(claims), err, errlen);
}

static void test_a_value_without_its_source_is_refused(void **state)
{
    (void)state;
    rr_thesis th;
    char err[512];
    assert_int_equal(parse_values("t,000_38e85b0dab01f860.txt,Table 1,,12,q,k,1.5,x,printed,\n", &th, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "values.csv:2:"));
    assert_non_null(strstr(err, "page"));
    assert_int_equal(parse_values("t,000_38e85b0dab01f860.txt,Table 1,3,0,q,k,1.5,x,printed,\n", &th, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "seed_line"));
    assert_int_equal(parse_values("t,000_38e85b0dab01f860.txt,Table 1,3,12,q,k,abc,x,printed,\n", &th, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "'abc' is not a number"));
    assert_int_equal(parse_values(",000_38e85b0dab01f860.txt,Table 1,3,12,q,k,1,x,printed,\n", &th, err, sizeof err),
                     -1);
}

/* A target whose row of claims is missing has no title to show: the
 * tables are refused, naming it. */
static void test_a_target_without_its_claim_is_refused(void **state)
{
    (void)state;
    rr_thesis th;
    char err[512];
    assert_int_equal(parse_values("t,s,Table 1,3,12,a,k,1,J,printed,\n", &th, err, sizeof err), 0);
    assert_string_equal(rr_claim_of(&th, "t")->title, "T 2000, Table 1: t");
    assert_int_equal(rr_thesis_covers_targets(&th, "claims.csv", err, sizeof err), -1);
    char want[128];
    snprintf(want, sizeof want, "claims.csv: no row for the target %s (its title and claim)", rr_target_at(0)->id);
    assert_string_equal(err, want);
    rr_thesis_free(&th);
}

static void test_printed_forms(void **state)
{
    (void)state;
    rr_thesis th;
    char err[512];
    assert_int_equal(parse_values("t,s,Table 1,3,12,a,k,2.2×10^{-9},J,printed,\n"
                                  "t,s,Table 1,3,13,b,k,2.3433E-8,,printed,\n"
                                  "t,s,Table 1,3,14,c,k,\"1,000\",,printed,\n"
                                  "t,s,Fig. 2,4,15,d,k,,,none,shape only\n",
                                  &th, err, sizeof err),
                     0);
    assert_int_equal(th.nvalues, 4);
    assert_near(th.values[0].value, 2.2e-9, 1e-21);
    assert_near(th.values[1].value, 2.3433e-8, 1e-20);
    assert_near(th.values[2].value, 1000, 0);
    assert_true(isnan(th.values[3].value));
    double lo, hi;
    assert_int_equal(rr_thesis_range(&th, "t", "a", &lo, &hi), 1);
    assert_int_equal(rr_thesis_range(&th, "t", "d", &lo, &hi), 0);
    rr_thesis_free(&th);
}

static void test_rank_correlation(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3, 4, 5}, up[] = {10, 20, 30, 45, 60}, down[] = {5, 4, 3, 2, 1};
    const double swapped[] = {2, 1, 3, 4, 5};
    assert_near(rr_spearman(x, up, 5), 1.0, 1e-12);
    assert_near(rr_spearman(x, down, 5), -1.0, 1e-12);
    /* One swap of five: 1 - 6 * 2 / (5 * 24). */
    assert_near(rr_spearman(x, swapped, 5), 0.9, 1e-12);
    assert_true(isnan(rr_spearman(x, up, 2)));
    const double flat[] = {1, 1, 1, 1, 1};
    assert_true(isnan(rr_spearman(x, flat, 5)));
}

/* The names the report and the summary count by. */
static void test_verdict_names(void **state)
{
    (void)state;
    static const char *const names[RR_NVERDICTS] = {"reproduced", "holds qualitatively", "differs",
                                                    "not measurable here"};
    for (int v = 0; v < RR_NVERDICTS; ++v)
        assert_string_equal(rr_verdict_name((rr_verdict)v), names[v]);
    assert_string_equal(rr_verdict_name(RR_NVERDICTS), "?");
}

TEST_MAIN(NULL, NULL, test_every_value_has_its_source, test_every_value_is_on_its_line,
          test_a_value_without_its_source_is_refused, test_a_target_without_its_claim_is_refused, test_printed_forms,
          test_rank_correlation, test_verdict_names)
