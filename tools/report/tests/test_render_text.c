/* The report's escaping, in the units that own it: text from the results
 * (a device's, a node's or a file's name, a reason) written into Markdown
 * and HTML as text, never as markup, a link or a table cell border, and a
 * link's target percent-encoded. Each writer is asked directly, character
 * class by character class. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/render_text.h"
#include "shared/md_text.h"

#include <stdio.h>
#include <stdlib.h>

/* What write() puts out for s (and pre, for a link's target). */
static char *written(void (*write)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    write(f, s);
    fclose(f);
    return buf;
}

static void expect_written(void (*write)(FILE *, const char *), const char *s, const char *want)
{
    char *got = written(write, s);
    assert_string_equal(got, want);
    free(got);
}

static void test_markdown_text_is_never_markup(void **state)
{
    (void)state;
    void (*const writers[])(FILE *, const char *) = {rp_md_text, cr_md_text};
    for (size_t i = 0; i < sizeof writers / sizeof *writers; ++i) {
        expect_written(writers[i], "GeForce RTX 4090", "GeForce RTX 4090");
        expect_written(writers[i], "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;");
        expect_written(writers[i], "a|b", "a\\|b");
        expect_written(writers[i], "[a](http://x)", "&#91;a&#93;(http://x)");
        expect_written(writers[i], "&lt;", "&amp;lt;");
        expect_written(writers[i], "two\nlines\r", "two lines ");
    }
}

static void test_html_text_is_never_markup(void **state)
{
    (void)state;
    expect_written(rp_html_text, "plain text 1.5 GB/s", "plain text 1.5 GB/s");
    expect_written(rp_html_text, "<script>x</script>", "&lt;script&gt;x&lt;/script&gt;");
    expect_written(rp_html_text, "a & b", "a &amp; b");
    expect_written(rp_html_text, "\"q\" 'q'", "&quot;q&quot; &#39;q&#39;");
}

static void link_in_dev(FILE *f, const char *name)
{
    rp_link_target(f, "opencl-0-cpu/", name);
}

static void test_link_targets_are_percent_encoded(void **state)
{
    (void)state;
    expect_written(link_in_dev, "stream-opencl.csv", "opencl-0-cpu/stream-opencl.csv");
    expect_written(link_in_dev, "a b\"<>#?%.png", "opencl-0-cpu/a%20b%22%3C%3E%23%3F%25.png");
    expect_written(link_in_dev, "sub/x~_-.csv", "opencl-0-cpu/sub/x~_-.csv");
    expect_written(link_in_dev, "\xce\xb4.csv", "opencl-0-cpu/%CE%B4.csv");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markdown_text_is_never_markup),
        cmocka_unit_test(test_html_text_is_never_markup),
        cmocka_unit_test(test_link_targets_are_percent_encoded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
