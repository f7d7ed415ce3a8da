/* Sweeps measured in several passes, up, down, up..., each point's row
 * the pass whose fastest walk was fastest. A process on the same core (or
 * another tenant of the host's caches) slows walks for a while, but
 * rarely the same point in every pass, seconds apart; and each pass
 * prepares its chain in fresh memory, so that a physically indexed level
 * sees other pages too. The row's note gives the slowest pass's fastest. */
#include "cache/state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int cc_measure_random(cc_state *s, uint64_t footprint, uint64_t stride, cr_result *row)
{
    cc_order o;
    if (cc_order_random(&o, footprint / stride, stride / 8, s->cfg.seed) != 0) {
        fprintf(stderr, "%s: error: out of memory for a chain of %" PRIu64 " bytes\n", s->ses.opt.program, footprint);
        return -1;
    }
    int rc = cc_measure_chain(s, &o, 0, row);
    cc_order_free(&o);
    return rc;
}

/* The row point i keeps: a failed one, so that no failure hides behind
 * the others; else the fastest. */
static cr_result *kept(cr_result *const *pass, unsigned passes, size_t i)
{
    cr_result *fast = &pass[0][i], *slow = &pass[0][i];
    for (unsigned k = 0; k < passes; ++k) {
        cr_result *r = &pass[k][i];
        if (!r->valid)
            return r;
        if (r->figure_best < fast->figure_best)
            fast = r;
        if (r->figure_best > slow->figure_best)
            slow = r;
    }
    if (fast->note[0] == '\0' && passes > 1)
        snprintf(fast->note, sizeof fast->note,
                 "fastest of %u passes; the slowest pass's fastest walk %.4g ns per load", passes, slow->figure_best);
    return fast;
}

int cc_measure_passes(cc_state *s, const cc_passes *ps)
{
    cr_result *pass[CC_MAX_PASSES] = {0};
    double *x = calloc(ps->n ? ps->n : 1, sizeof *x);
    int rc = x && ps->passes >= 1 && ps->passes <= CC_MAX_PASSES ? 0 : -1;
    for (unsigned k = 0; k < ps->passes && rc == 0; ++k)
        if (!(pass[k] = calloc(ps->n ? ps->n : 1, sizeof *pass[k])))
            rc = -1;
    if (rc != 0)
        fprintf(stderr, "%s: error: out of memory\n", s->ses.opt.program);
    for (unsigned k = 0; k < ps->passes && rc == 0; ++k)
        for (size_t j = 0; j < ps->n && rc == 0; ++j) {
            size_t i = k % 2 ? ps->n - 1 - j : j;
            rc = ps->measure(s, ps->ctx, i, &pass[k][i], &x[i]);
        }
    for (size_t i = 0; i < ps->n && rc == 0; ++i) {
        cr_result row = *kept(pass, ps->passes, i);
        rc = cc_record_chase(s, &row, ps->series, x[i]);
    }
    for (unsigned k = 0; k < CC_MAX_PASSES; ++k)
        free(pass[k]);
    free(x);
    return rc;
}
