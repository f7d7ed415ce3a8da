/* xgraph: the X-model's architecture parameters (Li 2016, ch. 3: R, L, M,
 * delta, pi) fitted from one device's results directory, the architectural
 * X-graph per precision, and with --app an application's operating point.
 * Host only: it reads the CSVs the benchmarks wrote. */
#define _POSIX_C_SOURCE 200809L
#include "xgraph/app.h"
#include "xgraph/data.h"
#include "xgraph/params.h"
#include "xgraph/plot.h"
#include "xgraph/li2016_reference.h"
#include "shared/output_check.h"
#include "shared/descriptors.h"

#include "cr.h"
#include "csv.h"
#include "error.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG "xgraph"

/* The benchmarks whose own f(k) --f-curve takes (xmodel=application), as
 * "A, B", or "" where none. */
static const char *application_names(void)
{
    static char names[256];
    names[0] = '\0';
    for (size_t i = 0; i < cr_ndescriptors; ++i)
        if (cr_descriptors[i].xmodel && strcmp(cr_descriptors[i].xmodel, "application") == 0) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", cr_descriptors[i].name);
        }
    return names;
}

/* The help: which benchmark gives each part of the model, and which of its
 * rows, as the descriptors say (xmodel=). */
static void print_usage(void)
{
    const cr_descriptor *mem = cr_descriptor_xmodel("memory"), *com = cr_descriptor_xmodel("compute"),
                        *lat = cr_descriptor_xmodel("latency");
    const cr_xmodel_rows none = {.sweep = "-", .variant = "-"};
    const cr_xmodel_rows *mr = mem ? &mem->xmodel_rows : &none, *cr = com ? &com->xmodel_rows : &none,
                         *lr = lat ? &lat->xmodel_rows : &none;
    const char *fixed = mr->fixed_sweep ? mr->fixed_sweep : "fixed-size";
    printf("usage: " PROG " DIR [--app Z=..,E=..,n=..] [--f-curve fit|measured|APP] [--backend NAME]\n"
           "              [--reference FILE] [--out DIR] [--no-plot] [--help] [--version]\n"
           "\n"
           "Fits the X-model's architecture parameters (Li 2016, ch. 3) to one device's results\n"
           "directory and draws its X-graphs, from the benchmarks whose descriptors give them\n"
           "a part (xmodel=):\n"
           "  f(k) = min(s*k, R) from %s-<backend>.csv (%s, %s sweep; required),\n",
           mem ? mem->name : "(none)", mr->variant, mr->sweep);
    printf("  g_E(x) = min(m_E*x, M_E) per ILP E from %s-<backend>.csv (%s sweep; optional),\n"
           "  the memory latency from %s-<backend>.csv (%s, %s sweep; optional).\n",
           com ? com->name : "(none)", cr->sweep, lat ? lat->name : "(none)", lr->variant, lr->sweep);
    printf("k and x count work-items per compute unit (OpenCL) or warps per SM (CUDA).\n"
           "\n"
           "Writes to the output directory xgraph-params.csv, columns parameter,dtype,ilp,value,\n"
           "unit,fit_quality (relative RMS deviation of the fit),source,note; per type:\n"
           "  R, s, delta_k, delta95_k  f's plateau, slope, knee (R/s) and first k at 95%% of R\n"
           "  R_resident                1: f's arrays (%d x size_bytes) are below 4x the\n"
           "                            larger of the metadata's llc_bytes and device.cache_bytes,\n"
           "                            so R is the cache's bandwidth, not memory's (its note says\n"
           "                            so); 0: memory; empty: unknown\n"
           "  L_fit_ns                  Little's law at the knee: delta x threads x CUs x b / R,\n"
           "                            b = %d elements (the loads and stores of one %s iteration);\n"
           "                            only where its premise is checked and holds: within 2x of\n"
           "                            L_chase_ns and R not cache-resident; else empty, the note\n"
           "                            says why and what it gave\n",
           mr->accesses, mr->accesses, mr->variant);
    printf("  L_chase_ns, L_ratio       the latency part's '%s' row, L_fit / L_chase\n"
           "  L_ns                      the X-model's L, the one the X-graph and this summary use:\n"
           "                            L_fit_ns where it is kept, else L_chase_ns (empty: neither)\n"
           "  R_%s, R_over_%s, R_consistent   the %s sweep's %s; 1 within 10%%, else 0\n",
           lr->variant, mr->variant, mr->variant, fixed, mr->variant);
    fputs("  M_E, M_E_settled, m_E, pi_E (per E): g_E's peak (median of the points within 5% of\n"
          "                            the highest), its plateau's median, slope and knee\n"
          "  M, M_best_measured, M_over_best, M_consistent   the largest M_E against the best point\n"
          "  Z_ridge = M/R, n_balance = delta + pi_E     Li's DLP and TLP of the machine\n"
          "  cache_peak, L_cache_ns, L_eq35_ns, R_eq35, S_over_beta, alpha   Eq. 3.5, where f\n"
          "                            peaks and falls into a valley\n"
          "A bound rather than a value (f saturated at the smallest k, or still rising at the\n"
          "largest) is said in the note; values that cannot be had are empty.\n"
          "Also xgraph-<float|double>.dat and .png/.svg: the architectural X-graph, Z = M/R.\n"
          "\n"
          "  --app Z=..,E=..,n=..  an application: compute intensity Z (flop/byte), ILP E (one\n"
          "                        of the measured ones), concurrency n per compute unit; prints\n"
          "                        its crossings, their stability and the machine state, writes\n"
          "                        xgraph-app.csv and xgraph-app-<dtype>.png/.svg\n"
          "  --f-curve FORM        f(k) in the application model (with --app): fit (default),\n"
          "                        measured (the measured points joined by straight lines), or\n"
          "                        APP, a benchmark that measures an application's own f(k)\n",
          stdout);
    printf("                        (xmodel=application: %s): its valid rows in\n"
           "                        APP-<backend>.csv joined, k counted as f's (Li Fig. 3.12)\n",
           application_names()[0] ? application_names() : "none");
    printf("  --backend NAME        which %s-NAME.csv when the directory holds several\n"
           "  --reference FILE      reference f(k) lines (default: Li's Table 3.2, built in)\n"
           "  --out DIR             where the outputs go (default: the results directory)\n"
           "  --no-plot             data files only, no gnuplot\n"
           "\n"
           "Exit status: 0 done; 1 bad data (no %s CSV, a malformed CSV: FILE:LINE named,\n"
           "a missing column or metadata key) or gnuplot missing or failing; 2 bad usage (options,\n"
           "a directory that does not exist, --app values, an E that was not measured).\n",
           mem ? mem->name : "(none)", mem ? mem->name : "memory part's");
}

#define die(status, ...) cr_die(PROG, status, __VA_ARGS__)

/* A backend some benchmark's descriptor names. */
static bool known_backend(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; n && i < cr_ndescriptors; ++i)
        for (const char *p = cr_descriptors[i].backends; p && (p = strstr(p, name)) != NULL; p += n)
            if ((p == cr_descriptors[i].backends || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
                return true;
    return false;
}

typedef struct {
    const char *dir, *out, *backend, *reference, *app;
    const char *f_curve;          /* as given, NULL where not */
    xg_f_form form;
    const cr_descriptor *app_f;   /* XG_F_APP: the application whose f(k) it is */
    bool plot;
} options;

/* --f-curve's value: fit, measured, or an application's name. */
static void parse_f_curve(options *o, const char *value)
{
    const cr_descriptor *b = cr_descriptor_named(value);
    o->f_curve = value;
    if (strcmp(value, "fit") == 0)
        o->form = XG_F_FIT;
    else if (strcmp(value, "measured") == 0)
        o->form = XG_F_MEASURED;
    else if (b && b->xmodel && strcmp(b->xmodel, "application") == 0)
        o->form = XG_F_APP, o->app_f = b;
    else
        die(CR_EXIT_USAGE, "--f-curve takes fit, measured%s%s, not '%s'", application_names()[0] ? " or " : "",
            application_names(), value);
}

static options parse(int argc, char **argv)
{
    enum { O_APP = 1000, O_FCURVE, O_BACKEND, O_REF, O_OUT, O_NOPLOT, O_HELP, O_VERSION };
    static const struct option longopts[] = {
        {"app", required_argument, NULL, O_APP},     {"f-curve", required_argument, NULL, O_FCURVE},
        {"backend", required_argument, NULL, O_BACKEND}, {"reference", required_argument, NULL, O_REF},
        {"out", required_argument, NULL, O_OUT},     {"no-plot", no_argument, NULL, O_NOPLOT},
        {"help", no_argument, NULL, O_HELP},         {"version", no_argument, NULL, O_VERSION},
        {NULL, 0, NULL, 0},
    };
    options o = {.form = XG_F_FIT, .plot = true};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case O_APP: o.app = optarg; break;
        case O_FCURVE: parse_f_curve(&o, optarg); break;
        case O_BACKEND:
            if (!known_backend(optarg))
                die(CR_EXIT_USAGE, "--backend '%s' is not a backend name (opencl, cuda)", optarg);
            o.backend = optarg;
            break;
        case O_REF: o.reference = optarg; break;
        case O_OUT: o.out = optarg; break;
        case O_NOPLOT: o.plot = false; break;
        case O_HELP: print_usage(); exit(0);
        case O_VERSION: printf("%s %s\n", PROG, CR_VERSION); exit(0);
        case ':': die(CR_EXIT_USAGE, "%s needs a value", argv[optind - 1]);
        default: die(CR_EXIT_USAGE, "unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        die(CR_EXIT_USAGE, "no results directory given (usage: " PROG " DIR [options])");
    if (optind + 1 < argc)
        die(CR_EXIT_USAGE, "one results directory only, not also '%s'", argv[optind + 1]);
    o.dir = argv[optind];
    if (o.dir[0] == '\0')
        die(CR_EXIT_USAGE, "the results directory given is empty (usage: " PROG " DIR [options])");
    if (o.out == NULL)
        o.out = o.dir;
    if (o.f_curve && !o.app)
        die(CR_EXIT_USAGE, "--f-curve %s is the f(k) of the application X-graph: it needs --app Z=..,E=..,n=..",
            o.f_curve);
    return o;
}

static void print_param(const xg_param_list *l, const char *name, const char *ty, const char *label)
{
    const xg_param *p = xg_params_find(l, name, ty, 0);
    if (p && isfinite(p->value))
        printf("  %-16s %10.4g %-18s %s\n", label, p->value, p->unit, p->note);
    else if (p)
        printf("  %-16s %10s %-18s %s\n", label, "-", p->unit, p->note);
}

static void print_summary(const xg_data *d, const xg_fits *fits, const xg_param_list *l)
{
    printf("xgraph: %s (%s), %g compute units; k and x in %s\n", d->device[0] ? d->device : "unnamed device",
           d->backend, d->compute_units, d->unit);
    if (!d->have_compute)
        printf("missing: %s: M, m_E and pi_E are not fitted and g(x) is not drawn\n", d->compute_csv);
    if (!d->have_latency)
        printf("missing: %s: no pointer-chase latency to check Little's law against, so no L\n", d->latency_csv);
    for (int k = 0; k < XG_NDTYPES; ++k) {
        const char *ty = d->dt[k].name;
        if (!fits->dt[k].have_f && fits->dt[k].ng == 0) {
            printf("%s: no rows\n", ty);
            continue;
        }
        printf("%s:\n", ty);
        const xg_param *res = xg_params_find(l, "R_resident", ty, 0);
        print_param(l, "R", ty,
                    !res || isnan(res->value) ? "R (residency?)" : res->value == 1 ? "R (cache)" : "R (memory)");
        print_param(l, d->fixed_param, ty, d->fixed_param);
        print_param(l, "R_consistent", ty, "R within 10%");
        print_param(l, "R_consistent_drift", ty, "  host-relative");
        print_param(l, "delta_k", ty, "delta");
        print_param(l, "delta95_k", ty, "delta (95%)");
        print_param(l, "L_ns", ty, "L");
        print_param(l, "L_fit_ns", ty, "  L (fit)");
        print_param(l, "L_chase_ns", ty, "  L (chase)");
        print_param(l, "M", ty, "M");
        print_param(l, "M_best_measured", ty, "M best point");
        print_param(l, "M_consistent", ty, "M within 10%");
        for (size_t e = 0; e < fits->dt[k].ng; ++e) {
            const xg_param *p = xg_params_find(l, "pi_E", ty, fits->dt[k].ilp[e]);
            const xg_param *mp = xg_params_find(l, "M_E", ty, fits->dt[k].ilp[e]);
            const xg_fit_status st = fits->dt[k].g[e].status;
            if (p && mp)
                printf("  E = %-12d M_E %s%.4g Gflop/s, pi_E %s%.4g %s\n", p->ilp,
                       st == XG_FIT_UNSATURATED ? ">= " : "", mp->value,
                       st == XG_FIT_SATURATED ? "<= " : st == XG_FIT_OK ? "" : ">= ", p->value, d->unit);
        }
        print_param(l, "Z_ridge", ty, "Z = M/R");
    }
}

/* The architectural X-graph of each type: its data, and its figures
 * unless there is no gnuplot (no_gnuplot set, tried once). */
static void draw_arch(const options *o, xg_data *d, xg_fits *fits, xg_reference *ref, bool *no_gnuplot)
{
    char err[1024];
    for (int k = 0; k < XG_NDTYPES; ++k) {
        int rc = xg_draw_arch(d, fits, k, ref, o->out, o->plot && !*no_gnuplot, err, sizeof err);
        if (rc < 0)
            die(CR_EXIT_FAILED, "%s", err);
        *no_gnuplot |= rc == 1;
        if (fits->dt[k].have_f)
            printf("wrote %s/xgraph-%s.dat%s\n", o->out, d->dt[k].name,
                   o->plot && !*no_gnuplot ? " and the X-graph as .png and .svg" : "");
    }
}

/* --app: the application's operating point of each type, solved before
 * anything is written (an E not measured is refused with nothing left
 * behind); no type solved is an error. */
static void solve_app(const options *o, const xg_app_spec *spec, const xg_data *d, const xg_fits *fits,
                      xg_app_result r[XG_NDTYPES])
{
    char err[1024];
    bool any = false;
    for (int k = 0; k < XG_NDTYPES; ++k) {
        if (xg_app_solve(d, fits, k, spec, o->form, &r[k], err, sizeof err) != 0) {
            /* An E that only the other type lacks is a note, not an error. */
            snprintf(r[k].note, sizeof r[k].note, "%.300s", err);
            r[k].done = false;
        }
        any |= r[k].done;
    }
    if (!any) {
        if (!d->have_compute)
            die(CR_EXIT_FAILED, "--app needs g(x): no %s", d->compute_csv);
        die(CR_EXIT_USAGE, "%s", r[0].note[0] ? r[0].note : r[1].note);
    }
}

/* The application's X-graph of each type solved, and xgraph-app.csv. */
static void write_app(const options *o, const xg_app_spec *spec, const xg_data *d, xg_app_result r[XG_NDTYPES],
                      bool *no_gnuplot)
{
    char err[1024], path[4300];
    printf("\napplication X-graph:\n");
    for (int k = 0; k < XG_NDTYPES; ++k) {
        xg_app_print(stdout, d, k, spec, &r[k]);
        if (!r[k].done)
            continue;
        int rc = xg_draw_app(d, k, spec->ilp, &r[k], o->out, o->plot && !*no_gnuplot, err, sizeof err);
        if (rc < 0)
            die(CR_EXIT_FAILED, "%s", err);
        *no_gnuplot |= rc == 1;
    }
    snprintf(path, sizeof path, "%s/xgraph-app.csv", o->out);
    if (xg_app_write(path, d, spec, r, err, sizeof err) != 0)
        die(CR_EXIT_FAILED, "%s", err);
    printf("wrote %s\n", path);
}

int main(int argc, char **argv)
{
    cr_check_output_at_exit(PROG);
    options o = parse(argc, argv);
    char err[1024];
    struct stat st;
    if (stat(o.dir, &st) != 0 || !S_ISDIR(st.st_mode))
        die(CR_EXIT_USAGE, "%s: %s", o.dir, stat(o.dir, &st) != 0 ? "no such directory" : "not a directory");
    xg_app_spec spec;
    if (o.app && xg_app_parse(o.app, &spec, err, sizeof err) != 0)
        die(CR_EXIT_USAGE, "%s", err);
    xg_reference ref;
    if (o.reference && stat(o.reference, &st) != 0)
        die(CR_EXIT_USAGE, "--reference %s: no such file", o.reference);
    if (cr_mkdirs_check(o.out, err, sizeof err) != 0)
        die(CR_EXIT_USAGE, "--out: %s", err);
    if (xg_reference_load(&ref, o.reference, err, sizeof err) != 0)
        die(CR_EXIT_FAILED, "%s", err);

    xg_data d;
    if (xg_data_load(&d, o.dir, o.backend, err, sizeof err) != 0)
        die(CR_EXIT_FAILED, "%s", err);
    if (o.app_f && xg_data_load_app(&d, o.app_f, err, sizeof err) != 0) {
        xg_data_free(&d);
        die(CR_EXIT_FAILED, "%s", err);
    }
    xg_fits fits;
    xg_fit_all(&d, &fits);
    xg_app_result app[XG_NDTYPES];
    if (o.app)
        solve_app(&o, &spec, &d, &fits, app);
    if (cr_mkdirs(o.out, err, sizeof err) != 0)
        die(CR_EXIT_FAILED, "%s", err);

    xg_param_list params = {0};
    char path[4300];
    snprintf(path, sizeof path, "%s/xgraph-params.csv", o.out);
    if (xg_params_build(&d, &fits, &params) != 0)
        die(CR_EXIT_FAILED, "out of memory");
    if (xg_params_write(&params, path, err, sizeof err) != 0)
        die(CR_EXIT_FAILED, "%s", err);
    print_summary(&d, &fits, &params);
    printf("wrote %s\n", path);

    bool no_gnuplot = false;
    draw_arch(&o, &d, &fits, &ref, &no_gnuplot);
    if (o.app)
        write_app(&o, &spec, &d, app, &no_gnuplot);
    xg_params_free(&params);
    xg_reference_free(&ref);
    xg_data_free(&d);
    if (no_gnuplot)
        die(CR_EXIT_FAILED, "gnuplot not found: the data files are written, the figures are not (apt-get install "
                            "gnuplot-nox, or --no-plot)");
    return 0;
}
