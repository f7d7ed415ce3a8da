/* The report's cache detection table (cache_detect.c): one row per
 * detection row, the value a number where it is one and the verdict in
 * words otherwise, the reference, the match, the confidence and the
 * evidence as the CSV has them; other rows left out, an invalid one a note. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache/report_detect.h"
#include "report/tests/cache_section.h"
#include "tests/test_main.h"

#include <math.h>

static const char csv[] =
    "sweep,variant,size_bytes,figure,unit,valid,params,note\n"
    "capacity,random,32768,1.35,ns,1,stride=64;elements=512,\n"
    "detect,L1d-capacity,32768,32768,B,1,level=L1d;parameter=capacity;value=32768;reference=32768;match=yes;"
    "confidence=high;evidence=capacity:1024-32768>40960,flat\n"
    "detect,L1d-replacement,,1.35,share,1,level=L1d;parameter=replacement;value=LRU-like;confidence=high;"
    "evidence=ways:1.355@8>4.877@9+stride:32768,x\n"
    "detect,L2-ways,,,ways,1,level=L2;parameter=ways;value=undetermined;reference=8;match=no;evidence=none,"
    "undetermined: no jump\n"
    "detect,L2-capacity,655360,655360,B,0,level=L2;parameter=capacity;value=655360;reference=1048576;match=no;"
    "confidence=medium;evidence=capacity:40960-655360>786432,x\n";

static const cache_cell_want cells[] = {
    {"L1d capacity", "value", "32768"},        {"L1d capacity", "unit", "B"},
    {"L1d capacity", "reference", "32768"},    {"L1d capacity", "match", "yes"},
    {"L1d capacity", "confidence", "high"},    {"L1d capacity", "evidence", "capacity:1024-32768>40960"},
    {"L1d replacement", "value", "LRU-like"},  {"L1d replacement", "evidence", "ways:1.355@8>4.877@9+stride:32768"},
    {"L2 ways", "value", "undetermined"},      {"L2 ways", "match", "no"},
    {"L2 ways", "confidence", ""},
};

static void test_detect_table(void **state)
{
    (void)state;
    cache_section s;
    const rp_table *d = cache_section_check(&s, csv, rp_cache_detect, "cache-detect", 4, cells,
                                            sizeof cells / sizeof cells[0],
                                            "Detection row L2 capacity failed verification.");
    /* a value is a number where it is one; a verdict in words is text, not
     * the share behind it */
    assert_true(cache_cell(d, "L1d capacity", "value")->num == 32768);
    assert_true(isnan(cache_cell(d, "L1d replacement", "value")->num));
    cache_section_free(&s);
}

TEST_MAIN(NULL, NULL, test_detect_table)
