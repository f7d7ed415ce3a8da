#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "options.h"

#include <string.h>

static uint64_t size_ok(const char *text)
{
    uint64_t v = 0;
    char err[CR_ERRLEN];
    assert_int_equal(cr_parse_size(text, &v, err, sizeof err), 0);
    return v;
}

static void size_bad(const char *text, const char *expect_in_error)
{
    uint64_t v = 12345;
    char err[CR_ERRLEN] = "";
    assert_int_equal(cr_parse_size(text, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, expect_in_error));
    assert_null(strchr(err, '\n'));
    assert_int_equal(v, 12345); /* untouched on failure */
}

static void test_sizes_with_suffixes(void **state)
{
    (void)state;
    assert_int_equal(size_ok("4096"), 4096);
    assert_int_equal(size_ok("64K"), 65536);
    assert_int_equal(size_ok("1KiB"), 1024);
    assert_int_equal(size_ok("256M"), UINT64_C(256) << 20);
    assert_int_equal(size_ok("1G"), UINT64_C(1) << 30);
    assert_int_equal(size_ok("3GB"), UINT64_C(3) << 30);
    assert_int_equal(size_ok("2T"), UINT64_C(2) << 40);
    /* Beyond 32 bits: the classic overflow of other suites. */
    assert_int_equal(size_ok("5G"), UINT64_C(5368709120));
    assert_int_equal(size_ok("16777215T"), UINT64_C(16777215) << 40);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    size_bad("", "empty");
    size_bad("0", "positive");
    size_bad("0K", "positive");
    size_bad("-1", "negative");
    size_bad("-64M", "negative");
    size_bad("abc", "not a number");
    size_bad(" 5", "not a number");
    size_bad("+5", "not a number");
    size_bad("12Q", "unknown suffix");
    size_bad("1.5G", "unknown suffix");
    size_bad("99999999999999999999", "64 bits");
    size_bad("16777216T", "64 bits");
    size_bad("18446744073709551615K", "64 bits");
}

static void test_ranges(void **state)
{
    (void)state;
    cr_range r;
    char err[CR_ERRLEN];
    assert_int_equal(cr_parse_range("1K:1G:x2", &r, err, sizeof err), 0);
    assert_int_equal(r.start, 1024);
    assert_int_equal(r.end, UINT64_C(1) << 30);
    assert_int_equal(cr_range_count(&r), 21);
    assert_int_equal(cr_range_value(&r, 20), UINT64_C(1) << 30);
    assert_int_equal(cr_parse_range("1K:100K:x4", &r, err, sizeof err), 0);
    assert_int_equal(cr_range_count(&r), 4); /* 1K 4K 16K 64K */
    assert_int_equal(cr_range_value(&r, 3), 65536);
    assert_int_equal(cr_parse_range("8M", &r, err, sizeof err), 0);
    assert_int_equal(cr_range_count(&r), 1);
    assert_int_equal(cr_range_value(&r, 0), UINT64_C(8) << 20);
    /* A range reaching the top of 64 bits must not wrap around. */
    assert_int_equal(cr_parse_range("1T:16777215T:x2", &r, err, sizeof err), 0);
    assert_int_equal(cr_range_count(&r), 24);
}

static void range_bad(const char *text, const char *expect)
{
    cr_range r;
    char err[CR_ERRLEN] = "";
    assert_int_equal(cr_parse_range(text, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, expect));
}

static void test_bad_ranges(void **state)
{
    (void)state;
    range_bad("", "empty");
    range_bad("1G:1K:x2", "start is larger");
    range_bad("1K:1G:x1", "at least 2");
    range_bad("1K:1G:x0", "at least 2");
    range_bad("1K:1G", "START:END");
    range_bad("1K:1G:+2", "xFACTOR");
    range_bad("1K:1G:x", "not xN");
    range_bad("1K:1G:x2.5", "not xN");
    range_bad("0:1G:x2", "positive");
    range_bad("1K:-1G:x2", "negative");
    range_bad("1K:99999999999999999999:x2", "64 bits");
}

static void test_counts_and_seconds(void **state)
{
    (void)state;
    uint64_t c;
    double s;
    char err[CR_ERRLEN];
    assert_int_equal(cr_parse_count("10", &c, err, sizeof err), 0);
    assert_int_equal(c, 10);
    assert_int_equal(cr_parse_count("0", &c, err, sizeof err), -1);
    assert_int_equal(cr_parse_count("-3", &c, err, sizeof err), -1);
    assert_int_equal(cr_parse_count("3x", &c, err, sizeof err), -1);
    assert_int_equal(cr_parse_seconds("0.25", &s, err, sizeof err), 0);
    assert_true(s == 0.25);
    assert_int_equal(cr_parse_seconds("-1", &s, err, sizeof err), -1);
    assert_int_equal(cr_parse_seconds("0", &s, err, sizeof err), -1);
    assert_int_equal(cr_parse_seconds("nan", &s, err, sizeof err), -1);
    assert_int_equal(cr_parse_seconds("inf", &s, err, sizeof err), -1);
    assert_int_equal(cr_parse_seconds("1e999", &s, err, sizeof err), -1);
    assert_int_equal(cr_parse_seconds("100000", &s, err, sizeof err), -1);
}

static void test_count_lists_and_intervals(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    uint64_t v[4];
    size_t n = 0;
    assert_int_equal(cr_parse_count_list("4,8,16", v, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(v[0], 4);
    assert_int_equal(v[2], 16);
    assert_int_equal(cr_parse_count_list("7", v, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    const char *bad[] = {"", "4,,8", "4,8,", "8,4", "4,4", "0,4", "-4", "4,x", "1,2,3,4,5", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        err[0] = '\0';
        assert_int_equal(cr_parse_count_list(bad[i], v, 4, &n, err, sizeof err), -1);
        assert_true(err[0] != '\0');
    }
    uint64_t lo = 0, hi = 0;
    assert_int_equal(cr_parse_interval("16:64", &lo, &hi, err, sizeof err), 0);
    assert_int_equal(lo, 16);
    assert_int_equal(hi, 64);
    assert_int_equal(cr_parse_interval("32", &lo, &hi, err, sizeof err), 0);
    assert_int_equal(lo, 32);
    assert_int_equal(hi, 32);
    const char *bad_iv[] = {"", "64:16", "0:4", "4:", ":4", "a:b", "-1:4", "4:5:6"};
    for (size_t i = 0; i < sizeof bad_iv / sizeof bad_iv[0]; ++i)
        assert_int_equal(cr_parse_interval(bad_iv[i], &lo, &hi, err, sizeof err), -1);
}

/* Every comma list, names or not: an item given twice is refused, as an
 * empty one is, and the line names it. */
static void test_lists_refuse_an_item_given_twice(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    static const char *const names[] = {"float", "double", "half"};
    unsigned bits = 0;
    assert_int_equal(cr_list_check("add,inc,addx", err, sizeof err), 0);
    assert_int_equal(cr_parse_name_list("float,double", names, 3, &bits, err, sizeof err), 0);
    const char *twice[][2] = {
        {"float,float", "'float'"}, {"half,double,half", "'half'"}, {"double,float,double", "'double'"}};
    for (size_t i = 0; i < sizeof twice / sizeof twice[0]; ++i) {
        err[0] = '\0';
        assert_int_equal(cr_parse_name_list(twice[i][0], names, 3, &bits, err, sizeof err), -1);
        assert_non_null(strstr(err, "twice"));
        assert_non_null(strstr(err, twice[i][1]));
        assert_int_equal(cr_list_check(twice[i][0], err, sizeof err), -1);
    }
    static char longest[4097], too_long[4098];
    for (size_t i = 0; i < sizeof longest - 1; ++i)
        longest[i] = i % 2 ? ',' : 'a' + (char)(i / 2 % 26); /* items repeat: refused, but looked at */
    memset(too_long, 'a', sizeof too_long - 1);
    assert_int_equal(cr_list_check(too_long, err, sizeof err), -1);
    assert_non_null(strstr(err, "longer than 4096 bytes"));
    assert_int_equal(cr_list_check(longest, err, sizeof err), -1);
    assert_non_null(strstr(err, "twice"));
}

static void test_format_bytes(void **state)
{
    (void)state;
    char buf[32];
    cr_format_bytes(17, buf, sizeof buf);
    assert_string_equal(buf, "17 B");
    cr_format_bytes(256u << 20, buf, sizeof buf);
    assert_string_equal(buf, "256 MiB");
    cr_format_bytes(1536, buf, sizeof buf);
    assert_string_equal(buf, "1.5 KiB");
    cr_format_bytes(UINT64_C(5) << 40, buf, sizeof buf);
    assert_string_equal(buf, "5 TiB");
}

/* ---- whole command lines ---- */

static int seen_extra;
static int apply_flavour(void *ctx, const char *arg, char *err, size_t errlen)
{
    (void)ctx;
    if (strcmp(arg, "vanilla") != 0) {
        snprintf(err, errlen, "'%s' is not a flavour", arg);
        return -1;
    }
    seen_extra++;
    return 0;
}
static const cr_extra_option extras[] = {CR_OPTION_CALL("flavour", "NAME", "a test option", apply_flavour)};

static int parse(cr_options *o, int argc, const char **argv)
{
    return cr_options_parse(argc, (char **)argv, extras, 1, NULL, o);
}

static void test_defaults_and_common_options(void **state)
{
    (void)state;
    cr_options o;
    const char *none[] = {"/usr/bin/prog"};
    assert_int_equal(parse(&o, 1, none), 0);
    assert_string_equal(o.program, "prog");
    assert_string_equal(o.out_dir, "results");
    assert_int_equal(o.reps_min, 10);
    assert_true(o.bind);
    assert_false(o.quick);

    const char *all[] = {"prog", "--quick", "--device", "pthread", "--reps", "7:9", "--min-time", "0.5",
                         "--max-time", "3", "--spread", "2.5", "--warmup", "0", "--out", "/tmp/x", "--csv",
                         "--no-bind", "--flavour", "vanilla", "--list-devices"};
    seen_extra = 0;
    assert_int_equal(parse(&o, sizeof all / sizeof all[0], all), 0);
    assert_true(o.quick);
    assert_string_equal(o.device, "pthread");
    assert_int_equal(o.reps_min, 7);
    assert_int_equal(o.reps_max, 9);
    assert_true(o.min_time_s == 0.5);
    assert_true(o.max_time_s == 3.0); /* explicit values survive --quick */
    assert_true(o.target_ci > 0.0249 && o.target_ci < 0.0251);
    assert_int_equal(o.warmup, 0);
    assert_string_equal(o.out_dir, "/tmp/x");
    assert_true(o.csv_stdout && !o.bind && o.list_devices);
    assert_int_equal(seen_extra, 1);

    const char *quick[] = {"prog", "--quick"};
    assert_int_equal(parse(&o, 2, quick), 0);
    assert_int_equal(o.reps_min, 5);
    assert_int_equal(o.reps_max, 20);
    assert_true(o.max_time_s == 1.0);
    /* --quick's budget is a default: a --max-time given stays */
    const char *quick_budget[] = {"prog", "--max-time", "5", "--quick"};
    assert_int_equal(parse(&o, 4, quick_budget), 0);
    assert_int_equal(o.reps_max, 20);
    assert_true(o.max_time_s == 5.0);
}

static void reject(int argc, const char **argv)
{
    cr_options o;
    assert_int_equal(parse(&o, argc, argv), -1);
}

static void test_bad_command_lines(void **state)
{
    (void)state;
    reject(2, (const char *[]){"prog", "--bogus"});
    reject(2, (const char *[]){"prog", "-x"});
    reject(2, (const char *[]){"prog", "--reps"});
    reject(2, (const char *[]){"prog", "stray"});
    reject(3, (const char *[]){"prog", "--reps", "0"});
    reject(3, (const char *[]){"prog", "--reps", "5:3"});
    reject(3, (const char *[]){"prog", "--reps", "2000000"});
    reject(3, (const char *[]){"prog", "--min-time", "-1"});
    reject(5, (const char *[]){"prog", "--min-time", "5", "--max-time", "1"});
    reject(4, (const char *[]){"prog", "--quick", "--min-time", "1.5"}); /* above --quick's 1 s */
    reject(3, (const char *[]){"prog", "--min-time", "3"});             /* above the default 2 s */
    reject(2, (const char *[]){"prog", "--quick=1"});
    reject(3, (const char *[]){"prog", "--spread", "100"});
    reject(3, (const char *[]){"prog", "--warmup", "-2"});
    reject(3, (const char *[]){"prog", "--device", ""});
    reject(3, (const char *[]){"prog", "--out", ""});
    reject(3, (const char *[]){"prog", "--flavour", "mint"});
    reject(2, (const char *[]){"prog", "--ou"}); /* a long option is given whole */
    /* A results folder whose files' paths would not fit: refused before it is made. */
    static char longest[3801], too_long[3802];
    memset(longest, 'd', sizeof longest - 1);
    memset(too_long, 'd', sizeof too_long - 1);
    cr_options o;
    assert_int_equal(parse(&o, 3, (const char *[]){"prog", "--out", longest}), 0);
    reject(3, (const char *[]){"prog", "--out", too_long});
}

TEST_MAIN(NULL, NULL, test_sizes_with_suffixes, test_bad_sizes, test_ranges, test_bad_ranges, test_counts_and_seconds,
          test_count_lists_and_intervals, test_lists_refuse_an_item_given_twice, test_format_bytes,
          test_defaults_and_common_options, test_bad_command_lines)
