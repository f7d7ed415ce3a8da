/* cachesim against mutants of real traces: Crawford's Fermi L1 trace and
 * one with every access's work-group, warp and instruction. Each mutant is
 * read in memory as a trace and, where it reads, simulated on two levels
 * with the warp scheduler and its coalescer and with the trace's own
 * order: read or refused with one line, never a crash or a hang (under
 * ASan and UBSan in make check), and a simulation of what was read counts
 * every access it read. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cachesim/cli.h"
#include "cachesim/simulate.h"
#include "cachesim/trace.h"
#include "shared/tests/fuzz.h"
#include "tests/test_main.h"

static fuzz_buf traces[2];
static const char *const trace_names[] = {"fermi_l1.trace", "origins.trace"};

/* A trace in the five-field form: 3 work-groups of 4 warps, strided and
 * repeated addresses, reads and writes. */
static fuzz_buf origins_trace(void)
{
    fuzz_buf b = {NULL, 0};
    FILE *f = open_memstream(&b.bytes, &b.len);
    assert_non_null(f);
    fputs("# address kind work-group warp instruction\n", f);
    for (unsigned i = 0; i < 96; ++i)
        fprintf(f, "0x%x %c %u %u %u\n", (i * 36) % 4096, i % 5 ? 'R' : 'W', i % 3, (i / 3) % 4, i / 12);
    fclose(f);
    return b;
}

/* With the warp scheduler the L1 prefetches by stride, with the trace's
 * own order line by line: every mutant meets both prefetchers too. */
static void options(cs_cli_options *o, bool warps)
{
    char *argv[] = {"cachesim", "-", "16", "128", "4", "LRU", "WTNA", "--level", "64,128,8,Rand,WBWA",
                    "--schedule", warps ? "warp" : "trace", "--prefetch", warps ? "stride:4:2" : "next-line:2", NULL};
    char err[256];
    if (cs_cli_parse(13, argv, o, err, sizeof err) != 0)
        fail_msg("options: %s", err);
}

static int read_and_simulate(void *ctx, fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen,
                             const char **what)
{
    (void)ctx;
    size_t which = fuzz_below(r, 2);
    *what = trace_names[which];
    fuzz_buf m = fuzz_mutant(r, &traces[which]);
    /* fmemopen wants a buffer of at least a byte. */
    FILE *in = fmemopen(m.len ? m.bytes : (char[1]){0}, m.len ? m.len : 1, "r");
    assert_non_null(in);
    cs_trace t = {0};
    int rc = cs_trace_read(in, *what, &t, err, errlen);
    fclose(in);
    for (int warps = 0; rc == 0 && warps < 2; ++warps) {
        cs_cli_options o;
        options(&o, warps);
        cs_hierarchy h;
        cs_sim_summary sum;
        if (cs_simulate(&t, &o.sim, &h, &sum) != 0)
            fail_msg("seed %llu, mutant %zu: out of memory simulating %zu accesses", (unsigned long long)f->seed, i,
                     t.count);
        if (sum.accesses != t.count)
            fail_msg("seed %llu, mutant %zu: %zu accesses simulated of %zu read", (unsigned long long)f->seed, i,
                     sum.accesses, t.count);
        cs_hierarchy_free(&h);
    }
    cs_trace_free(&t);
    free(m.bytes);
    return rc;
}

static void test_mutated_traces_read_or_refused(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/tools/cachesim/tests/%s", CR_SOURCE_DIR, trace_names[0]);
    traces[0] = fuzz_read(path);
    traces[1] = origins_trace();
    fuzz_drive("cachesim traces", 4000, 8, read_and_simulate, NULL);
    free(traces[0].bytes);
    free(traces[1].bytes);
}

TEST_MAIN(NULL, NULL, test_mutated_traces_read_or_refused)
