/* Lee's memory-movement techniques (2012, Eq. 3.1-3.5) against the
 * model: each technique's measured time beside what the fitted paths of
 * its stages predict and what their measured times compose to, and per
 * workload the techniques ranked both ways. */
#include "bandwidth/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const technique_names[BW_NTECHNIQUES] = {"default", "cpu-resident", "gpu-resident", "mixed"};

static double measured_at(const double *seconds, const uint64_t *sizes, size_t nsizes, uint64_t bytes)
{
    for (size_t s = 0; s < nsizes; ++s)
        if (sizes[s] == bytes)
            return seconds[s];
    return NAN;
}

/* Predicted seconds of technique path p on bytes of input, from the fitted
 * paths that model its stages; NaN when one of them has no fit. Vector add
 * moves two inputs of S/2 and one output of S/2, its kernel reads S and
 * writes S/2; reduce moves S in, reads S and returns a few bytes, costed as
 * the output path's fixed cost. The kernel terms use the kernel paths' B(S),
 * whose fixed cost stands for Lee's C. */
static double predict(const bw_path *p, uint64_t bytes, const bw_path *paths, size_t npaths, const bw_fit *fits,
                      const bool *fitted)
{
    const bw_fit *stage[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; ++k)
        for (size_t i = 0; i < npaths; ++i)
            if (p->model[k] && fitted[i] && strcmp(paths[i].key, p->model[k]) == 0)
                stage[k] = &fits[i];
    for (int k = 0; k < 4; ++k)
        if (stage[k] == NULL)
            return NAN;
    double S = (double)bytes;
    if (p->workload == BW_VECTOR_ADD)
        return 2 * bw_fit_seconds(stage[0], S / 2) + bw_fit_seconds(stage[1], S) + bw_fit_seconds(stage[2], S / 2) +
               bw_fit_seconds(stage[3], S / 2);
    return bw_fit_seconds(stage[0], S) + bw_fit_seconds(stage[1], S) + stage[3]->c_s;
}

/* The same composition with each stage's measured time at its size instead
 * of the fit: what the model predicts without Eq. 3.5's smoothing. NaN when
 * a stage was not measured at the size it needs. */
static double compose_measured(const bw_path *p, uint64_t bytes, const bw_path *paths, size_t npaths,
                               const uint64_t *sizes, size_t nsizes, double (*seconds)[BW_MAX_SIZES])
{
    size_t stage[4];
    for (int k = 0; k < 4; ++k) {
        stage[k] = SIZE_MAX;
        for (size_t i = 0; i < npaths; ++i)
            if (p->model[k] && strcmp(paths[i].key, p->model[k]) == 0)
                stage[k] = i;
        if (stage[k] == SIZE_MAX)
            return NAN;
    }
    /* Time of stage k at b bytes; reduce's few output bytes cost what the
     * smallest measured transfer costs. */
#define AT(k, b) measured_at(seconds[stage[k]], sizes, nsizes, (b))
    if (p->workload == BW_VECTOR_ADD)
        return 2 * AT(0, bytes / 2) + AT(1, bytes) + AT(2, bytes / 2) + AT(3, bytes / 2);
    return AT(0, bytes) + AT(1, bytes) + seconds[stage[3]][0];
#undef AT
}

/* "a<b<c<d" by ascending time. */
static void rank_text(const double *t, char *buf, size_t len)
{
    int order[BW_NTECHNIQUES] = {0, 1, 2, 3};
    for (int i = 1; i < BW_NTECHNIQUES; ++i)
        for (int j = i; j > 0 && t[order[j]] < t[order[j - 1]]; --j) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    buf[0] = '\0';
    for (int i = 0; i < BW_NTECHNIQUES; ++i) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? "<" : "", technique_names[order[i]]);
    }
}

/* Where the rankings differ: each pair the model orders the other way,
 * with how far apart they measured and how wrong the model was on each. */
static void explain_ranking(const double *meas, const double *pred, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int a = 0; a < BW_NTECHNIQUES; ++a)
        for (int b = a + 1; b < BW_NTECHNIQUES; ++b) {
            if ((meas[a] < meas[b]) == (pred[a] < pred[b]))
                continue;
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s vs %s: measured %.1f%% apart, model off by %+.0f%%/%+.0f%%",
                     used ? "; " : "", technique_names[a], technique_names[b],
                     100.0 * fabs(meas[a] - meas[b]) / fmin(meas[a], meas[b]), 100.0 * (pred[a] / meas[a] - 1),
                     100.0 * (pred[b] / meas[b] - 1));
        }
}

/* What the technique rows read: the sweep's sizes, and each path's times
 * and fits. */
typedef struct {
    bw_run *run;
    const uint64_t *sizes;
    size_t nsizes;
    double (*seconds)[BW_MAX_SIZES];
    const bw_fit *fits;
    const bool *fitted;
} technique_ctx;

/* Technique path i's row at size s, beside what its model predicts
 * (*predicted, NaN where a stage has no fit). */
static int technique_row(const technique_ctx *c, size_t i, size_t s, double *predicted)
{
    const bw_path *p = &c->run->paths[i], *paths = c->run->paths;
    size_t npaths = c->run->npaths;
    double t = c->seconds[i][s], pt = predict(p, c->sizes[s], paths, npaths, c->fits, c->fitted);
    double ct = compose_measured(p, c->sizes[s], paths, npaths, c->sizes, c->nsizes, c->seconds);
    cr_result r;
    bw_init_device_row(c->run, &r, p->key, "technique", c->sizes[s]);
    cr_result_unmeasured(&r);
    snprintf(r.timer, sizeof r.timer, "host");
    snprintf(r.unit, sizeof r.unit, "ms");
    r.figure = t * 1e3;
    if (isnan(pt))
        snprintf(r.note, sizeof r.note, "no prediction: a path of its model has no fit");
    else
        snprintf(r.params, sizeof r.params, "predicted_ms=%.4g;model_error_pct=%+.1f;composed_ms=%.4g", pt * 1e3,
                 100 * (pt / t - 1), ct * 1e3);
    snprintf(r.note, sizeof r.note, "model: %s + %s + %s + %s; composed: the same stages' measured times",
             p->model[0], p->model[1], p->model[2], p->model[3]);
    *predicted = pt;
    return bw_record(c->run, &r);
}

/* Workload w's technique rows at every size; *ranked_at is the largest
 * size where all four techniques ran and were predicted, 0 where none. */
static int workload_rows(const technique_ctx *c, int w, uint64_t *ranked_at)
{
    *ranked_at = 0;
    for (size_t s = 0; s < c->nsizes; ++s) {
        int complete = 0;
        for (size_t i = 0; i < c->run->npaths; ++i) {
            const bw_path *p = &c->run->paths[i];
            if (p->kind != BW_TECHNIQUE || (int)p->workload != w || isnan(c->seconds[i][s]))
                continue;
            double predicted;
            if (technique_row(c, i, s, &predicted) != 0)
                return -1;
            complete += !isnan(predicted);
        }
        if (complete == BW_NTECHNIQUES)
            *ranked_at = c->sizes[s];
    }
    return 0;
}

/* Workload w's techniques ranked at size ranked_at, as measured, as the
 * model predicts and as their stages' measured times compose. */
static int ranking_row(const technique_ctx *c, int w, uint64_t ranked_at)
{
    double meas[BW_NTECHNIQUES], pred[BW_NTECHNIQUES], comp[BW_NTECHNIQUES];
    size_t s = 0;
    while (c->sizes[s] != ranked_at)
        ++s;
    for (size_t i = 0; i < c->run->npaths; ++i) {
        const bw_path *p = &c->run->paths[i];
        if (p->kind != BW_TECHNIQUE || (int)p->workload != w)
            continue;
        meas[p->technique] = c->seconds[i][s];
        pred[p->technique] = predict(p, ranked_at, c->run->paths, c->run->npaths, c->fits, c->fitted);
        comp[p->technique] = compose_measured(p, ranked_at, c->run->paths, c->run->npaths, c->sizes, c->nsizes,
                                              c->seconds);
    }
    cr_result r;
    bw_init_device_row(c->run, &r, w == BW_VECTOR_ADD ? "vectoradd" : "reduce", "ranking", ranked_at);
    r.bytes_per_rep = NAN;
    cr_result_unmeasured(&r);
    r.unit[0] = '\0';
    char m[48], p[48], cm[48]; /* "default<cpu-resident<gpu-resident<mixed" is 39 */
    rank_text(meas, m, sizeof m);
    rank_text(pred, p, sizeof p);
    rank_text(comp, cm, sizeof cm);
    bool match = strcmp(m, p) == 0;
    snprintf(r.params, sizeof r.params, "measured=%s;predicted=%s;match=%d;composed=%s", m, p, match, cm);
    if (match) {
        snprintf(r.note, sizeof r.note, "the model ranks the techniques as measured: use %.*s", (int)strcspn(m, "<"),
                 m);
    } else {
        /* Why first (the pairs can run long): do the fits or the
         * composition itself miss? */
        snprintf(r.note, sizeof r.note, "%s; ",
                 strcmp(m, cm) == 0 ? "the stages' measured times rank as measured: the fitted B(S) miss (caches)"
                                    : "the stages' measured times rank otherwise too: the gaps are within the "
                                      "model's error");
        size_t used = strlen(r.note);
        explain_ranking(meas, pred, r.note + used, sizeof r.note - used);
    }
    return bw_record(c->run, &r);
}

int bw_record_techniques(bw_run *run, const uint64_t *sizes, size_t nsizes, double (*seconds)[BW_MAX_SIZES],
                         const bw_fit *fits, const bool *fitted)
{
    const technique_ctx c = {run, sizes, nsizes, seconds, fits, fitted};
    for (int w = BW_VECTOR_ADD; w <= BW_REDUCE; ++w) {
        uint64_t ranked_at;
        if (workload_rows(&c, w, &ranked_at) != 0 || (ranked_at != 0 && ranking_row(&c, w, ranked_at) != 0))
            return -1;
    }
    return 0;
}
