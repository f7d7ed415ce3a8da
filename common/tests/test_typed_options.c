/* The typed benchmark options: each kind parses into its own field of the
 * context with the rule of its cr_parse_* function, an untouched field stays
 * 0 ("not given"), and a bad value is one line naming the option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "options.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint64_t size;
    cr_range range;
    uint64_t count;
    unsigned colours;
    cr_host_ref host_ref;
    bool flag;
    int custom_calls;
} typed_config;

static const char *const colour_names[] = {"red", "green", "blue"};

static int count_custom(void *ctx, const char *arg, char *err, size_t errlen)
{
    (void)arg, (void)err, (void)errlen;
    ((typed_config *)ctx)->custom_calls++;
    return 0;
}

static const cr_extra_option typed_options[] = {
    CR_OPTION(CR_OPT_SIZE, "size", "BYTES", "a size", typed_config, size),
    CR_OPTION(CR_OPT_RANGE, "range", "RANGE", "a range", typed_config, range),
    CR_OPTION(CR_OPT_COUNT, "count", "N", "a count", typed_config, count),
    CR_OPTION_NAMES("colours", "names", typed_config, colours, colour_names),
    CR_OPTION(CR_OPT_HOST_REF, "host-ref", "MODE", "a host reference mode", typed_config, host_ref),
    CR_OPTION(CR_OPT_FLAG, "flag", NULL, "a flag", typed_config, flag),
    CR_OPTION_CALL("custom", "X", "a callback of its own", count_custom),
};
#define N_TYPED (sizeof typed_options / sizeof typed_options[0])

/* A design's sweeps a, b and c, chosen by --sweeps or by --only-b, and an
 * option that a and c read. */
typedef struct {
    unsigned sweeps;
    uint64_t size;
    bool only_b;
} sweep_config;

static const char *const sweep_names[] = {"a", "b", "c"};

static const cr_extra_option sweep_options[] = {
    CR_OPTION_SWEEPS("sweeps", "a, b or c", sweep_config, sweeps, sweep_names),
    CR_OPTION_FOR(1u | 4u, CR_OPT_SIZE, "size", "BYTES", "read by a and c", sweep_config, size),
    CR_OPTION_MODE(2u, "only-b", "b alone", sweep_config, only_b),
};

/* Parses args after "prog" with the benchmark options opts into ctx,
 * zeroed first (size bytes). */
static int parse_with(const cr_extra_option *opts, size_t n_opts, void *ctx, size_t size, const char *const *args,
                      int count)
{
    const char *argv[16] = {"prog"};
    for (int i = 0; i < count; ++i)
        argv[i + 1] = args[i];
    cr_options o;
    memset(ctx, 0, size);
    return cr_options_parse(count + 1, (char **)argv, opts, n_opts, ctx, &o);
}

static int parse(typed_config *c, const char *const *args, int count)
{
    return parse_with(typed_options, N_TYPED, c, sizeof *c, args, count);
}

static void test_each_kind_fills_its_field(void **state)
{
    (void)state;
    typed_config c;
    const char *args[] = {"--size", "64K", "--range", "1K:1M:x4", "--count", "7", "--colours", "blue,red",
                          "--host-ref", "off", "--flag", "--custom", "x"};
    assert_int_equal(parse(&c, args, 13), 0);
    assert_int_equal(c.size, 65536);
    assert_int_equal(c.range.start, 1024);
    assert_int_equal(c.range.end, UINT64_C(1) << 20);
    assert_int_equal(c.range.factor, 4);
    assert_int_equal(c.count, 7);
    assert_int_equal(c.colours, (1u << 0) | (1u << 2));
    assert_int_equal(c.host_ref, CR_HOST_REF_OFF);
    assert_true(c.flag);
    assert_int_equal(c.custom_calls, 1);
}

static void test_fields_not_given_stay_zero(void **state)
{
    (void)state;
    typed_config c;
    const char *args[] = {"--count", "3"};
    assert_int_equal(parse(&c, args, 2), 0);
    assert_int_equal(c.size, 0);
    assert_int_equal(c.range.start, 0);
    assert_int_equal(c.colours, 0);
    assert_false(c.flag);
    assert_int_equal(c.count, 3);
}

/* The parser's error line goes to stderr: catch it in a pipe. */
static void expect_error_with(const cr_extra_option *opts, size_t n_opts, const char *const *args, int count,
                              const char *expect)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fds[1], STDERR_FILENO);
    union {
        typed_config typed;
        sweep_config sweeps;
    } c;
    int rc = parse_with(opts, n_opts, &c, sizeof c, args, count);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(fds[1]);
    char line[512] = "";
    ssize_t got = read(fds[0], line, sizeof line - 1);
    close(fds[0]);
    line[got > 0 ? got : 0] = '\0';
    assert_int_equal(rc, -1);
    assert_non_null(strstr(line, expect));
    assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1); /* one line */
}

static void expect_error(const char *const *args, int count, const char *expect)
{
    expect_error_with(typed_options, N_TYPED, args, count, expect);
}

static void test_bad_values_name_the_option(void **state)
{
    (void)state;
    const char *zero_size[] = {"--size", "0"};
    expect_error(zero_size, 2, "prog: error: --size: size '0' must be positive");
    const char *bad_range[] = {"--range", "1M:1K:x2"};
    expect_error(bad_range, 2, "prog: error: --range: ");
    const char *bad_name[] = {"--colours", "mauve"};
    expect_error(bad_name, 2, "prog: error: --colours: unknown name 'mauve'");
    const char *bad_mode[] = {"--host-ref", "sometimes"};
    expect_error(bad_mode, 2, "prog: error: --host-ref: 'sometimes' is not auto, on or off");
    const char *zero_count[] = {"--count", "0"};
    expect_error(zero_count, 2, "prog: error: --count: ");
}

/* An option that no sweep chosen reads would change nothing: refused in one
 * line naming it and what left its sweeps out, whatever the order. */
static void test_an_option_no_chosen_sweep_reads_is_refused(void **state)
{
    (void)state;
    sweep_config c;
    const char *read[][4] = {{"--sweeps", "c", "--size", "1K"}, {"--size", "1K", "--sweeps", "a,b"},
                             {"--size", "1K", "--sweeps", "all"}, {"--only-b", "--sweeps", "b", NULL}};
    for (size_t i = 0; i < sizeof read / sizeof read[0]; ++i)
        assert_int_equal(parse_with(sweep_options, 3, &c, sizeof c, read[i], read[i][3] ? 4 : 3), 0);
    const char *size_alone[] = {"--size", "1K"};
    assert_int_equal(parse_with(sweep_options, 3, &c, sizeof c, size_alone, 2), 0);
    assert_int_equal(c.size, 1024);
    const char *unread[] = {"--sweeps", "b", "--size", "1K"};
    expect_error_with(sweep_options, 3, unread, 4,
                      "prog: error: --size has no effect with --sweeps b (only the a and c sweeps read it)");
    const char *unread_first[] = {"--size", "1K", "--sweeps", "b"};
    expect_error_with(sweep_options, 3, unread_first, 4, "--size has no effect with --sweeps b");
    const char *by_mode[] = {"--only-b", "--size", "1K"};
    expect_error_with(sweep_options, 3, by_mode, 3, "prog: error: --size has no effect with --only-b\n");
    const char *energy[] = {"--energy", "off", "--energy-time", "0.5"};
    expect_error_with(sweep_options, 3, energy, 4, "--energy-time has no effect with --energy off");
}

/* Colours and sizes chosen together: blue comes small only. */
static bool colour_measured(const void *ctx, const unsigned *idx, char *why, size_t len)
{
    (void)ctx;
    if (idx[0] == 2 && idx[1] == 1) {
        snprintf(why, len, "blue comes small only");
        return false;
    }
    return true;
}

/* Each item of a choice given must be measured with some of the others
 * chosen; the refusal names it, the others given and the reason. */
static void test_an_item_measured_with_nothing_is_refused(void **state)
{
    (void)state;
    static const char *const sizes[] = {"small", "big"};
    cr_choice dims[] = {{"colours", 1u << 2, colour_names, 3, true}, {"sizes", 1u << 1, sizes, 2, true}};
    char line[512];
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fds[1], STDERR_FILENO);
    int refused = cr_check_choices("prog", dims, 2, colour_measured, NULL, "");
    dims[1].chosen = 1; /* small: blue is measured */
    int taken = cr_check_choices("prog", dims, 2, colour_measured, NULL, "");
    dims[0].chosen = 7, dims[1].chosen = 2, dims[1].given = false; /* big by default: red and green are */
    int blue_by_default = cr_check_choices("prog", dims, 2, colour_measured, NULL, " here");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(fds[1]);
    ssize_t got = read(fds[0], line, sizeof line - 1);
    close(fds[0]);
    line[got > 0 ? got : 0] = '\0';
    assert_int_equal(refused, -1);
    assert_int_equal(taken, 0);
    assert_int_equal(blue_by_default, -1);
    assert_string_equal(line, "prog: error: --colours blue measures nothing with --sizes big: blue comes small only\n"
                              "prog: error: --colours blue measures nothing here: blue comes small only\n");
}

TEST_MAIN(NULL, NULL, test_each_kind_fills_its_field, test_fields_not_given_stay_zero,
          test_bad_values_name_the_option, test_an_option_no_chosen_sweep_reads_is_refused,
          test_an_item_measured_with_nothing_is_refused)
