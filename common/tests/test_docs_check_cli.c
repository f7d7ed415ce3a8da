/* common/tests/doc_names.sh (make docs-check) end to end: on small trees
 * made here, and on a copy of this tree's documents and sources with one
 * wrong path planted. Every path, source name and link the documents give
 * that the tree lacks is one line, DOC:LINE: what, and the exit status 1;
 * build and run outputs, placeholders that match, and fenced commands
 * pass. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#define CHECK CR_SOURCE_DIR "/common/tests/doc_names.sh"

#include "tests/check_script.h"

/* A tree whose three documents name only what it has: a path, a folder, a
 * placeholder and a glob that match, a bare file name, a call and a
 * prefixed symbol of its sources, links with anchors, build and run
 * outputs, and a fenced command naming a file that is not there. */
static void make_tree(void)
{
    sh("rm -rf %s/tree && mkdir -p %s/tree", tmp, tmp);
    put("common/session.c", "int cr_session_record(void) { return CR_OK; }\n");
    put("bench/stream/design.c", "static int plan(void) { return 0; }\n");
    put("tools/run/options.sh", "parse_options() { :; }\n");
    put("results/reference/README.md", "# Reference data\n");
    put("README.md", "# crossroof\n\n"
                     "The design is `bench/stream/design.c`, the steps of a run `tools/run/`\n"
                     "and `tools/run/*.sh`; each benchmark has `bench/<b>/design.c` and a `design.c`.\n"
                     "A row goes through `cr_session_record()`, which returns `CR_OK`.\n"
                     "Runs go to `results/<UTC date>-<host>/` and `results/crossroof.db`, the\n"
                     "executables to `build/bin/stream-opencl`; the theses' tables are in\n"
                     "`results/reference/README.md`. See [the rules](docs/rules.md#the-stopping-rule).\n\n"
                     "```sh\n"
                     "build/tools/report results/RUN && cat `common/nowhere.c`\n"
                     "```\n");
    put("ARCHITECTURE.md", "# How it is built\n\n## Layers\n\nBack to [the top](#how-it-is-built) or "
                           "[the rules](docs/rules.md), `gnuplot -c tools/run/options.sh\nDIR/x.csv`.\n");
    put("docs/rules.md", "# Rules\n\n## The stopping rule\n\nAs in [README.md](../README.md#crossroof).\n");
}

/* The check refuses the tree with exactly one line on stderr per text,
 * each holding its text, then the count. */
static void expect_refusals_(const char *const *texts, size_t n)
{
    run_result r = check_tree();
    if (r.status != 1 || count_lines(r.err) != (int)n + 1)
        fail_msg("status %d (want 1), %d lines on stderr (want %zu):\n%s", r.status, count_lines(r.err), n + 1,
                 r.err);
    expect_all_in_(r.err, texts, n);
    char last[64];
    snprintf(last, sizeof last, "docs check: %zu name(s) the documents give are not in the tree", n);
    expect_in(r.err, last);
    run_free(&r);
}
#define expect_refusals(...) expect_refusals_(TEXTS(__VA_ARGS__))

static void test_documents_naming_what_the_tree_has_pass(void **state)
{
    (void)state;
    make_tree();
    expect_check_passes("docs check: 3 documents, 7 paths, 2 names of the sources, 4 links: every one found");
}

static void test_a_path_the_tree_lacks_is_refused(void **state)
{
    (void)state;
    make_tree();
    put("docs/rules.md", "# Rules\n\nThe verdict is `bench/stream/verdict.c`.\n\n## The stopping rule\n");
    expect_refusals("docs/rules.md:3: no such file or folder in the tree: bench/stream/verdict.c");
}

/* A placeholder must match a file; a name with a slash at its end must
 * be a folder; a bare name of source must be some file's. */
static void test_placeholders_folders_and_bare_names_are_checked(void **state)
{
    (void)state;
    make_tree();
    put("docs/rules.md", "# Rules\n\n`bench/<b>/truth.c`, `common/session.c/` and\n`truth.c`.\n\n## The stopping rule\n");
    expect_refusals("docs/rules.md:3: no such file or folder in the tree: bench/*/truth.c (`bench/<b>/truth.c`)",
                    "docs/rules.md:3: no such file or folder in the tree: common/session.c/",
                    "docs/rules.md:4: no file of this name in the tree: truth.c");
}

static void test_a_name_the_sources_lack_is_refused(void **state)
{
    (void)state;
    make_tree();
    put("ARCHITECTURE.md", "# How\n\nIt calls `cr_session_start()`, then `cr_table_add`, and\n`plan()`.\n");
    expect_refusals("ARCHITECTURE.md:3: not a name of the sources: cr_session_start",
                    "ARCHITECTURE.md:3: not a name of the sources: cr_table_add");
}

static void test_a_link_to_nothing_is_refused(void **state)
{
    (void)state;
    make_tree();
    put("docs/rules.md",
        "# Rules\n\n[one](../docs/gone.md), [two](../README.md#gone) and\n[three](#rules-1).\n\n## The stopping rule\n");
    expect_refusals("docs/rules.md:3: link to a file that is not there: ../docs/gone.md",
                    "docs/rules.md:3: link to a heading that is not there: ../README.md#gone",
                    "docs/rules.md:4: link to a heading that is not there: #rules-1");
}

/* This tree passes; with one path of ARCHITECTURE.md spelt wrong, it does
 * not, and that one line names it. */
static void test_a_wrong_path_planted_in_this_tree_is_caught(void **state)
{
    (void)state;
    copy_this_tree("README.md ARCHITECTURE.md docs common bench tools opencl cuda plot Makefile run_all.sh .ci");
    sh("mkdir -p %s/tree/results && cd '%s' && cp -r results/README.md results/reference %s/tree/results", tmp,
       CR_SOURCE_DIR, tmp);
    expect_check_passes("every one found");
    sh("grep -q '`common/measure_group.c`' %s/tree/ARCHITECTURE.md", tmp);
    sh("sed -i 's|`common/measure_group.c`|`common/measure_groups.c`|' %s/tree/ARCHITECTURE.md", tmp);
    run_result r = check_tree();
    assert_int_equal(r.status, 1);
    expect_all_in(r.err, "ARCHITECTURE.md:", ": no such file or folder in the tree: common/measure_groups.c");
    run_free(&r);
}

CLI_TEST_MAIN(test_documents_naming_what_the_tree_has_pass, test_a_path_the_tree_lacks_is_refused,
              test_placeholders_folders_and_bare_names_are_checked, test_a_name_the_sources_lack_is_refused,
              test_a_link_to_nothing_is_refused, test_a_wrong_path_planted_in_this_tree_is_caught,
              test_a_root_that_is_no_directory_is_refused)
