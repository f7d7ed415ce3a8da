#define _GNU_SOURCE
/* The command line of every executable: its common options, the
 * benchmark's own, and how they are checked before anything runs. */
#include "options.h"

#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- argv parsing ---- */

enum {
    OPT_HELP = 1000, OPT_VERSION, OPT_LIST, OPT_DEVICE, OPT_QUICK, OPT_REPS, OPT_MIN_TIME, OPT_MAX_TIME,
    OPT_SPREAD, OPT_WARMUP, OPT_OUT, OPT_CSV, OPT_NO_BIND, OPT_ENERGY, OPT_ENERGY_TIME, OPT_HOST_LIMIT,
    OPT_CHECK_OPTIONS,
    OPT_EXTRA_BASE = 2000,
};

static const struct {
    const char *name;
    const char *metavar;
    int id;
    const char *help;
} common_options[] = {
    {"help", NULL, OPT_HELP, "print this help and exit"},
    {"version", NULL, OPT_VERSION, "print the version and exit"},
    {"list-devices", NULL, OPT_LIST, "list the devices this backend sees and exit"},
    {"check-options", NULL, OPT_CHECK_OPTIONS,
     "check the other options as a run would, against the device too, writing nothing, and exit: 0 when they "
     "would run, 2 and why when not (77: no device to check against)"},
    {"device", "SPEC", OPT_DEVICE, "device by index (\"1\", or \"P:D\" platform:device) or name substring"},
    {"quick", NULL, OPT_QUICK, "a small sweep that takes seconds"},
    {"reps", "MIN[:MAX]", OPT_REPS, "repetitions per point (default 10:200, quick 5:20)"},
    {"min-time", "SEC", OPT_MIN_TIME, "measured time to accumulate per point before stopping (default 0.05)"},
    {"max-time", "SEC", OPT_MAX_TIME, "time budget per point; stop even if unstable (default 2)"},
    {"spread", "PCT", OPT_SPREAD, "stop when the median's 95% CI half-width is below PCT percent (default 1)"},
    {"warmup", "N", OPT_WARMUP, "discarded warm-up repetitions per point (default 2)"},
    {"out", "DIR", OPT_OUT, "directory for the CSV and metadata files (default results)"},
    {"csv", NULL, OPT_CSV, "write CSV rows to stdout instead of the readable table"},
    {"no-bind", NULL, OPT_NO_BIND, "do not bind the host thread or host memory near the device"},
    {"energy", "MODE", OPT_ENERGY, "energy per point: auto (where a sensor covers the device), on (required), off"},
    {"energy-time", "SEC", OPT_ENERGY_TIME, "shortest energy window per point (default 0.2, quick 0.1)"},
    {"host-limit", "on|off", OPT_HOST_LIMIT,
     "measure the host's memory limit, the memory peak of a device sharing host memory, before the run, and "
     "a CPU device's compute peak where FLOP rates are judged (default on, or CROSSROOF_HOST_LIMIT); off: the "
     "memory peak is unknown and not judged, the compute peak the device's own"},
};
#define N_COMMON (sizeof common_options / sizeof common_options[0])

void cr_options_usage(FILE *f, const char *program, const char *summary, const cr_extra_option *extra,
                      size_t n_extra)
{
    fprintf(f, "usage: %s [options]\n%s\n\ncommon options:\n", program, summary);
    for (size_t i = 0; i < N_COMMON; ++i) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", common_options[i].name, common_options[i].metavar ? " " : "",
                 common_options[i].metavar ? common_options[i].metavar : "");
        fprintf(f, "  %-24s %s\n", left, common_options[i].help);
    }
    if (n_extra > 0)
        fprintf(f, "\nbenchmark options:\n");
    for (size_t i = 0; i < n_extra; ++i) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", extra[i].name, extra[i].metavar ? " " : "",
                 extra[i].metavar ? extra[i].metavar : "");
        fprintf(f, "  %-24s %s\n", left, extra[i].help);
    }
    fprintf(f, "\nexit status: 0 ok, 1 run or verification failed (or --out is being written by another run),\n"
               "2 bad usage (an option or value refused, or a --device that matches none), 77 no device (skipped)\n");
}

static int parse_reps(const char *arg, cr_options *o, char *err, size_t errlen)
{
    char buf[64];
    if (strlen(arg) >= sizeof buf)
        return cr_errf(err, errlen, "'%s' is too long", arg);
    strcpy(buf, arg);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    if (cr_parse_count(buf, &o->reps_min, err, errlen) != 0)
        return -1;
    o->reps_max = o->reps_min > 200 ? o->reps_min : 200;
    if (colon) {
        if (cr_parse_count(colon + 1, &o->reps_max, err, errlen) != 0)
            return -1;
        if (o->reps_max < o->reps_min)
            return cr_errf(err, errlen, "'%s': MAX is smaller than MIN", arg);
    }
    if (o->reps_max > 1000000)
        return cr_errf(err, errlen, "'%s': more than 1000000 repetitions", arg);
    o->reps_given = true;
    return 0;
}

/* A text option that may not be empty ("--out ''" is a mistake, not the
 * current directory). */
static int nonempty_text(const char *arg, const char **to, const char *what, char *err, size_t errlen)
{
    if (arg[0] == '\0')
        return cr_errf(err, errlen, "empty %s", what);
    *to = arg;
    return 0;
}

/* The results folder: its files' paths (NAME-BACKEND.meta.csv, the lock,
 * temporaries beside them) must fit in PATH_MAX with room to spare, or a
 * run would make its folders and then fail at its first file. */
#define CR_OUT_MAX_BYTES 3800

static int out_dir(const char *arg, const char **to, char *err, size_t errlen)
{
    size_t n = strlen(arg);
    if (n > CR_OUT_MAX_BYTES)
        return cr_errf(err, errlen, "the path is %zu bytes long; the files in it need it at most %d", n,
                       CR_OUT_MAX_BYTES);
    return nonempty_text(arg, to, "directory", err, errlen);
}

static int apply_common(int id, const char *arg, cr_options *o, char *err, size_t errlen)
{
    switch (id) {
    case OPT_HELP: o->help = true; return 0;
    case OPT_VERSION: o->version = true; return 0;
    case OPT_LIST: o->list_devices = true; return 0;
    case OPT_CHECK_OPTIONS: o->check_only = true; return 0;
    case OPT_DEVICE: return nonempty_text(arg, &o->device, "device", err, errlen);
    case OPT_QUICK: o->quick = true; return 0;
    case OPT_REPS: return parse_reps(arg, o, err, errlen);
    case OPT_MIN_TIME: return cr_parse_seconds(arg, &o->min_time_s, err, errlen);
    case OPT_MAX_TIME: o->max_time_given = true; return cr_parse_seconds(arg, &o->max_time_s, err, errlen);
    case OPT_SPREAD: {
        double pct;
        if (cr_parse_seconds(arg, &pct, err, errlen) != 0)
            return cr_errf(err, errlen, "'%s' is not a positive percentage", arg);
        if (pct >= 100)
            return cr_errf(err, errlen, "'%s' must be below 100 percent", arg);
        o->target_ci = pct / 100.0;
        return 0;
    }
    case OPT_WARMUP: {
        if (strcmp(arg, "0") == 0) {
            o->warmup = 0;
            return 0;
        }
        if (cr_parse_count(arg, &o->warmup, err, errlen) != 0)
            return -1;
        if (o->warmup > 1000)
            return cr_errf(err, errlen, "'%s': more than 1000 warm-up repetitions", arg);
        return 0;
    }
    case OPT_OUT: return out_dir(arg, &o->out_dir, err, errlen);
    case OPT_CSV: o->csv_stdout = true; return 0;
    case OPT_NO_BIND: o->bind = false; return 0;
    case OPT_ENERGY: return cr_parse_energy_mode(arg, &o->energy, err, errlen);
    case OPT_ENERGY_TIME: return cr_parse_seconds(arg, &o->energy_min_s, err, errlen);
    case OPT_HOST_LIMIT: return cr_parse_on_off(arg, &o->host_limit, err, errlen);
    default: return cr_errf(err, errlen, "internal: unknown option id %d", id);
    }
}

static int apply_extra(const cr_extra_option *o, void *ctx, const char *arg, char *err, size_t errlen)
{
    void *field = (char *)ctx + o->offset;
    switch (o->kind) {
    case CR_OPT_SIZE: return cr_parse_size(arg, field, err, errlen);
    case CR_OPT_RANGE: return cr_parse_range(arg, field, err, errlen);
    case CR_OPT_COUNT: return cr_parse_count(arg, field, err, errlen);
    case CR_OPT_NAMES: return cr_parse_name_list(arg, o->names, o->n_names, field, err, errlen);
    case CR_OPT_HOST_REF: return cr_parse_host_ref(arg, field, err, errlen);
    case CR_OPT_FLAG: *(bool *)field = true; return 0;
    case CR_OPT_CUSTOM: break;
    }
    return o->apply(ctx, arg, err, errlen);
}

/* getopt_long's table: the common options, then the benchmark's; NULL
 * where memory ran out. */
static struct option *long_options(const cr_extra_option *extra, size_t n_extra)
{
    struct option *longopts = calloc(N_COMMON + n_extra + 1, sizeof *longopts);
    if (longopts == NULL)
        return NULL;
    for (size_t i = 0; i < N_COMMON; ++i)
        longopts[i] = (struct option){common_options[i].name,
                                      common_options[i].metavar ? required_argument : no_argument, NULL,
                                      common_options[i].id};
    for (size_t i = 0; i < n_extra; ++i)
        longopts[N_COMMON + i] = (struct option){extra[i].name,
                                                 extra[i].metavar ? required_argument : no_argument, NULL,
                                                 OPT_EXTRA_BASE + (int)i};
    return longopts;
}

/* Records that the index-th benchmark option was given, and the value of
 * the one that selects the sweeps. */
static void note_extra_given(cr_options *out, const cr_extra_option *o, size_t index, const char *arg,
                             const char **selector_arg)
{
    if (index < 64)
        out->extra_given |= UINT64_C(1) << index;
    if (index < 64 && arg && strcmp(arg, "all") == 0)
        out->extra_all |= UINT64_C(1) << index;
    else if (index < 64)
        out->extra_all &= ~(UINT64_C(1) << index); /* given again, the last one counts */
    if (o->selects)
        *selector_arg = arg;
}

/* Whether token (an argument as given, "--name" or "--name=value") names
 * the option name by a prefix only, which getopt_long takes. Taken, "--ou"
 * after a run_all.sh check that knows "--out" would say where results go
 * unseen, and an option added later could change what an old command line
 * means. */
static bool abbreviated(const char *token, const char *name)
{
    if (strncmp(token, "--", 2) != 0)
        return false;
    size_t len = strcspn(token + 2, "=");
    return len != strlen(name) || strncmp(token + 2, name, len) != 0;
}

/* The one line for what getopt_long refused: bad is the argument. */
static void say_getopt_refusal(const char *program, const char *bad)
{
    if (optopt != 0 && optopt < OPT_HELP)
        cr_say_error(program, "unknown option '-%c' (see --help)", optopt);
    else if (optopt >= OPT_HELP && strchr(bad, '=') != NULL) /* --quick=1 */
        cr_say_error(program, "option '%.*s' takes no value (see --help)", (int)(strchr(bad, '=') - bad), bad);
    else if (optopt >= OPT_HELP)
        cr_say_error(program, "option '%s' needs a value (see --help)", bad);
    else
        cr_say_error(program, "unknown or ambiguous option '%s' (see --help)", bad);
}

/* What the options given make of the rest: --quick's repetitions and
 * time, the energy window; -1 (said) where they contradict each other. */
static int settle_options(cr_options *out)
{
    if (out->quick && !out->reps_given) {
        out->reps_min = 5;
        out->reps_max = 20;
        if (!out->max_time_given)
            out->max_time_s = 1.0;
    }
    if (out->min_time_s > out->max_time_s) {
        cr_say_error(out->program, "--min-time %g s is longer than --max-time %g s%s (see --help)", out->min_time_s,
                     out->max_time_s, out->max_time_given ? "" : ", the default");
        return -1;
    }
    if (out->energy == CR_ENERGY_OFF && out->energy_min_s != 0) {
        cr_say_error(out->program, "--energy-time has no effect with --energy off (see --help)");
        return -1;
    }
    if (out->energy_min_s == 0)
        out->energy_min_s = out->quick ? 0.1 : 0.2;
    /* A run's options are checked for a run: one that would print and exit
     * would measure nothing. */
    const char *exits = out->help ? "--help" : out->version ? "--version" : out->list_devices ? "--list-devices" : NULL;
    if (out->check_only && exits) {
        cr_say_error(out->program, "--check-options: %s prints and exits, measuring nothing", exits);
        return -1;
    }
    return 0;
}

int cr_options_parse(int argc, char **argv, const cr_extra_option *extra, size_t n_extra, void *ctx,
                     cr_options *out)
{
    const char *slash = strrchr(argv[0], '/');
    *out = (cr_options){
        .program = slash ? slash + 1 : argv[0],
        .out_dir = "results",
        .bind = true,
        .reps_min = 10,
        .reps_max = 200,
        .min_time_s = 0.05,
        .max_time_s = 2.0,
        .target_ci = 0.01,
        .warmup = 2,
        .host_limit = true,
    };
    const char *host_limit = getenv("CROSSROOF_HOST_LIMIT");
    char err[CR_ERRLEN];
    if (host_limit && cr_parse_on_off(host_limit, &out->host_limit, err, sizeof err) != 0) {
        cr_say_error(out->program, "CROSSROOF_HOST_LIMIT: %s", err);
        return -1;
    }
    struct option *longopts = long_options(extra, n_extra);
    if (longopts == NULL) {
        cr_say_error(out->program, "out of memory");
        return -1;
    }
    int rc = 0;
    const char *selector_arg = NULL;
    opterr = 0;
    optind = 1;
    for (;;) {
        int longindex = -1, at = optind;
        int c = getopt_long(argc, argv, "+h", longopts, &longindex);
        if (c == -1)
            break;
        if (longindex >= 0 && abbreviated(argv[at], longopts[longindex].name)) {
            cr_say_error(out->program, "option '%.*s' is short for '--%s': give options whole (see --help)",
                         (int)strcspn(argv[at], "="), argv[at], longopts[longindex].name);
            rc = -1;
            break;
        }
        if (c == 'h') {
            out->help = true;
            continue;
        }
        if (c == '?' || c == ':') {
            say_getopt_refusal(out->program, argv[optind - 1]);
            rc = -1;
            break;
        }
        const char *name = longindex >= 0 ? longopts[longindex].name : "?";
        if (c >= OPT_EXTRA_BASE)
            note_extra_given(out, &extra[c - OPT_EXTRA_BASE], (size_t)(c - OPT_EXTRA_BASE), optarg, &selector_arg);
        int status = c >= OPT_EXTRA_BASE ? apply_extra(&extra[c - OPT_EXTRA_BASE], ctx, optarg, err, sizeof err)
                                         : apply_common(c, optarg, out, err, sizeof err);
        if (status != 0) {
            cr_say_error(out->program, "--%s: %s", name, err);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && optind < argc) {
        cr_say_error(out->program, "unexpected argument '%s' (see --help)", argv[optind]);
        rc = -1;
    }
    if (rc == 0)
        rc = cr_check_option_use(out, extra, n_extra, ctx, selector_arg);
    if (rc == 0)
        rc = settle_options(out);
    free(longopts);
    return rc;
}
