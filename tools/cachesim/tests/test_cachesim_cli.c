/* End-to-end tests of cachesim: Crawford's command line on his L1's
 * configuration, a trace on stdin, the options beyond his, and every
 * refusal, each one line; a malformed trace is named with its line. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

/* The tools sit beside the benchmark executables' directory. */
static const char *tool = "../tools/cachesim";

/* A file of tests/, by its path in the source tree. */
static const char *source_file(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/tools/cachesim/tests/%s", CR_SOURCE_DIR, name);
    return path;
}

static void test_crawford_command_line(void **state)
{
    (void)state;
    char args[700];
    snprintf(args, sizeof args, "%s 16 128 4 LRU WTNA", source_file("fermi_l1.trace"));
    expect_output(tool, args, 0, "L1: 16 KB, 128 B lines, 4-way, 32 sets, LRU, WTNA\n",
                  "  reads 11  read misses 8  writes 2  write misses 1  write-backs 0\n",
                  "  cold 7  capacity 0  conflict 2  hit rate 0.3077\n");
}

/* The same trace from stdin, as CSV; its write-through reaches a WBWA L2
 * (the Fermi L2's 768 KB, 6-way: 1024 sets) as one write among the fills. */
static void test_stdin_csv_two_levels(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sh -c '%s/%s - 16 128 4 LRU WTNA --level 768,128,6,LRU,WBWA --csv < %s'", bin_dir,
             tool, source_file("fermi_l1.trace"));
    run_result r = run_shell(cmd);
    assert_int_equal(r.status, 0);
    /* L2 sees L1's 8 fills (line 0 twice) and 2 writes (0x84 written
     * through, 0x5000 not allocated by L1): 7 first touches miss (6 reads,
     * the write to 0x5000, which L2 allocates); line 0's second fill, the
     * write to 0x84's line and 0x5000's fill hit: 3 of 10. */
    assert_string_equal(r.out, "level,size_kb,line_b,assoc,sets,sector_b,policy,write_policy,reads,read_misses,"
                               "writes,write_misses,write_backs,cold,capacity,conflict,sector_misses,hit_rate\n"
                               "L1,16,128,4,32,128,LRU,WTNA,11,8,2,1,0,7,0,2,0,0.307692\n"
                               "L2,768,128,6,1024,128,LRU,WBWA,8,6,2,1,0,7,0,0,0,0.300000\n");
    run_free(&r);
}

/* FEED's output on cachesim's stdin is refused: one line saying error, exit 2. */
static void expect_stdin_refused(const char *feed, const char *error)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sh -c '%s | %s/%s - 16 128 4 LRU WTNA'", feed, bin_dir, tool);
    run_result r = run_shell(cmd);
    expect_error_line(&r, tool, feed, 2, error);
    run_free(&r);
}

static void test_malformed_trace_names_its_line(void **state)
{
    (void)state;
    char args[700], want[700];
    snprintf(args, sizeof args, "%s 16 128 4 LRU WTNA", source_file("bad_kind.trace"));
    snprintf(want, sizeof want, "%s:4: access kind 'Q' is neither R nor W", source_file("bad_kind.trace"));
    expect_error(tool, args, 2, want);
    expect_stdin_refused("printf \"0x0 R\\n0x4 R 1 2\\n\"", "stdin:2: 4 fields");
    /* A trace of no access (empty, or only blank lines) has no hit rate to give. */
    expect_stdin_refused("printf \"\\n\\n\"", "trace stdin holds no access: nothing to simulate");
}

/* Input without end is refused, not read until memory runs out: endless
 * bytes without a newline on stdin at the first line's limit, and a FIFO
 * given as a path at once, without waiting for a writer. */
static void test_endless_input_is_refused(void **state)
{
    (void)state;
    expect_stdin_refused("cat /dev/zero", "stdin:1: a line of more than 4096 bytes");
    char fifo[600], args[700], want[700];
    snprintf(fifo, sizeof fifo, "%s/trace.fifo", tmp);
    sh("rm -f '%s' && mkfifo '%s'", fifo, fifo);
    snprintf(args, sizeof args, "%s 16 128 4 LRU WTNA", fifo);
    snprintf(want, sizeof want, "cannot open trace %s: not a regular file", fifo);
    expect_error(tool, args, 2, want);
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    char args[700];
    snprintf(args, sizeof args, "%s 16 128 4 LRU WTNA", source_file("fermi_l1.trace"));
    expect_output_must_arrive(tool, args);
}

static void test_help(void **state)
{
    (void)state;
    expect_output(tool, "--help", 0, "usage: cachesim TRACE SIZE_KB LINE_B ASSOC LRU|MFU|LFU|Rand WTNA|WBWA",
                  "--schedule trace|warp");
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_listed_bad_inputs(tool, "tools/cachesim/tests/bad_inputs.txt");
}

/* A trace past the most accesses a trace may hold is refused at the first
 * access too many, before memory runs out, the limit named. */
static void test_trace_past_its_cap_is_refused(void **state)
{
    (void)state;
    plain_pass_only("sixteen million lines read: the reader's code runs under the sanitizers in the other cases");
    expect_stdin_refused("seq 0 16777216 | sed \"s/\\$/ R/\"", "stdin:16777217: more than 16777216 accesses (16 Mi)");
}

CLI_TEST_MAIN(test_trace_past_its_cap_is_refused, test_crawford_command_line, test_stdin_csv_two_levels, test_malformed_trace_names_its_line,
              test_endless_input_is_refused, test_help, test_bad_inputs, test_unwritable_stdout_fails)
