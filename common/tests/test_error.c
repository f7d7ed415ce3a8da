/* An error is one line of text a terminal shows as it is: a value it quotes
 * (a path, a device name, an argument) may hold a newline or any other
 * control character, an escape sequence that would recolour or rewrite the
 * terminal among them. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "error.h"

#include <stdio.h>
#include <string.h>

static void assert_printable_line(const char *s)
{
    for (; *s; ++s)
        assert_true((unsigned char)*s >= 0x20 && (unsigned char)*s != 0x7f);
}

static void test_errf_one_printable_line(void **state)
{
    (void)state;
    char err[128];
    assert_int_equal(cr_errf(err, sizeof err, "%s is not a directory", "/tmp/a\nb\r\x1b[31mred\x7f\t"), -1);
    assert_printable_line(err);
    assert_string_equal(err, "/tmp/a b ?[31mred?? is not a directory");
}

static void test_errf_keeps_utf8(void **state)
{
    (void)state;
    char err[128];
    cr_errf(err, sizeof err, "'%s'", "\xc3\xbcn\xc3\xaf \xe2\x9c\x93");
    assert_string_equal(err, "'\xc3\xbcn\xc3\xaf \xe2\x9c\x93'");
}

static void test_say_error_one_printable_line(void **state)
{
    (void)state;
    char text[256] = {0};
    FILE *saved = stderr;
    stderr = fmemopen(text, sizeof text - 1, "w");
    assert_non_null(stderr);
    cr_say_error("tool", "cannot open %s", "x\x1b]0;title\x07y");
    fclose(stderr);
    stderr = saved;
    assert_string_equal(text, "tool: error: cannot open x?]0;title?y\n");
}

TEST_MAIN(NULL, NULL, test_errf_one_printable_line, test_errf_keeps_utf8, test_say_error_one_printable_line)
