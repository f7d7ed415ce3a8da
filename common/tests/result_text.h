/* A result row as the writer writes it, for the tests that read it back. */
#ifndef CR_TESTS_RESULT_TEXT_H
#define CR_TESTS_RESULT_TEXT_H

#include "results.h"

#include <stdio.h>

/* The header line and r's line, as a file holds them (free() it); *len
 * its bytes. */
static inline char *result_text(const cr_result *r, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    cr_result_write_header(f);
    cr_result_write_row(f, r);
    assert_int_equal(fclose(f), 0);
    return text;
}

#endif
