/* The main() of a test program, its tests listed once:
 *     TEST_MAIN(group_setup, group_teardown, test_a, test_b, ...)
 * runs them in that order as one cmocka group named after the source file
 * (NULL for no group setup or teardown). Each test is reported under its
 * function's name, read from the list as the preprocessor spells it, so
 * that a name and its function cannot drift apart. Include after cmocka.h.
 * CR_TEST_FILTER (a cmocka pattern) picks some tests of a program. */
#ifndef CR_TEST_MAIN_H
#define CR_TEST_MAIN_H

#include <stdlib.h>
#include <string.h>

/* names: the n functions' names, "test_a, test_b". */
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
    char *p = split;
    for (size_t i = 0; i < n; ++i) {
        p += strspn(p, ", \t\n");
        tests[i].name = p;
        tests[i].test_func = functions[i];
        p += strcspn(p, ", \t\n");
        if (*p)
            *p++ = '\0';
    }
    const char *group = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    /* CR_TEST_FILTER=test_bad_inputs (a pattern, * and ? allowed) runs only
     * the tests it names: an end-to-end program takes minutes in full. */
    if (getenv("CR_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CR_TEST_FILTER"));
    int failed = _cmocka_run_group_tests(group, tests, n, group_setup, group_teardown);
    free(tests);
    free(split);
    return failed;
}

#define TEST_MAIN(group_setup, group_teardown, ...)                                                                    \
    int main(void)                                                                                                     \
    {                                                                                                                  \
        static const CMUnitTestFunction test_functions[] = {__VA_ARGS__};                                             \
        return run_test_list(__FILE__, #__VA_ARGS__, test_functions, sizeof test_functions / sizeof test_functions[0], \
                             group_setup, group_teardown);                                                             \
    }

#endif
