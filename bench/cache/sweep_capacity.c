/* The capacity sweep: a random-order chase at the line's stride over
 * footprints from 1 KiB to the top, in steps of 1.25, 1.5, 1.75 and 2
 * times each power of two, so that a capacity is found to within a
 * quarter of its octave: "within one step" of a reference means that. The
 * order is random because a prefetcher follows any regular one, and then
 * footprints beyond a cache would still hit it.
 *
 * The sweep runs twice, up and then down, and each footprint's row is the
 * pass whose fastest walk was faster: a process on the same core (or its
 * SMT sibling, on a VM) shares its caches for a while and makes a level
 * look smaller than it is, but it rarely does so at the same footprint
 * twice, seconds apart. The row's note gives the other pass's fastest. */
#include "cache/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define CC_FIRST_FOOTPRINT (UINT64_C(1) << 10)

/* The i-th footprint of the sweep: 2^(10 + i/4) x (1 + (i % 4) / 4). */
static uint64_t footprint_at(size_t i) { return (CC_FIRST_FOOTPRINT << (i / 4)) / 4 * (4 + i % 4); }

/* Measures one footprint into *row (unrecorded); 0, or -1 without memory
 * for the chain. A failed walk leaves an invalid row saying why. */
static int measure(cc_state *s, uint64_t footprint, cr_result *row)
{
    unsigned line = s->line0;
    cc_row_init(s, row, "random", "capacity");
    row->size_bytes = footprint;
    cr_result_add_param(row, "stride=%u;elements=%" PRIu64, line, footprint / line);
    cc_order o;
    if (cc_order_random(&o, footprint / line, line / 8, s->cfg.seed) != 0) {
        fprintf(stderr, "%s: error: out of memory for a chain of %" PRIu64 " bytes\n", s->ses.opt.program, footprint);
        return -1;
    }
    char err[CR_ERRLEN] = "";
    cc_walk w = {.s = s, .o = &o};
    if (cc_prepare_chain(s, &o, 0, err, sizeof err) != CR_OK || cc_walk_measure(&w, row, err, sizeof err) != CR_OK) {
        cr_result_unmeasured(row);
        row->valid = false;
        snprintf(row->note, sizeof row->note, "run failed: %s", err);
    }
    cc_order_free(&o);
    return 0;
}

/* The row a footprint keeps of its two: a failed one, so that no failure
 * hides behind the other pass; else the one whose fastest walk was faster,
 * the other's fastest in its note. */
static const cr_result *kept(cr_result *a, cr_result *b)
{
    if (!a->valid || !b->valid)
        return a->valid ? b : a;
    cr_result *fast = b->figure_best < a->figure_best ? b : a, *slow = fast == a ? b : a;
    if (fast->note[0] == '\0')
        snprintf(fast->note, sizeof fast->note, "fastest of two passes; the other's fastest walk %.4g ns per load",
                 slow->figure_best);
    return fast;
}

int cc_sweep_capacity(cc_state *s)
{
    size_t n = 0;
    while (footprint_at(n) / s->line0 * s->line0 <= s->top)
        ++n;
    cr_result *up = calloc(n ? n : 1, sizeof *up), *down = calloc(n ? n : 1, sizeof *down);
    int rc = up && down ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "%s: error: out of memory\n", s->ses.opt.program);
    for (size_t i = 0; i < n && rc == 0; ++i)
        rc = measure(s, footprint_at(i) / s->line0 * s->line0, &up[i]);
    for (size_t i = n; i-- > 0 && rc == 0;)
        rc = measure(s, footprint_at(i) / s->line0 * s->line0, &down[i]);
    for (size_t i = 0; i < n && rc == 0; ++i) {
        if (up[i].size_bytes / s->line0 < 4)
            continue;
        cr_result row = *kept(&up[i], &down[i]);
        if (!row.valid && row.stats.n == 0)
            fprintf(stderr, "%s: error: capacity at %" PRIu64 " bytes: %s\n", s->ses.opt.program, row.size_bytes,
                    row.note);
        rc = cc_record_point(s, &row, &s->capacity, (double)row.size_bytes);
    }
    free(up);
    free(down);
    if (rc == 0)
        cc_find_levels(s->capacity.p, s->capacity.n, &s->levels);
    return rc;
}
