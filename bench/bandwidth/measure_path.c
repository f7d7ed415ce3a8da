/* One path at one size, measured as a group (measure_group.h): the path's
 * phases in order each round, and from INTERLEAVE_BYTES on the host's
 * reference beside them; then verified and recorded: the size row, and a
 * CPU access's map and unmap as latencies. */
#include "bandwidth/run.h"

#include "bandwidth/transfer_model.h"
#include "measure_group.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* Transfers at least this large run interleaved with their host reference,
 * so that drift on a shared machine cancels in the ratio. */
#define INTERLEAVE_BYTES (UINT64_C(16) << 20)

typedef struct {
    bw_run *run;
    const bw_path *path;
    unsigned phase;
} phase_ctx;

/* A repetition is its phases in order; before its first, untimed, the
 * backend places the data where the path says a repetition starts, so that
 * neither the warm-up nor the previous repetition leaves it elsewhere. */
static cr_status phase_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    phase_ctx *c = arg;
    const bw_backend *be = c->run->be;
    cr_status st = c->phase == 0 && be->place ? be->place(c->path, err, errlen) : CR_OK;
    if (st != CR_OK)
        return st;
    return be->run(c->path, c->phase, t, err, errlen);
}

/* The phase whose time is the path's transfer: the memcpy of a CPU access. */
static unsigned transfer_phase(const bw_path *p) { return p->kind == BW_CPU_ACCESS ? 1 : 0; }

/* The path's group and what its rows report back to the sweep. */
typedef struct {
    bw_run *run;
    const bw_path *p;
    uint64_t bytes, expected_sum;
    bool paired;  /* the host's reference measured beside the phases, as the last series */
    double *seconds;
    bool *valid;
} path_group;

static int path_failed(void *vpg, size_t point, const char *err)
{
    (void)point;
    path_group *pg = vpg;
    bw_run *run = pg->run;
    run->be->release(pg->p);
    cr_result r;
    bw_init_device_row(run, &r, pg->p->key, "size", pg->bytes);
    r.valid = false;
    cr_result_unmeasured(&r);
    snprintf(r.note, sizeof r.note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s at %" PRIu64 " bytes: %s\n", run->ses.opt.program, pg->p->key, pg->bytes, err);
    return bw_record(run, &r);
}

/* A technique's row: its figure is its time, from host input to host output. */
static int technique_row(path_group *pg, const cr_measurement *m, bool ok, const char *note)
{
    cr_result r;
    bw_init_device_row(pg->run, &r, pg->p->key, "size", pg->bytes);
    bw_set_stats(&r, m);
    r.figure = m->stats.median * 1e3;
    r.figure_best = m->stats.min * 1e3;
    snprintf(r.unit, sizeof r.unit, "ms");
    snprintf(r.params, sizeof r.params, "workload=%s", pg->p->workload == BW_VECTOR_ADD ? "vectoradd" : "reduce");
    r.valid = ok;
    snprintf(r.note, sizeof r.note, "%s", note);
    *pg->seconds = ok ? m->stats.median : NAN;
    *pg->valid = ok;
    return bw_record(pg->run, &r);
}

/* The size row of a transfer: its bandwidth, all its transfers together,
 * and its ratio to the host's reference. Its verified row at the largest
 * size stands for the path in the matrix (bw_record_matrix checks the size). */
static int transfer_row(path_group *pg, const cr_group *g, bool ok, const char *note)
{
    bw_run *run = pg->run;
    const bw_path *p = pg->p;
    int refi = bw_reference_of(p);
    unsigned transfers = bw_transfers_of(run, p);
    const cr_series *timed = &g->series[transfer_phase(p)], *ref = &g->series[g->count - 1];
    const cr_measurement *m = &timed->out;
    cr_result r;
    bw_init_device_row(run, &r, p->key, "size", pg->bytes);
    r.bytes_per_rep = (double)transfers * (double)pg->bytes; /* the bandwidth of all of them together */
    bw_set_stats(&r, m);
    /* The host moves one transfer's bytes in its time: times its ratio by
     * the transfers the path made in its own. */
    if (pg->paired && ref->out.stats.n == m->stats.n)
        r.ref_ratio = cr_group_ratio(ref, timed, (double)pg->bytes, r.bytes_per_rep, true);
    else
        r.ref_ratio = r.figure / run->ref_figure[refi];
    int len = snprintf(r.params, sizeof r.params, "ref=%s;ref_GBps=%.4g;paired=%d", bw_ref_names[refi],
                       pg->paired ? (double)pg->bytes / ref->out.stats.median * 1e-9 : run->ref_figure[refi],
                       pg->paired);
    /* Against the all-cores copy measured at this size before the paths:
     * never interleaved, so a ratio of medians. */
    if (refi == BW_REF_MEMCPY && len > 0 && (size_t)len < sizeof r.params)
        snprintf(r.params + len, sizeof r.params - (size_t)len, ";mt_ref=%s;mt_ref_GBps=%.4g;mt_ref_ratio=%.4g",
                 bw_ref_names[BW_REF_MEMCPY_MT], run->ref_figure[BW_REF_MEMCPY_MT],
                 r.figure / run->ref_figure[BW_REF_MEMCPY_MT]);
    if (transfers > 1)
        cr_result_add_param(&r, "transfers=%u", transfers);
    cr_result_verdict(&r, ok, note, m);
    if (ok && !m->below_resolution && (p->from == BW_MEM_MALLOC || p->to == BW_MEM_MALLOC))
        snprintf(r.note, sizeof r.note, "%s", p->desc); /* how the device reaches it: HMM, ATS, system SVM */
    if (bw_record(run, &r) != 0)
        return -1;
    if (ok) {
        run->largest[p - run->paths] = r;
        run->has_largest[p - run->paths] = true;
    }
    return 0;
}

/* Map and unmap: latencies, never bandwidths. A map that would have had
 * to beat twice the host's copy bandwidth cannot have moved the data. */
static int map_rows(path_group *pg, const cr_group *g, bool ok)
{
    bw_run *run = pg->run;
    const bw_path *p = pg->p;
    for (unsigned i = 0; i < p->phases; ++i) {
        if (i == transfer_phase(p))
            continue;
        const cr_measurement *m = &g->series[i].out;
        char variant[64];
        snprintf(variant, sizeof variant, "%s:%s", p->key, i == 0 ? "map" : "unmap");
        cr_result r;
        bw_init_device_row(run, &r, variant, "size", pg->bytes);
        cr_measurement phase = *m;
        phase.energy = (cr_energy_point){0}; /* the access's row has the energy of all three */
        bw_set_stats(&r, &phase);
        r.bytes_per_rep = NAN;
        r.figure = m->stats.median * 1e6;
        r.figure_best = m->stats.min * 1e6;
        snprintf(r.unit, sizeof r.unit, "us");
        bool none = bw_moved_no_data((double)pg->bytes, m->stats.median, run->ref_figure[BW_REF_MEMCPY] * 1e9);
        snprintf(r.params, sizeof r.params, "data_moved=%s", none ? "no (zero-copy)" : "possibly");
        r.valid = ok;
        if (!ok)
            snprintf(r.note, sizeof r.note, "the access through this map failed verification");
        if (bw_record(run, &r) != 0)
            return -1;
    }
    return 0;
}

/* The path measured: what its repetitions left is checked before the
 * backend lets go of it, then its rows. */
static int path_measured(void *vpg, const cr_group *g, size_t point)
{
    (void)point;
    path_group *pg = vpg;
    const bw_path *p = pg->p;
    char note[sizeof ((cr_result *)NULL)->note] = "";
    bool ok = bw_verify_path(pg->run, p, pg->bytes, pg->expected_sum, note, sizeof note);
    pg->run->be->release(p);
    if (p->kind == BW_TECHNIQUE)
        return technique_row(pg, &g->series[transfer_phase(p)].out, ok, note);
    if (transfer_row(pg, g, ok, note) != 0)
        return -1;
    double total = 0;
    for (unsigned i = 0; i < p->phases; ++i)
        total += g->series[i].out.stats.median;
    *pg->seconds = total;
    *pg->valid = ok;
    return map_rows(pg, g, ok);
}

int bw_measure_path(bw_run *run, const bw_path *p, uint64_t bytes, uint64_t expected_sum, double *seconds,
                    bool *valid)
{
    path_group pg = {run, p, bytes, expected_sum, bytes >= INTERLEAVE_BYTES && bw_is_transfer(p), seconds, valid};
    const cr_group_steps steps = {.points = 1, .ctx = &pg, .failed = path_failed, .point = path_measured};
    *seconds = NAN;
    *valid = false;
    char err[CR_ERRLEN];
    const void *src = p->kind == BW_TECHNIQUE ? (const void *)run->floats : run->src;
    if (run->be->prepare(p, bytes, src, err, sizeof err) != CR_OK)
        return cr_group_fail(&steps, err);
    cr_group g;
    if (cr_group_init(&g, 4, run->ses.opt.reps_max) != 0) {
        run->be->release(p);
        fprintf(stderr, "%s: error: out of memory for %s's series\n", run->ses.opt.program, p->key);
        return -1;
    }
    phase_ctx ctx[3];
    for (unsigned i = 0; i < p->phases; ++i) {
        ctx[i] = (phase_ctx){run, p, i};
        cr_group_add(&g, &run->dev_meas, phase_rep, &ctx[i]);
    }
    bw_ref_ctx rc = {run, bw_reference_of(p), bytes, 0, 0, 0};
    if (pg.paired)
        cr_group_add(&g, &run->host_meas, bw_ref_rep, &rc);
    int result = cr_group_run(&g, CR_GROUP_ROUNDS, &steps);
    cr_group_free(&g);
    return result;
}
