/* Experiment design of the SFU benchmark (Li ch. 6, Tables 6.4/6.5 and
 * section 6.4; Samadi on which functions are cheap on SFUs): for every
 * function, type and version the backend has,
 *  - accuracy against MPFR over --inputs random inputs of the typical and
 *    the wide domain (mean and max relative error, max ulp error, the
 *    specification's bound), special values and flush-to-zero probes;
 *  - latency: one dependent chain x <- a*f(x, y) + b on one work-item;
 *  - throughput: --ilp independent chains per work-item, work-items doubling
 *    until the rate stops growing;
 * then, per function of --partition-functions, Li's partition: the first
 * lambda of every SFU_PARTITION_UNITS units take the fast path, throughput
 * and error for each lambda. The run ends with the Table 6.4/6.5 analogue
 * (<out>/sfu-<backend>.table.csv and .md). Accuracy rows: sfu_errors.c;
 * timed rows: sfu_timing.c. */
#define _GNU_SOURCE
#include "sfu_design.h"

#include "omp_env.h"

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
/* The half_ functions' bound in the OpenCL specification (section 7.4). */
#define HALF_BOUND_ULP 8192

static const char *func_names[SFU_NFUNCS];
static const char *const type_names[CR_NDTYPES] = {"float", "double"};
/* The partition sweep of --quick: one function of each kind Samadi and Li
 * single out (trigonometric, exponential, reciprocal square root, division). */
static const char *const quick_partition = "sin,exp,rsqrt,div";

/* ---- options ---- */

static int opt_functions(void *c, const char *a, char *e, size_t l)
{
    return cr_parse_name_list(a, func_names, SFU_NFUNCS, &((sfu_config *)c)->funcs, e, l);
}

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
            snprintf(e, l, "the %s backend has no version '%s'", cfg->be->name, sfu_version_names[v]);
            return -1;
        }
    cfg->versions = bits;
    return 0;
}

static int opt_types(void *c, const char *a, char *e, size_t l)
{
    return cr_parse_name_list(a, type_names, CR_NDTYPES, &((sfu_config *)c)->types, e, l);
}

static int opt_inputs(void *c, const char *a, char *e, size_t l)
{
    sfu_config *cfg = c;
    if (cr_parse_count(a, &cfg->inputs, e, l) != 0)
        return -1;
    if (cfg->inputs > MAX_INPUTS) {
        snprintf(e, l, "%" PRIu64 " inputs per domain is above %d", cfg->inputs, MAX_INPUTS);
        return -1;
    }
    return 0;
}

static int opt_ilp(void *c, const char *a, char *e, size_t l)
{
    uint64_t v;
    if (cr_parse_count(a, &v, e, l) != 0)
        return -1;
    if (v > SFU_MAX_ILP) {
        snprintf(e, l, "%" PRIu64 " chains per work-item is above %d", v, SFU_MAX_ILP);
        return -1;
    }
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
    if (strcmp(a, "none") == 0) {
        cfg->partition_funcs = 0;
        return 0;
    }
    return cr_parse_name_list(a, func_names, SFU_NFUNCS, &cfg->partition_funcs, e, l);
}

/* "--versions" names the backend's own versions, filled in at start. */
static char versions_help[160];

static const cr_extra_option sfu_options[] = {
    {"functions", "LIST", "div,rcp,sqrt,rsqrt,pow,exp,log,sin,cos,exp2,log2,tan or all (default all)", opt_functions},
    {"versions", "LIST", versions_help, opt_versions},
    {"types", "LIST", "float,double (default both; double: Li's div, rcp, sqrt, rsqrt)", opt_types},
    {"inputs", "N", "random inputs per accuracy domain (default 100000, at most 10000000)", opt_inputs},
    {"ilp", "E", "independent chains per work-item in the throughput runs, 1..8 (default 8)", opt_ilp},
    {"lambdas", "LIST", "fast units out of 64 of the partition sweep: 0,16,64 or START:END:STEP (default 0:64:8)",
     opt_lambdas},
    {"partition-functions", "LIST",
     "functions of the partition sweep, or none (default all; quick sin,exp,rsqrt,div)", opt_partition},
};
#define N_SFU_OPTIONS (sizeof sfu_options / sizeof sfu_options[0])

/* ---- shared by the design's parts ---- */

void sfu_init_row(const sfu_state *s, cr_result *r, const char *variant, const char *sweep)
{
    *r = (cr_result){.valid = true, .ref_ratio = NAN, .figure = NAN, .figure_best = NAN};
    snprintf(r->benchmark, sizeof r->benchmark, "sfu");
    snprintf(r->backend, sizeof r->backend, "%s", s->be->name);
    snprintf(r->device, sizeof r->device, "%.*s", (int)sizeof r->device - 1, s->ses.info.name);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->dtype, sizeof r->dtype, "%s", cr_dtype_name(s->t));
    snprintf(r->sweep, sizeof r->sweep, "%s", sweep);
}

double sfu_bound_ulp(sfu_func f, cr_dtype t, sfu_version v)
{
    if (v == SFU_PRECISE)
        return sfu_functions[f].ulp_bound[t];
    if (v == SFU_HALF)
        return HALF_BOUND_ULP;
    return NAN;
}

/* ---- the run ---- */

static bool selected(unsigned bits, int i) { return (bits >> i) & 1u; }

static int unsupported_row(sfu_state *s, sfu_version v, const char *why)
{
    char variant[48];
    snprintf(variant, sizeof variant, "%s/%s", sfu_functions[s->f].name, sfu_version_names[v]);
    cr_result row;
    sfu_init_row(s, &row, variant, "support");
    cr_result_unmeasured(&row);
    snprintf(row.stop, sizeof row.stop, "unsupported");
    snprintf(row.note, sizeof row.note, "%s", why);
    return cr_session_record(&s->ses, &row);
}

/* Every measurement of one version, its table entry filled as they come. */
static int run_version(sfu_state *s, sfu_version v)
{
    sfu_table_entry *e = &s->table[s->f][s->t][v];
    *e = (sfu_table_entry){.present = true, .valid = true, .registers = -1, .latency_ns = NAN,
                           .latency_cycles = NAN, .mean_rel = NAN, .max_rel = NAN, .max_ulp = NAN,
                           .max_ulp_wide = NAN, .bound_ulp = NAN, .gops = NAN, .per_cu_gops = NAN,
                           .speedup = NAN};
    sfu_kernel k = {s->f, s->t, v, s->be->partition_fast, 0};
    e->registers = s->be->registers(&k);
    if (sfu_accuracy_rows(s, v) != 0 || sfu_special_row(s, v) != 0 || sfu_latency_row(s, v) != 0 ||
        sfu_throughput_rows(s, v) != 0)
        return -1;
    return 0;
}

static int run_function(sfu_state *s)
{
    const sfu_function *fn = &sfu_functions[s->f];
    if (s->t == CR_DOUBLE && !fn->has_double)
        return 0; /* Li's double set is div, rcp, sqrt and rsqrt */
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

static int allocate(sfu_state *s)
{
    s->n = (size_t)s->cfg.inputs;
    s->cap = s->n > SFU_CHAIN_SAMPLES ? s->n : SFU_CHAIN_SAMPLES;
    if (s->cap < SFU_MAX_PROBED)
        s->cap = SFU_MAX_PROBED;
    s->typ_x = malloc(s->n * sizeof(double));
    s->typ_y = malloc(s->n * sizeof(double));
    s->typ_ref = malloc(s->n * sizeof(sfu_ref));
    s->wide_x = malloc(s->n * sizeof(double));
    s->wide_y = malloc(s->n * sizeof(double));
    s->wide_ref = malloc(s->n * sizeof(sfu_ref));
    s->got = malloc(s->cap * sizeof(double));
    s->io_x = malloc(s->cap * sizeof(double));
    s->io_y = malloc(s->cap * sizeof(double));
    s->io_out = malloc(s->cap * sizeof(double));
    if (!s->typ_x || !s->typ_y || !s->typ_ref || !s->wide_x || !s->wide_y || !s->wide_ref || !s->got || !s->io_x ||
        !s->io_y || !s->io_out) {
        fprintf(stderr, "%s: error: out of memory for %zu inputs\n", s->ses.opt.program, s->n);
        return -1;
    }
    return 0;
}

static void release(sfu_state *s)
{
    free(s->typ_x);
    free(s->typ_y);
    free(s->typ_ref);
    free(s->wide_x);
    free(s->wide_y);
    free(s->wide_ref);
    free(s->got);
    free(s->io_x);
    free(s->io_y);
    free(s->io_out);
}

static int run_all(sfu_state *s)
{
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (!selected(s->cfg.types, t))
            continue;
        for (int f = 0; f < SFU_NFUNCS; ++f) {
            if (!selected(s->cfg.funcs, f))
                continue;
            s->f = (sfu_func)f;
            s->t = (cr_dtype)t;
            if (run_function(s) != 0)
                return -1;
        }
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

int sfu_main(int argc, char **argv, const sfu_backend *backend)
{
    cr_omp_quiet_waits(argv);
    for (int f = 0; f < SFU_NFUNCS; ++f)
        func_names[f] = sfu_functions[f].name;
    size_t used = 0;
    for (size_t i = 0; i < backend->nversions && used < sizeof versions_help; ++i)
        used += (size_t)snprintf(versions_help + used, sizeof versions_help - used, "%s%s", i ? "," : "",
                                 sfu_version_names[backend->versions[i]]);
    if (used < sizeof versions_help)
        snprintf(versions_help + used, sizeof versions_help - used, " or all (default all)");
    static sfu_state s;
    memset(&s, 0, sizeof s);
    s.be = backend;
    default_config(&s.cfg, backend);
    cr_session *ses = &s.ses;
    int rc = cr_session_parse(ses, argc, argv,
                              "Special-function throughput, latency and accuracy of fast and precise math, and the "
                              "fast/precise partition trade-off (Li ch. 6).",
                              sfu_options, N_SFU_OPTIONS, &s.cfg);
    if (rc >= 0)
        return rc;
    if (ses->opt.list_devices)
        return backend->list_devices(stdout) == CR_OK ? CR_EXIT_OK : CR_EXIT_SKIPPED;
    if (ses->opt.quick && !s.cfg.partition_given) {
        char err[CR_ERRLEN];
        cr_parse_name_list(quick_partition, func_names, SFU_NFUNCS, &s.cfg.partition_funcs, err, sizeof err);
    }

    char err[CR_ERRLEN];
    rc = cr_session_opened(ses, backend->open(ses->opt.device, &ses->info, err, sizeof err), err);
    if (rc >= 0)
        return rc;
    s.fault = getenv("CROSSROOF_FAULT");
    s.target_s = ses->opt.quick ? QUICK_TARGET_RUN_S : TARGET_RUN_S;
    cr_session_bind(ses);
    backend->geometry(&s.lane_work_items, &s.work_group, &s.max_work_items, &s.unit_size);

    int exit_code = CR_EXIT_FAILED;
    cr_meta meta;
    cr_meta_init(&meta);
    cr_meta_set(&meta, "lane_work_items", "%" PRIu64, s.lane_work_items);
    cr_meta_set(&meta, "work_group", "%" PRIu64, s.work_group);
    cr_meta_set(&meta, "max_work_items", "%" PRIu64, s.max_work_items);
    cr_meta_set(&meta, "partition_unit", "%s of %" PRIu64 " work-items", backend->unit_name, s.unit_size);
    cr_meta_set(&meta, "ilp", "%u", s.cfg.ilp);
    cr_meta_set(&meta, "inputs_per_domain", "%" PRIu64, s.cfg.inputs);
    cr_meta_set(&meta, "target_run_s", "%g", s.target_s);
    cr_meta_set(&meta, "openmp_waits", "%s", cr_omp_wait_settings());
    if ((rc = cr_session_start(ses, "sfu", backend->name, argc, argv, &meta)) >= 0) {
        exit_code = rc;
        goto out;
    }
    if (allocate(&s) != 0)
        goto out;
    cr_measure_init(&s.meas, &ses->rule, (unsigned)ses->opt.warmup, ses->info.timer_resolution_ns * 1e-9);
    if (run_all(&s) != 0)
        goto out;
    if (sfu_table_write(ses->base, &s.table, backend->versions, backend->nversions, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: the summary table: %s\n", ses->opt.program, err);
        goto out;
    }
    if (!ses->opt.csv_stdout)
        printf("# summary (Li Tables 6.4/6.5 analogue): %s.table.md\n", ses->base);
    exit_code = cr_session_finish(ses);
out:
    cr_meta_free(&meta);
    release(&s);
    backend->close();
    cr_session_close(ses);
    return exit_code;
}
