/* The report's cache-model table (cache_model.c): one row per model row,
 * measured, predicted, the eq. 7.1 error, the prediction with a stride
 * prefetcher and the hit rates as the CSV has them; an invalid row's numbers left out, a model that did not run says
 * why, a flagged prediction is marked and its reason listed, and the
 * hardware counters' state becomes a note. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/report_model.h"
#include "report/tests/cache_section.h"
#include "tests/test_main.h"

static const char csv[] =
    "sweep,variant,size_bytes,figure,valid,params,flags,note\n"
    "pattern,chase,16384,2.3,1,target=L1d;accesses=131072,,\n"
    "model,chase,33554432,78.46,1,measured_ns=170.6;error_pct=54.0;hit_L1d=0.0000;hit_L2=0.0000;hit_L3=0.4863;"
    "hit_mem=0.5137,model-premise,model-premise: the model has L3 serve 49% of the accesses; "
    "perf counters unavailable: no such event; model per run: L1D read misses 131072\n"
    "model,chase,16384,1.5,1,measured_ns=2.3;error_pct=34.8;hit_L1d=1.0000;hit_L2=0.0000;hit_mem=0.0000;"
    "prefetch=stride:1:1;predicted_prefetch_ns=1.5;error_prefetch_pct=34.8,,"
    "perf counters unavailable: no such event; model per run: L1D read misses 0\n"
    "model,stride,1048576,80,0,measured_ns=9;error_pct=788.9;hit_L1d=0.0000;hit_L2=0.0000;hit_mem=1.0000,,"
    "no valid measurement to compare with\n"
    "model,stream,8192,,1,,,model not run: no memory latency detected\n";

/* an invalid row's error left out; a model that did not run says why; a
 * flagged prediction says so, and why in the flagged table */
static const cache_cell_want cells[] = {
    {"chase 16 KiB", "measured (ns)", "2.3"},
    {"chase 16 KiB", "predicted (ns)", "1.5"},
    {"chase 16 KiB", "error (%)", "34.8"},
    {"chase 16 KiB", "hit rate per level", "L1d 1.0000, L2 0.0000, mem 0.0000"},
    {"chase 16 KiB", "stride prefetcher: ns (error %)", "1.5 (34.8)"},
    {"chase 16 KiB", "verified", "yes"},
    {"chase 32 MiB", "predicted (ns)", "78.46 (flagged: model-premise)"},
    {"chase 32 MiB", "measured (ns)", "170.6"},
    {"stride 1 MiB", "verified", "NO"},
    {"stride 1 MiB", "error (%)", ""},
    {"stream 8 KiB", "hit rate per level", "model not run: no memory latency detected"},
};

static void test_model_table(void **state)
{
    (void)state;
    cache_section s;
    cache_section_check(&s, csv, rp_cache_model, "cache-model", 4, cells, sizeof cells / sizeof cells[0],
                        "Hardware counters, first model row: perf counters unavailable: no such event.");
    const rp_table *flagged = cache_section_table(&s, "flagged");
    assert_int_equal(flagged->nrows, 1);
    const char *why = cache_cell(flagged, "cache-model: chase 32 MiB", "why")->text;
    assert_true(strncmp(why, "model-premise: the model has L3 serve 49% of the accesses", 57) == 0);
    cache_section_free(&s);
}

TEST_MAIN(NULL, NULL, test_model_table)
