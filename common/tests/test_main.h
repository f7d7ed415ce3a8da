/* The main() of a test program, its tests listed once:
 *     TEST_MAIN(group_setup, group_teardown, test_a, TIMED(test_b), ...)
 * runs them in that order as one cmocka group named after the source file
 * (NULL for no group setup or teardown). Each test is reported under its
 * function's name, read from the list as the preprocessor spells it, so
 * that a name and its function cannot drift apart. Include after cmocka.h.
 * CR_TEST_FILTER (a cmocka pattern) picks some tests of a program.
 *
 * TIMED(test) marks a case whose verdict rests on timing (a measurement,
 * a time limit): make check runs those alone, one program at a time, and
 * every other case beside other tests. CROSSROOF_CASES=timed runs the
 * marked cases alone, =untimed the others; the sanitizer pass
 * (CROSSROOF_SANITIZED=1), slower by design, leaves the marked ones out
 * and names them. */
#ifndef CR_TEST_MAIN_H
#define CR_TEST_MAIN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMED(test) test

/* Which cases this run takes: 't' the TIMED ones alone, 'u' the others,
 * 'a' all; exits 2 on a value it does not know. */
static inline char test_cases_wanted(void)
{
    const char *cases = getenv("CROSSROOF_CASES"), *pass = getenv("CROSSROOF_SANITIZED");
    if (cases == NULL || *cases == '\0')
        return pass != NULL && strcmp(pass, "1") == 0 ? 'u' : 'a';
    if (strcmp(cases, "timed") == 0 || strcmp(cases, "untimed") == 0)
        return cases[0];
    fprintf(stderr, "CROSSROOF_CASES: '%s' is not timed or untimed\n", cases);
    exit(2);
}

/* Splits names, the n functions' names as listed ("test_a, TIMED(test_b)",
 * written over in place), and fills tests with those wanted takes ('t' the
 * TIMED ones, 'u' the others, 'a' all), in their order; returns how many.
 * Each timed case a 'u' list leaves out is named on stdout. */
static inline size_t test_list_select(char *names, const CMUnitTestFunction *functions, size_t n, char wanted,
                                      struct CMUnitTest *tests)
{
    size_t taken = 0;
    char *p = names;
    for (size_t i = 0; i < n; ++i) {
        p += strspn(p, ", \t\n");
        bool timed = strncmp(p, "TIMED(", 6) == 0;
        if (timed)
            p += 6 + strspn(p + 6, " \t\n");
        char *name = p;
        p += strcspn(p, ", \t\n)");
        p += strspn(p, " \t\n)");
        if (*p)
            *p++ = '\0';
        name[strcspn(name, " \t\n)")] = '\0';
        if ((wanted == 't' && !timed) || (wanted == 'u' && timed)) {
            if (timed)
                printf("%s timed: run alone, in the plain pass (CROSSROOF_CASES=timed)\n", name);
            continue;
        }
        tests[taken] = (struct CMUnitTest){.name = name, .test_func = functions[i]};
        taken++;
    }
    return taken;
}

static inline int run_test_list(const char *file, const char *names, const CMUnitTestFunction *functions, size_t n,
                                CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
    size_t len = strlen(names);
    char *split = malloc(len + 1);
    struct CMUnitTest *tests = calloc(n, sizeof *tests);
    if (split == NULL || tests == NULL) {
        free(split);
        free(tests);
        return 1;
    }
    memcpy(split, names, len + 1);
    char wanted = test_cases_wanted();
    size_t taken = test_list_select(split, functions, n, wanted, tests);
    const char *group = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    /* CR_TEST_FILTER=test_bad_inputs (a pattern, * and ? allowed) runs only
     * the tests it names: an end-to-end program takes minutes in full. */
    if (getenv("CR_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CR_TEST_FILTER"));
    int failed = 0;
    if (taken > 0)
        failed = _cmocka_run_group_tests(group, tests, taken, group_setup, group_teardown);
    else
        printf("%s: none of its %zu cases is %s\n", group, n, wanted == 't' ? "timed" : "untimed");
    free(tests);
    free(split);
    return failed;
}

/* names: the list as written, stringified where the list is first given:
 * a macro that passes a list on expands TIMED() before it gets here. */
#define TEST_MAIN_NAMED(names, group_setup, group_teardown, ...)                                                       \
    int main(void)                                                                                                     \
    {                                                                                                                  \
        static const CMUnitTestFunction test_functions[] = {__VA_ARGS__};                                             \
        return run_test_list(__FILE__, names, test_functions, sizeof test_functions / sizeof test_functions[0],        \
                             group_setup, group_teardown);                                                             \
    }
#define TEST_MAIN(group_setup, group_teardown, ...) TEST_MAIN_NAMED(#__VA_ARGS__, group_setup, group_teardown, __VA_ARGS__)

#endif
