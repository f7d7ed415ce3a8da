/* The CSV reader the post-processing tools share: RFC 4180 quoting,
 * comments, line numbers in every complaint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "shared/result_reader.h"

#include <math.h>
#include <string.h>

static void test_quoted_fields_and_line_numbers(void **state)
{
    (void)state;
    /* Line 1 the header, 2 a comment, 3 a row, 4-5 one row whose quoted note
     * spans two lines, 6 empty, 7 a CRLF row. */
    const char *text = "a,b,note\n"
                       "# source: a test\n"
                       "1,2.5,plain\n"
                       "3,4,\"two\nlines, \"\"quoted\"\"\"\n"
                       "\n"
                       "5,,x\r\n";
    cr_csv_table t;
    char err[256] = "";
    assert_int_equal(cr_csv_parse(&t, "t.csv", text, err, sizeof err), 0);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 3);
    assert_int_equal(t.rows[0].line, 3);
    assert_int_equal(t.rows[1].line, 4);
    assert_int_equal(t.rows[2].line, 7);
    assert_string_equal(t.rows[1].fields[2], "two\nlines, \"quoted\"");
    assert_string_equal(t.rows[2].fields[2], "x");
    assert_int_equal(cr_csv_column(&t, "note"), 2);
    assert_int_equal(cr_csv_column(&t, "nope"), -1);

    double v;
    assert_int_equal(cr_csv_number(&t, 0, 1, false, &v, err, sizeof err), 0);
    assert_true(v == 2.5);
    assert_int_equal(cr_csv_number(&t, 2, 1, true, &v, err, sizeof err), 0);
    assert_true(isnan(v));
    assert_int_equal(cr_csv_number(&t, 2, 1, false, &v, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:7: column 'b': '' is not a number");
    assert_int_equal(cr_csv_number(&t, 0, 2, false, &v, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:3: column 'note': 'plain' is not a number");

    static const char *const need[] = {"a", "missing"};
    int idx[2];
    assert_int_equal(cr_csv_require(&t, need, 2, idx, err, sizeof err), -1);
    assert_string_equal(err, "t.csv:1: no column 'missing' in the header");
    cr_csv_free(&t);
}

static void test_malformed(void **state)
{
    (void)state;
    cr_csv_table t;
    char err[256];
    assert_int_equal(cr_csv_parse(&t, "f.csv", "a,b\n1,2\n1,2,3\n", err, sizeof err), -1);
    assert_string_equal(err, "f.csv:3: 3 fields, the header has 2");
    assert_int_equal(cr_csv_parse(&t, "f.csv", "a,b\n1,\"open\n", err, sizeof err), -1);
    assert_string_equal(err, "f.csv:2: malformed quoting");
    assert_int_equal(cr_csv_parse(&t, "f.csv", "a,b\n1,x\"y\n", err, sizeof err), -1);
    assert_string_equal(err, "f.csv:2: malformed quoting");
    assert_int_equal(cr_csv_parse(&t, "f.csv", "# only a comment\n", err, sizeof err), -1);
    assert_string_equal(err, "f.csv:2: empty file: no header");
    assert_int_equal(cr_csv_load(&t, "/nonexistent/x.csv", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.csv: "));
    /* Numbers the suite never writes are rejected too. */
    assert_int_equal(cr_csv_parse(&t, "n.csv", "v\ninf\n0x10\n1e999\n", err, sizeof err), 0);
    double v;
    for (size_t i = 0; i < 3; ++i)
        assert_int_equal(cr_csv_number(&t, i, 0, false, &v, err, sizeof err), -1);
    cr_csv_free(&t);
}

static void test_params(void **state)
{
    (void)state;
    char buf[16];
    assert_true(cr_params_get("ilp=4;per_cu=16;per_cu_unit=warps", "per_cu", buf, sizeof buf));
    assert_string_equal(buf, "16");
    assert_true(cr_params_get("ilp=4;per_cu=16;per_cu_unit=warps", "per_cu_unit", buf, sizeof buf));
    assert_string_equal(buf, "warps");
    assert_false(cr_params_get("ilp=4", "il", buf, sizeof buf));
    assert_false(cr_params_get("", "ilp", buf, sizeof buf));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_fields_and_line_numbers),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
