/* The local-memory path's vector-width sweep. */
#define _GNU_SOURCE
#include "bandwidth/local_sweep.h"

#include "bandwidth/local_replay.h"
#include "random.h"
#include "results.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The widths in 32-bit words: a word, and the vectors OpenCL has (CUDA's
 * widest shared-memory access is 4 words; its backend says so for more). */
static const unsigned widths[] = {1, 2, 4, 8, 16};

/* A GPU hides a work-group's start and end behind the others resident on
 * its compute unit, and its last wave of groups is a small part of the
 * run only when each unit gets many (64: an H200 SM holds 13 groups of
 * 16 KiB of shared memory at once, so five waves, the last 92% full); a
 * CPU core runs its groups one after another with the tile in its own
 * cache, and a few keep every core busy. */
#define TILES_PER_GPU_UNIT 64
#define TILES_PER_CPU_UNIT 8

uint64_t bw_local_buffer_bytes(const cr_device_info *d, bool *capped)
{
    const uint64_t units = d->compute_units ? d->compute_units : 1;
    uint64_t tiles = units * (d->is_cpu ? TILES_PER_CPU_UNIT : TILES_PER_GPU_UNIT);
    const uint64_t room = d->max_alloc_bytes / BW_LOCAL_TILE_BYTES;
    *capped = room >= 1 && tiles > room;
    if (*capped)
        tiles = room;
    return tiles * BW_LOCAL_TILE_BYTES;
}

static void begin_row(const bw_local_env *env, cr_result *r, unsigned v)
{
    cr_result_begin(r, "bandwidth", env->be->base.name, env->ses->info.name, BW_LOCAL_PATH_KEY, NULL, "local-width",
                    "GB/s");
    r->size_bytes = env->bytes;
    r->bytes_per_rep = (double)bw_local_traffic_bytes(env->bytes);
    r->work_group = BW_LOCAL_GROUP;
    r->work_items = env->bytes / BW_LOCAL_TILE_BYTES * BW_LOCAL_GROUP;
    r->peak_kind = CR_PEAK_LOCAL;
    snprintf(r->params, sizeof r->params,
             "vector=%u;loads_per_barrier=%u;group=%u;rounds=%u;local_bytes=%" PRIu64 ";global_bytes=%" PRIu64, v,
             bw_local_loads(v), BW_LOCAL_GROUP, BW_LOCAL_ROUNDS, bw_local_traffic_bytes(env->bytes), 2 * env->bytes);
}

/* A row that measured nothing: the width is not supported, or the run failed. */
static int record_unmeasured(const bw_local_env *env, cr_result *r, cr_status st, const char *err)
{
    cr_result_unmeasured(r);
    r->bytes_per_rep = NAN;
    if (st == CR_UNSUPPORTED) {
        snprintf(r->stop, sizeof r->stop, "unsupported");
        snprintf(r->note, sizeof r->note, "not supported: %s", err);
    } else {
        r->valid = false;
        snprintf(r->note, sizeof r->note, "run failed: %s", err);
        fprintf(stderr, "%s: error: %s, %s: %s\n", env->ses->opt.program, BW_LOCAL_PATH_KEY, r->params, err);
    }
    return cr_session_record(env->ses, r);
}

typedef struct {
    const bw_backend *be;
    const bw_path *p;
} rep_ctx;

static cr_status local_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    const rep_ctx *c = arg;
    return c->be->run(c->p, 0, t, err, errlen);
}

/* Reads the destination back and replays the rounds over src; fills note
 * where they differ. */
static bool verify(const bw_local_env *env, const bw_path *p, unsigned v, const uint32_t *src, uint32_t *check,
                   char *note, size_t len)
{
    char err[CR_ERRLEN];
    uint64_t sum = 0;
    if (env->be->result(p, check, &sum, err, sizeof err) != CR_OK) {
        snprintf(note, len, "reading the result failed: %s", err);
        return false;
    }
    uint64_t bad = bw_local_first_mismatch(check, src, env->bytes / 4, v);
    if (bad != UINT64_MAX)
        snprintf(note, len, "destination differs from the host's replay of the rounds, first at word %" PRIu64, bad);
    return bad == UINT64_MAX;
}

static void describe(const bw_local_env *env, cr_result *r, const cr_measurement *m, bool ok, const char *note)
{
    cr_measurement_to_row(m, r);
    r->figure = r->bytes_per_rep / m->stats.median * 1e-9;
    r->figure_best = r->bytes_per_rep / m->stats.min * 1e-9;
    r->valid = ok;
    if (!ok)
        snprintf(r->note, sizeof r->note, "%s", note);
    else if (m->below_resolution)
        snprintf(r->note, sizeof r->note, "median below 20 timer ticks");
    else if (env->ses->info.is_cpu)
        snprintf(r->note, sizeof r->note, "local memory is the CPU's cache-resident stack/heap");
}

/* One width: its row into *r, recorded. */
static int measure_width(const bw_local_env *env, const bw_path *p, unsigned v, const uint32_t *src,
                         uint32_t *check, cr_result *r)
{
    char err[CR_ERRLEN] = "";
    begin_row(env, r, v);
    cr_status st = env->be->prepare_local(p, v, env->bytes, src, err, sizeof err);
    cr_measurement m;
    if (st == CR_OK) {
        rep_ctx c = {env->be, p};
        st = cr_measure(env->meas, local_rep, &c, &m, err, sizeof err);
    }
    if (st != CR_OK) {
        env->be->release(p);
        return record_unmeasured(env, r, st, err);
    }
    char note[sizeof r->note] = "";
    bool ok = verify(env, p, v, src, check, note, sizeof note);
    env->be->release(p);
    describe(env, r, &m, ok, note);
    return cr_session_record(env->ses, r);
}

int bw_local_sweep(const bw_local_env *env, const bw_path *p, cr_result *best, unsigned *best_width)
{
    *best_width = 0;
    uint32_t *src = malloc((size_t)env->bytes), *check = malloc((size_t)env->bytes);
    int rc = src && check ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "%s: error: cannot allocate the local-memory path's host buffers\n", env->ses->opt.program);
    uint64_t state = env->seed * UINT64_C(0x2545F4914F6CDD1D) + env->bytes;
    if (rc == 0)
        cr_fill_random_bytes(src, env->bytes, &state);
    for (size_t i = 0; i < sizeof widths / sizeof *widths && rc == 0; ++i) {
        cr_result r;
        rc = measure_width(env, p, widths[i], src, check, &r);
        if (rc == 0 && r.valid && strcmp(r.stop, "unsupported") != 0 && (!*best_width || r.figure > best->figure)) {
            *best = r;
            *best_width = widths[i];
        }
    }
    free(src);
    free(check);
    return rc;
}
