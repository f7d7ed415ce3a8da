/* Experiment design of the SFU benchmark (Li ch. 6, Tables 6.4/6.5 and
 * section 6.4; Samadi on which functions are cheap on SFUs): for every
 * function, type and version the backend has,
 *  - latency: one dependent chain x <- a*f(x, y) + b on one work-item;
 *  - throughput: --ilp independent chains per work-item, work-items doubling
 *    until the rate stops growing, the best point's row on at least 8
 *    work-groups per compute unit, and the speed-up over the precise
 *    version measured interleaved with it on that row's chains (timing.c);
 *  - accuracy against MPFR over --inputs random inputs of the typical and
 *    the wide domain (mean and max relative error, max ulp error, the
 *    specification's bound), special values and flush-to-zero probes, all
 *    computed by the chain kernel the throughput row timed (one iteration
 *    with a = 1, b = -0: the same code, vector width and build options);
 * then, per function of --partition-functions, Li's partition: the first
 * lambda of every SFU_PARTITION_UNITS units take the fast path, throughput
 * and error for each lambda. The run ends with the Table 6.4/6.5 analogue
 * (<out>/sfu-<backend>.table.csv and .md). Accuracy rows: errors.c; timed
 * rows: timing.c; what they share: state.c. */
#define _GNU_SOURCE
#include "bench_main.h"
#include "error.h"
#include "omp_env.h"
#include "sfu/errors.h"
#include "sfu/selection.h"
#include "sfu/timing.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Inputs per domain: the 100,000 by default; more than ten
 * million would hold gigabytes of references for no gain in resolution. */
#define DEFAULT_INPUTS 100000
#define MAX_INPUTS 10000000
/* A timed chain run lasts about this long: thousands of timer ticks and
 * launch overheads, short enough for the whole set to take seconds (half
 * as long with --quick, which runs every function and version in a suite
 * that should take a minute). */
#define TARGET_RUN_S 0.002
#define QUICK_TARGET_RUN_S 0.001

static const char *func_names[SFU_NFUNCS];
static const char *const type_names[CR_NDTYPES] = {"float", "double"};
/* The partition sweep of --quick: one function of each kind Samadi and Li
 * single out (trigonometric, exponential, reciprocal square root, division). */
static const char *const quick_partition = "sin,exp,rsqrt,div";

/* ---- options ---- */

static int opt_versions(void *c, const char *a, char *e, size_t l)
{
    sfu_config *cfg = c;
    unsigned bits;
    if (cr_parse_name_list(a, sfu_version_names, SFU_NVERSIONS, &bits, e, l) != 0)
        return -1;
    unsigned offered = 0;
    for (size_t i = 0; i < cfg->be->nversions; ++i)
        offered |= 1u << cfg->be->versions[i];
    if (strcmp(a, "all") == 0)
        bits = offered;
    for (int v = 0; v < SFU_NVERSIONS; ++v)
        if (((bits & ~offered) >> v) & 1u) {
            snprintf(e, l, "the %s backend has no version '%s'", cfg->be->base.name, sfu_version_names[v]);
            return -1;
        }
    cfg->versions = bits;
    return 0;
}

static int opt_inputs(void *c, const char *a, char *e, size_t l)
{
    return cr_parse_count_at_most(a, MAX_INPUTS, "inputs per domain", &((sfu_config *)c)->inputs, e, l);
}

static int opt_ilp(void *c, const char *a, char *e, size_t l)
{
    uint64_t v;
    if (cr_parse_count_at_most(a, SFU_MAX_ILP, "chains per work-item", &v, e, l) != 0)
        return -1;
    ((sfu_config *)c)->ilp = (uint32_t)v;
    return 0;
}

/* A whole number of fast units, 0..SFU_PARTITION_UNITS. */
static int parse_units(const char *text, size_t len, uint32_t *out, char *e, size_t l)
{
    char buf[24];
    if (len == 0 || len >= sizeof buf) {
        snprintf(e, l, "empty or overlong item in the lambda list");
        return -1;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    unsigned long v = strtoul(buf, &end, 10);
    if (buf[0] < '0' || buf[0] > '9' || *end != '\0' || errno == ERANGE) {
        snprintf(e, l, "'%s' is not a whole number of fast units", buf);
        return -1;
    }
    if (v > SFU_PARTITION_UNITS) {
        snprintf(e, l, "%s fast units is out of range 0..%d (lambda = units/%d)", buf, SFU_PARTITION_UNITS,
                 SFU_PARTITION_UNITS);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* "0,16,64" or "START:END:STEP" in units of 1/SFU_PARTITION_UNITS. */
static int opt_lambdas(void *c, const char *a, char *e, size_t l)
{
    sfu_config *cfg = c;
    cfg->lambdas_given = true;
    const char *colon = strchr(a, ':');
    if (colon) {
        const char *colon2 = strchr(colon + 1, ':');
        uint32_t lo, hi, step;
        if (!colon2 || parse_units(a, (size_t)(colon - a), &lo, e, l) != 0 ||
            parse_units(colon + 1, (size_t)(colon2 - colon - 1), &hi, e, l) != 0 ||
            parse_units(colon2 + 1, strlen(colon2 + 1), &step, e, l) != 0) {
            if (!colon2)
                snprintf(e, l, "'%s' is neither a list nor START:END:STEP", a);
            return -1;
        }
        if (lo > hi || step == 0) {
            snprintf(e, l, "'%s': START must not exceed END and STEP must be positive", a);
            return -1;
        }
        cfg->nlambdas = 0;
        for (uint32_t u = lo; u <= hi; u += step)
            cfg->lambdas[cfg->nlambdas++] = u;
        return 0;
    }
    if (cr_list_check(a, e, l) != 0)
        return -1;
    cfg->nlambdas = 0;
    for (const char *p = a;;) {
        size_t len = strcspn(p, ",");
        if (cfg->nlambdas == SFU_PARTITION_UNITS + 1) {
            snprintf(e, l, "more than %d lambdas", SFU_PARTITION_UNITS + 1);
            return -1;
        }
        if (parse_units(p, len, &cfg->lambdas[cfg->nlambdas++], e, l) != 0)
            return -1;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

static int opt_partition(void *c, const char *a, char *e, size_t l)
{
    sfu_config *cfg = c;
    cfg->partition_given = true;
    cfg->partition_named = strcmp(a, "all") != 0 && strcmp(a, "none") != 0;
    if (strcmp(a, "none") == 0) {
        cfg->partition_funcs = 0;
        return 0;
    }
    return cr_parse_name_list(a, func_names, SFU_NFUNCS, &cfg->partition_funcs, e, l);
}

/* "--versions" names the backend's own versions, filled in at start. */
static char versions_help[160];

static const cr_extra_option sfu_options[] = {
    CR_OPTION_NAMES("functions", "div,rcp,sqrt,rsqrt,pow,exp,log,sin,cos,exp2,log2,tan or all (default all)",
                    sfu_config, funcs, func_names),
    CR_OPTION_CALL("versions", "LIST", versions_help, opt_versions),
    CR_OPTION_NAMES("types", "float,double (default both; double: Li's div, rcp, sqrt, rsqrt)", sfu_config, types,
                    type_names),
    CR_OPTION_CALL("inputs", "N", "random inputs per accuracy domain (default 100000, at most 10000000)", opt_inputs),
    CR_OPTION_CALL("ilp", "E", "independent chains per work-item in the throughput runs, 1..8 (default 8)", opt_ilp),
    CR_OPTION_CALL("lambdas", "LIST",
                   "fast units out of 64 of the partition sweep: 0,16,64 or START:END:STEP (default 0:64:8)",
                   opt_lambdas),
    CR_OPTION_CALL("partition-functions", "LIST",
                   "functions of the partition sweep, or none (default all; quick sin,exp,rsqrt,div)", opt_partition),
};
#define N_SFU_OPTIONS (sizeof sfu_options / sizeof sfu_options[0])

/* ---- the run ---- */

static bool selected(unsigned bits, int i) { return (bits >> i) & 1u; }

static int unsupported_row(sfu_state *s, sfu_version v, const char *why)
{
    cr_result row;
    sfu_init_version_row(s, &row, v, "support");
    cr_result_unmeasured(&row);
    snprintf(row.stop, sizeof row.stop, "unsupported");
    snprintf(row.note, sizeof row.note, "%s", why);
    return cr_session_record(&s->ses, &row);
}

/* Every measurement of one version, its summary entry filled as they come. */
static int run_version(sfu_state *s, sfu_version v)
{
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    *e = (sfu_summary_entry){.present = true, .valid = true, .registers = -1, .latency_ns = NAN,
                             .latency_cycles = NAN, .mean_rel = NAN, .max_rel = NAN, .max_ulp = NAN,
                             .max_ulp_wide = NAN, .bound_ulp = NAN, .gops = NAN, .per_cu_gops = NAN,
                             .speedup = NAN};
    sfu_kernel k = sfu_plain_kernel(s, v);
    e->registers = s->be->registers(&k);
    /* Throughput first: the errors are measured with the code of the
     * kernel its row timed. */
    if (sfu_latency_row(s, v) != 0)
        return -1;
    /* The throughput row is a headline, and it may be the best point of
     * the concurrency sweep itself: the whole sweep is judged as one. */
    s->meas.rule.headline = true;
    int rc = sfu_throughput_rows(s, v);
    s->meas.rule.headline = false;
    if (rc != 0 || sfu_accuracy_rows(s, v) != 0 || sfu_special_row(s, v) != 0)
        return -1;
    return 0;
}

static int run_function(sfu_state *s)
{
    if (!sfu_in_type(s->f, s->t))
        return 0;
    bool prepared = false;
    char err[CR_ERRLEN];
    for (size_t i = 0; i < s->be->nversions; ++i) {
        sfu_version v = s->be->versions[i];
        if (!selected(s->cfg.versions, v))
            continue;
        if (s->be->supports(s->f, s->t, v, err, sizeof err) != CR_OK) {
            if (unsupported_row(s, v, err) != 0)
                return -1;
            continue;
        }
        if (!prepared)
            sfu_prepare_function(s);
        prepared = true;
        if (run_version(s, v) != 0)
            return -1;
    }
    if (selected(s->cfg.partition_funcs, s->f) && s->cfg.nlambdas > 0) {
        if (!prepared)
            sfu_prepare_function(s);
        if (sfu_partition_rows(s) != 0)
            return -1;
    }
    return 0;
}

/* Every buffer the run owns, for the check after allocating and for the
 * release. */
#define N_OWNED 11
static void owned(const sfu_state *s, void *p[N_OWNED])
{
    void *all[N_OWNED] = {s->typ_x, s->typ_y, s->typ_ref, s->wide_x, s->wide_y, s->wide_ref,
                          s->got, s->io_x, s->io_y, s->io_out, s->io_sum};
    memcpy(p, all, sizeof all);
}

static int allocate(sfu_state *s)
{
    s->n = (size_t)s->cfg.inputs;
    s->cap = s->n > SFU_CHAIN_SAMPLES ? s->n : SFU_CHAIN_SAMPLES;
    if (s->cap < SFU_MAX_PROBED)
        s->cap = SFU_MAX_PROBED;
    /* Evaluations run on chain kernels, in whole work-groups of chains. */
    s->io_cap = s->cap + (size_t)s->work_group * SFU_MAX_ILP;
    size_t inputs = s->n * sizeof(double), refs = s->n * sizeof(sfu_exact_value), room = s->cap * sizeof(double),
           io = s->io_cap * sizeof(double);
    s->typ_x = malloc(inputs);
    s->typ_y = malloc(inputs);
    s->typ_ref = malloc(refs);
    s->wide_x = malloc(inputs);
    s->wide_y = malloc(inputs);
    s->wide_ref = malloc(refs);
    s->got = malloc(room);
    s->io_x = malloc(io);
    s->io_y = malloc(io);
    s->io_out = malloc(io);
    s->io_sum = malloc(io);
    void *p[N_OWNED];
    owned(s, p);
    for (size_t i = 0; i < N_OWNED; ++i)
        if (!p[i]) {
            fprintf(stderr, "%s: error: out of memory for %zu inputs\n", s->ses.opt.program, s->n);
            return -1;
        }
    return 0;
}

static int run_all(sfu_state *s)
{
    for (int t = 0; t < CR_NDTYPES; ++t)
        for (int f = 0; f < SFU_NFUNCS; ++f) {
            if (!selected(s->cfg.types, t) || !selected(s->cfg.funcs, f))
                continue;
            s->f = (sfu_func)f;
            s->t = (cr_dtype)t;
            if (run_function(s) != 0)
                return -1;
        }
    return 0;
}

static void default_config(sfu_config *cfg, const sfu_backend *be)
{
    unsigned offered = 0;
    for (size_t i = 0; i < be->nversions; ++i)
        offered |= 1u << be->versions[i];
    *cfg = (sfu_config){.funcs = (1u << SFU_NFUNCS) - 1, .versions = offered, .types = (1u << CR_NDTYPES) - 1,
                        .partition_funcs = (1u << SFU_NFUNCS) - 1, .inputs = DEFAULT_INPUTS, .ilp = SFU_MAX_ILP,
                        .be = be};
    for (uint32_t u = 0; u <= SFU_PARTITION_UNITS; u += SFU_PARTITION_UNITS / 8)
        cfg->lambdas[cfg->nlambdas++] = u;
}

/* The option names that come from the function table and the backend. */
static void name_options(const sfu_backend *be)
{
    for (int f = 0; f < SFU_NFUNCS; ++f)
        func_names[f] = sfu_functions[f].name;
    size_t used = 0;
    for (size_t i = 0; i < be->nversions && used < sizeof versions_help; ++i)
        used += (size_t)snprintf(versions_help + used, sizeof versions_help - used, "%s%s", i ? "," : "",
                                 sfu_version_names[be->versions[i]]);
    if (used < sizeof versions_help)
        snprintf(versions_help + used, sizeof versions_help - used, " or all (default all)");
}

/* Which of the selecting options were given. */
static sfu_given given_options(const sfu_state *s)
{
    const cr_options *o = &s->ses.opt;
    return (sfu_given){cr_option_given(o, sfu_options, N_SFU_OPTIONS, "types"),
                       cr_option_given(o, sfu_options, N_SFU_OPTIONS, "functions"),
                       cr_option_given(o, sfu_options, N_SFU_OPTIONS, "versions")};
}

static int parsed(void *state)
{
    sfu_state *s = state;
    if (s->cfg.lambdas_given && s->cfg.partition_given && s->cfg.partition_funcs == 0)
        return cr_fail_usage(&s->ses, "--lambdas: --partition-functions none runs no partition sweep to use them in");
    /* A partition sweep runs per function measured: one of a function left
     * out would be dropped unsaid. */
    for (int f = 0; s->cfg.partition_named && f < SFU_NFUNCS; ++f)
        if (selected(s->cfg.partition_funcs, f) && !selected(s->cfg.funcs, f))
            return cr_fail_usage(&s->ses,
                                 "--partition-functions: %s is not one of --functions, so its partition sweep "
                                 "would not run",
                                 func_names[f]);
    if (s->ses.opt.quick && !s->cfg.partition_given) {
        char err[CR_ERRLEN];
        cr_parse_name_list(quick_partition, func_names, SFU_NFUNCS, &s->cfg.partition_funcs, err, sizeof err);
    }
    return sfu_check_selection(s, given_options(s), s->be->has, "");
}

static int plan(void *state, cr_meta *meta)
{
    sfu_state *s = state;
    int rc = sfu_check_selection(s, given_options(s), s->be->supports, " on this device");
    if (rc >= 0)
        return rc;
    s->target_s = s->ses.opt.quick ? QUICK_TARGET_RUN_S : TARGET_RUN_S;
    s->be->geometry(&s->lane_work_items, &s->work_group, &s->max_work_items, &s->unit_size);
    cr_meta_set(meta, "lane_work_items", "%" PRIu64, s->lane_work_items);
    cr_meta_set(meta, "work_group", "%" PRIu64, s->work_group);
    cr_meta_set(meta, "max_work_items", "%" PRIu64, s->max_work_items);
    cr_meta_set(meta, "partition_unit", "%s of %" PRIu64 " work-items", s->be->unit_name, s->unit_size);
    cr_meta_set(meta, "ilp", "%u", s->cfg.ilp);
    cr_meta_set(meta, "inputs_per_domain", "%" PRIu64, s->cfg.inputs);
    cr_meta_set(meta, "target_run_s", "%g", s->target_s);
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
    return -1;
}

static int run_design(void *state)
{
    sfu_state *s = state;
    cr_session *ses = &s->ses;
    if (allocate(s) != 0)
        return CR_EXIT_FAILED;
    cr_session_measure_init(ses, &s->meas, true);
    if (run_all(s) != 0)
        return CR_EXIT_FAILED;
    char err[CR_ERRLEN];
    sfu_summary_flag_unbacked(&s->summary);
    if (sfu_summary_table_write(ses->base, &s->summary, s->be->versions, s->be->nversions, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: the summary table: %s\n", ses->opt.program, err);
        return CR_EXIT_FAILED;
    }
    if (!ses->opt.csv_stdout)
        printf("# summary (Li Tables 6.4/6.5 analogue): %s.table.md\n", ses->base);
    return -1;
}

static void release(void *state)
{
    void *p[N_OWNED];
    owned(state, p);
    for (size_t i = 0; i < N_OWNED; ++i)
        free(p[i]);
}

int sfu_main(int argc, char **argv, const sfu_backend *backend)
{
    name_options(backend);
    static sfu_state s;
    memset(&s, 0, sizeof s);
    s.be = backend;
    default_config(&s.cfg, backend);
    const cr_design design = {
        .benchmark = "sfu",
        .summary = "Special-function throughput, latency and accuracy of fast and precise math, and the fast/precise "
                   "partition trade-off (Li ch. 6).",
        .options = sfu_options,
        .n_options = N_SFU_OPTIONS,
        .config = &s.cfg,
        .session = &s.ses,
        .state = &s,
        .quiet_omp_waits = true,
        .parsed = parsed,
        .plan = plan,
        .run = run_design,
        .release = release,
    };
    return cr_bench_main(argc, argv, &design, &backend->base);
}
