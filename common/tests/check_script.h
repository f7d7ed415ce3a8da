/* What the end-to-end tests of the tree's check scripts share
 * (common/tests/include_cycles.sh, common/tests/doc_names.sh): a small tree
 * written under tmp/tree or a copy of this one, the script run on it with
 * --root, its passing a tree, and its refusal of a root that is no
 * directory. Include after tests/cli_harness.h, with CHECK defined as the
 * script's path. */
#ifndef CR_TESTS_CHECK_SCRIPT_H
#define CR_TESTS_CHECK_SCRIPT_H

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

/* tmp/tree/PATH holds text (folders made as needed). */
static void put(const char *path, const char *text)
{
    char full[512];
    snprintf(full, sizeof full, "%s/tree/%s", tmp, path);
    sh("mkdir -p \"$(dirname '%s')\"", full);
    FILE *f = fopen(full, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* tmp/tree as a copy of what this tree has of entries (space-separated). */
static void copy_this_tree(const char *entries)
{
    sh("rm -rf %s/tree && mkdir -p %s/tree && cd '%s' && cp -r %s %s/tree", tmp, tmp, CR_SOURCE_DIR, entries, tmp);
}

static run_result check_tree(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --root %s/tree", CHECK, tmp);
    return run_shell(cmd);
}

/* The script passes tmp/tree: status 0, nothing on stderr, each text on
 * stdout. */
static void expect_check_passes_(const char *const *texts, size_t n)
{
    run_result r = check_tree();
    if (r.status != 0)
        fail_msg("status %d, stderr:\n%s", r.status, r.err);
    expect_all_in_(r.out, texts, n);
    assert_string_equal(r.err, "");
    run_free(&r);
}
#define expect_check_passes(...) expect_check_passes_(TEXTS(__VA_ARGS__))

static void test_a_root_that_is_no_directory_is_refused(void **state)
{
    (void)state;
    run_result r = run_shell(CHECK " --root /nonexistent/tree");
    assert_int_equal(r.status, 2);
    expect_in(r.err, "cannot enter /nonexistent/tree");
    run_free(&r);
}

#endif
