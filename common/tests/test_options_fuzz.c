/* The option values every benchmark takes, against mutants of good ones:
 * sizes, ranges, counts, lists, intervals, names, modes and seconds, each
 * parsed by its own rule, and whole command lines through the common
 * parser. Each is taken or refused with one line, never a crash (under
 * ASan and UBSan in make check), and what is taken obeys its rule. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "options.h"
#include "shared/tests/fuzz.h"
#include "tests/test_main.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

enum { SIZE, RANGE, COUNT, COUNT_LIST, INTERVAL, NAMES, LIST, HOST_REF, ENERGY, SECONDS, COMMAND_LINE };
static const struct {
    int kind;
    const char *text, *option; /* option: the common option that takes it, on a command line */
} seeds[] = {
    {SIZE, "256M", NULL},          {SIZE, "4000024", NULL},          {RANGE, "16K:64M:x2", NULL},
    {RANGE, "1K", NULL},           {COUNT, "10", NULL},              {COUNT_LIST, "4,8,16,1024", NULL},
    {INTERVAL, "5:20", NULL},      {INTERVAL, "7", NULL},            {NAMES, "copy,triad", NULL},
    {NAMES, "all", NULL},          {LIST, "float,double", NULL},     {HOST_REF, "auto", NULL},
    {ENERGY, "on", NULL},          {SECONDS, "0.5", NULL},           {SECONDS, "2e-3", NULL},
    {COMMAND_LINE, "5:20", "--reps"}, {COMMAND_LINE, "results/x", "--out"}, {COMMAND_LINE, "2.5", "--spread"},
    {COMMAND_LINE, "0.05", "--min-time"}, {COMMAND_LINE, "pthread", "--device"},
};
static const char *const names[] = {"copy", "mul", "add", "triad", "dot"};

/* The common parser on "prog OPTION VALUE", its one-line refusal on a
 * stderr that goes nowhere. */
static int command_line(const char *option, const char *value)
{
    char *argv[] = {"prog", (char *)option, (char *)value, NULL};
    cr_options o;
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && null >= 0);
    dup2(null, 2);
    int rc = cr_options_parse(3, argv, NULL, 0, NULL, &o);
    fflush(stderr);
    dup2(saved, 2);
    close(saved), close(null);
    return rc;
}

/* Parses text as kind says; 0 taken (and its rule checked), else -1 with err. */
static int parse(int kind, const char *option, const char *text, char *err, size_t errlen)
{
    uint64_t u, v, list[64];
    size_t n;
    double s;
    unsigned bits;
    cr_range r;
    cr_host_ref h;
    cr_energy_mode e;
    int rc = -1;
    switch (kind) {
    case SIZE: rc = cr_parse_size(text, &u, err, errlen); assert_true(rc != 0 || u > 0); break;
    case RANGE:
        rc = cr_parse_range(text, &r, err, errlen);
        assert_true(rc != 0 || (r.start > 0 && r.start <= r.end && r.factor >= 2 && cr_range_count(&r) >= 1));
        break;
    case COUNT: rc = cr_parse_count(text, &u, err, errlen); assert_true(rc != 0 || u > 0); break;
    case COUNT_LIST:
        rc = cr_parse_count_list(text, list, 64, &n, err, errlen);
        for (size_t i = 1; rc == 0 && i < n; ++i)
            assert_true(list[i] > list[i - 1]);
        break;
    case INTERVAL: rc = cr_parse_interval(text, &u, &v, err, errlen); assert_true(rc != 0 || (u > 0 && u <= v)); break;
    case NAMES:
        rc = cr_parse_name_list(text, names, 5, &bits, err, errlen);
        assert_true(rc != 0 || (bits != 0 && bits < 32u));
        break;
    case LIST: rc = cr_list_check(text, err, errlen); break;
    case HOST_REF: rc = cr_parse_host_ref(text, &h, err, errlen); break;
    case ENERGY: rc = cr_parse_energy_mode(text, &e, err, errlen); break;
    case SECONDS: rc = cr_parse_seconds(text, &s, err, errlen); assert_true(rc != 0 || (s > 0 && isfinite(s))); break;
    default:
        rc = command_line(option, text);
        if (rc != 0)
            snprintf(err, errlen, "refused");
    }
    return rc;
}

static int try_mutant(void *ctx, fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen,
                      const char **what)
{
    (void)ctx, (void)f, (void)i;
    size_t k = fuzz_below(r, sizeof seeds / sizeof seeds[0]);
    *what = seeds[k].text;
    fuzz_buf seed = {(char *)seeds[k].text, strlen(seeds[k].text)};
    fuzz_buf m = fuzz_mutant(r, &seed);
    /* An argument ends at its first NUL, as the kernel hands it over. */
    int rc = parse(seeds[k].kind, seeds[k].option, m.bytes, err, errlen);
    free(m.bytes);
    return rc;
}

static void test_mutated_option_values_taken_or_refused(void **state)
{
    (void)state;
    fuzz_drive("option values", 20000, 4, try_mutant, NULL);
}

TEST_MAIN(NULL, NULL, test_mutated_option_values_taken_or_refused)
