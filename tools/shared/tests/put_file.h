/* A small file written whole into a test's scratch directory: the fixtures
 * of the tools' tests are short texts put where a run would leave them.
 * Include after cmocka.h. */
#ifndef CR_PUT_FILE_H
#define CR_PUT_FILE_H

#include <stdio.h>

/* dir/name holds text, or the test fails. */
static inline void put_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

#endif
