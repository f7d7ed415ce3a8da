/* The report's escaping, in the units that own it: text from the results
 * (a device's, a node's or a file's name, a reason) written into Markdown
 * and HTML as text, never as markup, a link (GitHub's automatic ones
 * too) or a table cell border, bytes of no UTF-8 character and control
 * characters as visible escapes, and a link's target percent-encoded. Each writer is asked directly, character
 * class by character class. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/render_text.h"
#include "shared/md_text.h"
#include "tests/test_main.h"

#include <stdio.h>

typedef void (*writer)(FILE *, const char *);

static void link_in_dev(FILE *f, const char *name)
{
    rp_link_target(f, "opencl-0-cpu/", name);
}

/* What a writer makes of some text, and what it must make. */
static const struct {
    writer write;
    const char *text, *want;
} cases[] = {
    /* Markdown, the report's and the cluster report's: no tag, no cell
     * border, no link, one line. */
    {rp_md_text, "GeForce RTX 4090", "GeForce RTX 4090"},
    {rp_md_text, "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
    {cr_md_text, "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
    {cr_md_text, "a|b", "a\\|b"},
    {rp_md_text, "[a](http://x)", "&#91;a&#93;(http&#58;//x)"},
    {cr_md_text, "&lt;", "&amp;lt;"},
    {cr_md_text, "two\nlines\r", "two lines "},
    {cr_md_text, "*x* `y` ~~z~~ a\\b", "&#42;x&#42; &#96;y&#96; &#126;&#126;z&#126;&#126; a&#92;b"},
    {cr_md_text, "pthread-skylake_avx512", "pthread-skylake&#95;avx512"},
    /* Emphasis by underscores, and text GitHub would make a link. */
    {cr_md_text, "_x_ __y__", "&#95;x&#95; &#95;&#95;y&#95;&#95;"},
    {cr_md_text, "see https://a.b, ftp://c and www.d.e", "see https&#58;//a.b, ftp&#58;//c and www&#46;d.e"},
    {cr_md_text, "WWW.x a@b.c 10:30 x.y", "WWW&#46;x a&#64;b.c 10:30 x.y"},
    /* A name's bytes that are no UTF-8 (a folder's, a node's) as U+FFFD,
     * its control characters as \xNN, its characters as they are. */
    {cr_md_text, "bad\xff\xc3(", "bad\xef\xbf\xbd\xef\xbf\xbd("},
    {cr_md_text, "dev\x01ice\x7f \x1b[31m", "dev&#92;x01ice&#92;x7f &#92;x1b&#91;31m"},
    {rp_md_text, "c1\xc2\x85 \xce\xb4 \xf0\x9f\x98\x80", "c1&#92;xc2&#92;x85 \xce\xb4 \xf0\x9f\x98\x80"},
    {cr_md_text, "cut \xe2\x82", "cut \xef\xbf\xbd\xef\xbf\xbd"},
    /* HTML: the five characters that mean markup. */
    {rp_html_text, "plain text 1.5 GB/s", "plain text 1.5 GB/s"},
    {rp_html_text, "<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"},
    {rp_html_text, "a & b", "a &amp; b"},
    {rp_html_text, "\"q\" 'q'", "&quot;q&quot; &#39;q&#39;"},
    {rp_html_text, "bad\xff<\xed\xa0\x80", "bad\xef\xbf\xbd&lt;\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
    {rp_html_text, "dev\x1b[31m\x08 \xc2\x9b \xce\xb4", "dev\\x1b[31m\\x08 \\xc2\\x9b \xce\xb4"},
    /* A link's target: every byte but [A-Za-z0-9-._~/] percent-encoded. */
    {link_in_dev, "stream-opencl.csv", "opencl-0-cpu/stream-opencl.csv"},
    {link_in_dev, "a b\"<>#?%.png", "opencl-0-cpu/a%20b%22%3C%3E%23%3F%25.png"},
    {link_in_dev, "sub/x~_-.csv", "opencl-0-cpu/sub/x~_-.csv"},
    {link_in_dev, "\xce\xb4.csv", "opencl-0-cpu/%CE%B4.csv"},
};

static void test_text_from_the_results_is_never_markup(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char got[512] = "";
        FILE *f = fmemopen(got, sizeof got - 1, "w");
        assert_non_null(f);
        cases[i].write(f, cases[i].text);
        fclose(f);
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("case %zu: '%s' written as '%s', not '%s'", i, cases[i].text, got, cases[i].want);
    }
}

TEST_MAIN(NULL, NULL, test_text_from_the_results_is_never_markup)
