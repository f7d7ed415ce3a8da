#include "bench_main.h"

#include "csv.h"
#include "error.h"
#include "omp_env.h"

#include <stdarg.h>

/* The executable's name for cr_list_failed, which listing functions call
 * without a session. */
static const char *listing_program = "crossroof";

cr_status cr_list_failed(cr_status st, const char *fmt, ...)
{
    char why[CR_ERRLEN + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s: %s\n", listing_program, st == CR_NO_DEVICE ? "skipped" : "error", why);
    return st;
}

static int list_devices(const cr_session *s, const cr_backend_base *be)
{
    listing_program = s->opt.program;
    cr_status st = be->list_devices(stdout);
    return st == CR_OK ? CR_EXIT_OK : st == CR_NO_DEVICE ? CR_EXIT_SKIPPED : CR_EXIT_FAILED;
}

int cr_open_host_ref(const cr_session *s, const cr_backend_base *host, cr_device_info *info)
{
    char err[CR_ERRLEN];
    if (host->open(NULL, info, err, sizeof err) == CR_OK)
        return 0;
    cr_say_error(s->opt.program, "host reference: %s", err);
    return -1;
}

int cr_open_wanted_host_ref(const cr_session *s, cr_host_ref mode, const cr_backend_base *host, cr_device_info *info)
{
    if (!cr_host_ref_wanted(mode, s->info.is_cpu || s->info.unified_memory))
        return 0;
    return cr_open_host_ref(s, host, info) == 0 ? 1 : -1;
}

static int run_design(int argc, char **argv, const cr_design *d, const cr_backend_base *be)
{
    if (d->quiet_omp_waits)
        cr_omp_quiet_waits(argv);
    cr_session *s = d->session;
    int rc = cr_session_parse(s, argc, argv, d->summary, d->options, d->n_options, d->config);
    if (rc >= 0)
        return rc;
    /* With --check-options a design's parsed hook checks and does nothing
     * (no listing, no offline table): whatever else it returns early for
     * would measure nothing. */
    if (d->parsed && (rc = d->parsed(d->state)) >= 0) {
        cr_session_close(s);
        if (s->opt.check_only && rc == CR_EXIT_OK) {
            cr_say_error(s->opt.program, "--check-options: these options print and exit, measuring nothing");
            return CR_EXIT_USAGE;
        }
        return rc;
    }
    if (s->opt.list_devices)
        return list_devices(s, be);

    /* --out is usage: refused as such (exit 2) before the device, which a
     * machine without one would report first (exit 77). */
    char err[CR_ERRLEN + 4200];
    if (cr_mkdirs_check(s->opt.out_dir, err, sizeof err) != 0) {
        cr_say_error(s->opt.program, "--out: %s", err);
        cr_session_close(s);
        return CR_EXIT_USAGE;
    }
    cr_status st = be->open(s->opt.device, &s->info, err, sizeof err);
    if (st == CR_NO_DEVICE && d->without_device && !s->opt.check_only) {
        rc = d->without_device(d->state, err);
        cr_session_close(s);
        return rc;
    }
    if ((rc = cr_session_opened(s, st, err)) >= 0)
        return rc;
    cr_session_bind(s);
    s->wants_memory_peak = d->measures_memory;
    s->wants_compute_peak = d->measures_compute;

    int exit_code;
    cr_meta meta;
    cr_meta_init(&meta);
    if (d->plan && (rc = d->plan(d->state, &meta)) >= 0)
        exit_code = rc;
    else if (s->opt.check_only) /* checked against the device too: nothing is written */
        exit_code = CR_EXIT_OK;
    else if ((rc = cr_session_start(s, d->benchmark, be->name, argc, argv, &meta)) >= 0)
        exit_code = rc;
    else if ((rc = d->run(d->state)) >= 0)
        exit_code = rc;
    else
        exit_code = cr_session_finish(s);
    cr_meta_free(&meta);
    if (d->release)
        d->release(d->state);
    be->close();
    cr_session_close(s);
    return exit_code;
}

int cr_bench_main(int argc, char **argv, const cr_design *d, const cr_backend_base *be)
{
    int status = run_design(argc, argv, d, be);
    const char *program = d->session->opt.program;
    return cr_check_output(program ? program : "crossroof", status);
}
