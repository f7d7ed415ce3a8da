#define _GNU_SOURCE
#include "session.h"

#include "csv.h"
#include "error.h"
#include "out_lock.h"
#include "peaks.h"
#include "row_names.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cr_session_parse(cr_session *s, int argc, char **argv, const char *summary, const cr_extra_option *extra,
                     size_t n_extra, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->lock_fd = -1;
    if (cr_options_parse(argc, argv, extra, n_extra, ctx, &s->opt) != 0)
        return CR_EXIT_USAGE;
    if (s->opt.help) {
        cr_options_usage(stdout, s->opt.program, summary, extra, n_extra);
        return CR_EXIT_OK;
    }
    if (s->opt.version) {
        printf("%s (crossroof) %s\n", s->opt.program, CR_VERSION);
        return CR_EXIT_OK;
    }
    s->rule = (cr_stop_rule){.min_reps = s->opt.reps_min,
                             .max_reps = s->opt.reps_max,
                             .min_time_s = s->opt.min_time_s,
                             .max_time_s = s->opt.max_time_s,
                             .target_ci = s->opt.target_ci};
    return -1;
}

int cr_session_opened(cr_session *s, cr_status st, const char *err)
{
    if (st == CR_NO_DEVICE) {
        fprintf(stderr, "%s: skipped: %s\n", s->opt.program, err);
        return CR_EXIT_SKIPPED;
    }
    if (st != CR_OK) {
        cr_say_error(s->opt.program, "%s", err);
        return st == CR_NO_MATCH ? CR_EXIT_USAGE : CR_EXIT_FAILED;
    }
    return -1;
}

void cr_session_bind(cr_session *s)
{
    s->topo = cr_topo_open();
    if (!s->opt.bind)
        snprintf(s->bind_note, sizeof s->bind_note, "binding disabled (--no-bind)");
    else if (s->info.is_cpu)
        snprintf(s->bind_note, sizeof s->bind_note, "not bound: the device is the host CPU and uses every core");
    else if (s->topo == NULL)
        snprintf(s->bind_note, sizeof s->bind_note, "not bound: no hwloc topology");
    else
        cr_topo_bind_near_pci(s->topo, s->info.pci_bus_id, s->bind_note, sizeof s->bind_note);
}

/* The longest energy window --energy auto spends on a point. */
#define CR_ENERGY_AUTO_MAX_WINDOW_S 0.5

/* Opens the sensor and measures the static power first (Ranasinghe:
 * idle power, subtracted from every point). Returns -1 to go on, else the
 * exit status (--energy on without a sensor). */
static int start_energy(cr_session *s, cr_meta *meta)
{
    if (s->opt.energy == CR_ENERGY_OFF) {
        snprintf(s->energy_why, sizeof s->energy_why, "energy not measured (--energy off)");
        cr_meta_set(meta, "energy.sensor", "none: %s", s->energy_why);
        return -1;
    }
    char why[sizeof s->energy_why];
    cr_energy_meter *m = NULL;
    cr_status st = cr_energy_open(&s->info, NULL, &m, why, sizeof why);
    unsigned updates = s->opt.quick ? 20 : 50;
    double window = st == CR_OK ? cr_energy_window_s(m, s->opt.energy_min_s, updates) : 0;
    /* A slow sensor (NVML's counter: 0.1 s) would add seconds to every
     * point of every sweep: measured when asked for, not by default. */
    bool left_out = st == CR_OK && s->opt.energy == CR_ENERGY_AUTO &&
                    updates * cr_energy_interval_s(m) > CR_ENERGY_AUTO_MAX_WINDOW_S;
    if (left_out) {
        snprintf(why, sizeof why,
                 "energy not measured by default: %s updates every %.3g s, and %u updates a point would add %.3g s "
                 "to each (--energy on measures it)",
                 cr_energy_sensor(m), cr_energy_interval_s(m), updates, updates * cr_energy_interval_s(m));
        st = CR_UNSUPPORTED;
    }
    double static_w = 0;
    if (st == CR_OK)
        st = cr_energy_static_w(m, s->opt.quick ? 0.5 : 1.0, &static_w, why, sizeof why);
    if (st != CR_OK) {
        if (m)
            cr_energy_close(m);
        if (s->opt.energy == CR_ENERGY_ON) {
            cr_say_error(s->opt.program, "--energy on: %s", why);
            return CR_EXIT_FAILED;
        }
        /* A sensor left out by default is there: only a missing one is "no energy sensor". */
        snprintf(s->energy_why, sizeof s->energy_why, "%s%.230s", left_out ? "" : "no energy sensor: ", why);
        cr_meta_set(meta, "energy.sensor", "none: %s", why);
        return -1;
    }
    s->energy = (cr_energy_ctx){m, static_w, window};
    cr_meta_set(meta, "energy.sensor", "%s", cr_energy_sensor(m));
    cr_meta_set(meta, "energy.interval_s", "%.6g", cr_energy_interval_s(m));
    cr_meta_set(meta, "energy.static_w", "%.6g", static_w);
    cr_meta_set(meta, "energy.window_s", "%.6g", s->energy.window_s);
    cr_meta_set(meta, "energy.static_state", "%s",
                "idle power in whatever performance state the device idles in, measured before the first point");
    return -1;
}

void cr_session_measure_init(cr_session *s, cr_measure_ctx *m, bool device)
{
    cr_measure_init(m, &s->rule, (unsigned)s->opt.warmup, device ? s->info.timer_resolution_ns * 1e-9 : 0);
    if (device && s->energy.meter)
        m->energy = &s->energy;
}

int cr_session_start(cr_session *s, const char *benchmark, const char *backend, int argc, char **argv, cr_meta *meta)
{
    char err[CR_ERRLEN + 4200], path[4200];
    if (cr_mkdirs(s->opt.out_dir, err, sizeof err) != 0) {
        cr_say_error(s->opt.program, "--out: %s", err);
        return CR_EXIT_USAGE;
    }
    cr_lock_result locked = cr_out_lock(s->opt.out_dir, &s->lock_fd, err, sizeof err);
    if (locked != CR_LOCK_TAKEN) {
        cr_say_error(s->opt.program, "%s%s", locked == CR_LOCK_ERROR ? "--out: " : "", err);
        return locked == CR_LOCK_ERROR ? CR_EXIT_USAGE : CR_EXIT_FAILED;
    }
    s->started = true;
    for (size_t i = 0; i < s->n_notes; ++i)
        fprintf(stderr, "note: %s\n", s->notes[i]);
    if (s->n_notes_dropped)
        fprintf(stderr, "note: %zu further note(s) before the start not shown\n", s->n_notes_dropped);
    snprintf(s->base, sizeof s->base, "%s/%s-%s", s->opt.out_dir, benchmark, backend);
    snprintf(s->benchmark, sizeof s->benchmark, "%s", benchmark);
    snprintf(s->backend, sizeof s->backend, "%s", backend);
    int rc = start_energy(s, meta);
    if (rc >= 0)
        return rc;
    cr_peaks_for_device(&s->info, s->topo ? cr_topo_llc_bytes(s->topo) : 0, s->rule.target_ci, &s->peaks);
    if (s->wants_memory_peak && (s->info.is_cpu || s->info.unified_memory)) {
        if (s->opt.host_limit)
            cr_peaks_measure_host_memory(&s->peaks, s->opt.quick ? 10 : 20);
        else
            snprintf(s->peaks.memory_source, sizeof s->peaks.memory_source,
                     "unknown: the host's limit was not measured (--host-limit off or CROSSROOF_HOST_LIMIT=off)");
    }
    if (s->wants_compute_peak && s->info.is_cpu) {
        if (s->opt.host_limit)
            /* Best of as many repetitions as a point of fma takes at most: a
             * best of fewer, set against the best of many, is set too low
             * (a full run's 40 left fma's best double repetitions 6% above). */
            cr_peaks_measure_host_compute(&s->peaks, s->opt.quick ? 50 : 200);
        else
            snprintf(s->peaks.compute_check, sizeof s->peaks.compute_check,
                     "not measured (--host-limit off or CROSSROOF_HOST_LIMIT=off): the device's modelled peak stays");
    }
    cr_meta_collect_host(meta, s->topo, argc, argv);
    cr_meta_add_device(meta, &s->info);
    cr_meta_set(meta, "benchmark", "%s", benchmark);
    cr_meta_set(meta, "backend", "%s", backend);
    cr_meta_set(meta, "binding", "%s", s->bind_note);
    cr_meta_set(meta, "stop_rule",
                "reps %" PRIu64 "..%" PRIu64 ", min-time %g s, max-time %g s, CI target %g, warm-up %" PRIu64,
                s->opt.reps_min, s->opt.reps_max, s->opt.min_time_s, s->opt.max_time_s, s->opt.target_ci,
                s->opt.warmup);
    cr_peaks_to_meta(&s->peaks, meta);
    snprintf(path, sizeof path, "%s.meta.csv", s->base);
    if (cr_meta_write(meta, path, err, sizeof err) != 0) {
        cr_say_error(s->opt.program, "%s", err);
        return CR_EXIT_FAILED;
    }
    snprintf(path, sizeof path, "%s.csv", s->base);
    cr_table_init(&s->table, path);
    if (cr_table_flush(&s->table, err, sizeof err) != 0) {
        cr_say_error(s->opt.program, "%s", err);
        return CR_EXIT_FAILED;
    }
    if (s->opt.csv_stdout)
        cr_result_write_header(stdout);
    else
        printf("# %s on %s (%s); results in %s.csv\n", s->opt.program, s->info.name, s->info.api_version, s->base);
    return -1;
}

int cr_session_record(cr_session *s, const cr_result *row)
{
    const char *unknown = cr_row_name_unknown(row->benchmark, row->variant, row->sweep);
    if (unknown) {
        cr_say_error(s->opt.program, "a row of %s '%s', which bench/%s/descriptor does not list among its %ss",
                     unknown, strcmp(unknown, "sweep") == 0 ? row->sweep : row->variant, row->benchmark, unknown);
        return -1;
    }
    cr_result checked = *row;
    cr_result_energy_per_unit(&checked);
    cr_result_refuse_infinities(&checked);
    cr_result_drop_nonfinite_params(&checked);
    cr_plausibility_check(&s->peaks, &checked);
    const cr_result *r = &checked;
    if (s->opt.csv_stdout) {
        cr_result_write_row(stdout, r);
    } else {
        char size[32] = "";
        if (r->size_bytes)
            cr_format_bytes(r->size_bytes, size, sizeof size);
        printf("%-11s %-30s %-6s %-11s %9s", r->backend, r->variant, r->dtype, r->sweep, size);
        if (r->work_items)
            printf(" wi=%-7" PRIu64, r->work_items);
        printf(" n=%-3zu %10.4g %-4s", r->stats.n, r->figure, r->unit);
        if (!isnan(r->figure_best))
            printf(" (best %.4g)", r->figure_best);
        if (!isnan(r->ref_ratio))
            printf("  %.3f x ref", r->ref_ratio);
        printf("  %s%s%s%s%s%s%s%s\n", r->valid ? "ok" : "INVALID", r->flags[0] ? " [" : "", r->flags,
               r->flags[0] ? "]" : "", r->params[0] ? "  " : "", r->params, r->note[0] ? "  " : "", r->note);
    }
    fflush(stdout);
    if (!r->valid)
        s->failures++;
    char err[CR_ERRLEN];
    if (cr_table_add(&s->table, r, err, sizeof err) != 0) {
        cr_say_error(s->opt.program, "%s", err);
        return -1;
    }
    return 0;
}

const cr_result *cr_session_last(const cr_session *s)
{
    return s->table.n ? &s->table.rows[s->table.n - 1] : NULL;
}

/* The row that says the run has no energy, and why. */
static int record_no_energy(cr_session *s)
{
    cr_result r = {.valid = true, .ref_ratio = NAN, .figure = NAN, .figure_best = NAN, .bytes_per_rep = NAN};
    cr_result_unmeasured(&r);
    snprintf(r.benchmark, sizeof r.benchmark, "%s", s->benchmark);
    snprintf(r.backend, sizeof r.backend, "%s", s->backend);
    snprintf(r.device, sizeof r.device, "%.159s", s->info.name);
    snprintf(r.variant, sizeof r.variant, "%s", CR_ENERGY_ROW_VARIANT);
    snprintf(r.sweep, sizeof r.sweep, "%s", CR_ENERGY_ROW_SWEEP);
    snprintf(r.stop, sizeof r.stop, "unsupported");
    snprintf(r.energy_sensor, sizeof r.energy_sensor, "none");
    snprintf(r.note, sizeof r.note, "%s", s->energy_why);
    return cr_session_record(s, &r);
}

int cr_session_finish(cr_session *s)
{
    if (s->started && s->energy.meter == NULL && record_no_energy(s) != 0)
        return CR_EXIT_FAILED;
    if (s->failures == 0)
        return CR_EXIT_OK;
    cr_say_error(s->opt.program, "%d result(s) failed verification or did not run", s->failures);
    return CR_EXIT_FAILED;
}

void cr_session_close(cr_session *s)
{
    if (s->energy.meter)
        cr_energy_close(s->energy.meter);
    s->energy.meter = NULL;
    cr_out_unlock(&s->lock_fd);
    cr_table_free(&s->table);
    cr_topo_close(s->topo);
    s->topo = NULL;
}

void cr_session_note(cr_session *s, const char *fmt, ...)
{
    char note[sizeof s->notes[0]];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, sizeof note, fmt, ap);
    va_end(ap);
    if (s->started)
        fprintf(stderr, "note: %s\n", note);
    else if (s->n_notes < CR_SESSION_NOTES)
        memcpy(s->notes[s->n_notes++], note, sizeof note);
    else
        s->n_notes_dropped++;
}

int cr_fail_usage(const cr_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cr_vsay_error(s->opt.program, fmt, ap);
    va_end(ap);
    return CR_EXIT_USAGE;
}
