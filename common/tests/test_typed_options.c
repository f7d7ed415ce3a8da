/* The typed benchmark options: each kind parses into its own field of the
 * context with the rule of its cr_parse_* function, an untouched field stays
 * 0 ("not given"), and a bad value is one line naming the option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

static int parse(typed_config *c, const char *const *args, int count)
{
    const char *argv[16] = {"prog"};
    for (int i = 0; i < count; ++i)
        argv[i + 1] = args[i];
    cr_options o;
    memset(c, 0, sizeof *c);
    return cr_options_parse(count + 1, (char **)argv, typed_options, N_TYPED, c, &o);
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
static void expect_error(const char *const *args, int count, const char *expect)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fds[1], STDERR_FILENO);
    typed_config c;
    int rc = parse(&c, args, count);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_kind_fills_its_field),
        cmocka_unit_test(test_fields_not_given_stay_zero),
        cmocka_unit_test(test_bad_values_name_the_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
