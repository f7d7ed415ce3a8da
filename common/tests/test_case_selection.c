/* How a test program's list is split into its cases: names read as the
 * preprocessor spells them, TIMED() cases told apart, and the cases a pass
 * wants taken in their order (make check runs the timed ones alone). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include <stdio.h>
#include <string.h>

static void case_a(void **state) { (void)state; }
static void case_b(void **state) { (void)state; }
static void case_c(void **state) { (void)state; }
static void case_d(void **state) { (void)state; }

static const CMUnitTestFunction four[] = {case_a, case_b, case_c, case_d};

/* Selects from list (as a macro's # would spell it, spaces and line breaks
 * included) what wanted takes, and checks it is exactly the cases named in
 * expected ("case_b case_d"), in that order, each with its own function. */
static void expect_selection(const char *list, char wanted, const char *expected)
{
    char buf[256], names[64];
    struct CMUnitTest t[4];
    snprintf(buf, sizeof buf, "%s", list);
    size_t taken = test_list_select(buf, four, 4, wanted, t), i = 0;
    snprintf(names, sizeof names, "%s", expected);
    for (char *save = NULL, *name = strtok_r(names, " ", &save); name; name = strtok_r(NULL, " ", &save), ++i) {
        if (i >= taken)
            fail_msg("'%s' (%c): %zu cases taken, '%s' missing", list, wanted, taken, name);
        assert_string_equal(t[i].name, name);
        assert_ptr_equal(t[i].test_func, four[name[5] - 'a']);
    }
    if (taken != i)
        fail_msg("'%s' (%c): %zu cases taken, %zu expected", list, wanted, taken, i);
}

static const char mixed[] = "case_a, TIMED(case_b), case_c,\n TIMED( case_d )";

static void test_every_case_when_all_are_wanted(void **state)
{
    (void)state;
    expect_selection(mixed, 'a', "case_a case_b case_c case_d");
}

static void test_timed_cases_alone(void **state)
{
    (void)state;
    expect_selection(mixed, 't', "case_b case_d");
    expect_selection("TIMED(case_a), case_b, case_c, case_d", 't', "case_a");
}

static void test_untimed_cases_keep_their_functions(void **state)
{
    (void)state;
    expect_selection(mixed, 'u', "case_a case_c");
    expect_selection("TIMED(case_a), case_b, case_c, TIMED(case_d)", 'u', "case_b case_c");
}

static void test_a_list_without_timed_cases(void **state)
{
    (void)state;
    expect_selection("case_a, case_b, case_c, case_d", 't', "");
    expect_selection("case_a, case_b, case_c, case_d", 'u', "case_a case_b case_c case_d");
}

TEST_MAIN(NULL, NULL, test_every_case_when_all_are_wanted, test_timed_cases_alone,
          test_untimed_cases_keep_their_functions, test_a_list_without_timed_cases)
