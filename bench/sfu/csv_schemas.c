/* What the shared reader knows of the files sfu writes beside its results:
 * sfu-<backend>.table.csv, the summary table (summary_table.c's columns). */
#include "shared/csv_schema.h"

static const cr_column_spec sfu_table_cols[] = {
    {"func", CR_TEXT, CR_NEVER_EMPTY},
    {"math", CR_TEXT, CR_MAY_BE_EMPTY},
    {"dtype", CR_TEXT, CR_MAY_BE_EMPTY},
    {"version", CR_TEXT, CR_MAY_BE_EMPTY},
    {"latency_ns", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"latency_cycles", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"mean_rel_err", CR_ERROR, CR_MAY_BE_EMPTY},
    {"max_rel_err", CR_ERROR, CR_MAY_BE_EMPTY},
    {"max_ulp", CR_ERROR, CR_MAY_BE_EMPTY},
    {"max_ulp_wide", CR_ERROR, CR_MAY_BE_EMPTY},
    {"bound_ulp", CR_ERROR, CR_MAY_BE_EMPTY},
    {"ftz", CR_TEXT, CR_MAY_BE_EMPTY},
    {"registers", CR_COUNT, CR_MAY_BE_EMPTY},
    {"throughput_Gops", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"per_cu_Gops", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"speedup_vs_precise", CR_NUMBER, CR_MAY_BE_EMPTY},
    {"valid", CR_FLAG, CR_NEVER_EMPTY},
    {"flags", CR_TEXT, CR_ADDED_LATER},
    {"note", CR_TEXT, CR_ADDED_LATER},
};
static const cr_csv_schema table_schema = {"the SFU summary table", sfu_table_cols,
                                           sizeof sfu_table_cols / sizeof sfu_table_cols[0], false, NULL, 0};

static const cr_extra_schema extras[] = {{"sfu", "table", &table_schema}};
const cr_bench_part cr_csv_schemas_sfu = {extras, sizeof extras / sizeof extras[0]};
