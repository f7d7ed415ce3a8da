/* The kinds of load the API offers besides the walker's own (CUDA: .ca
 * cached in L1, .cg cached in L2 only, .nc through the read-only path):
 * the same random-order chase at the line's stride for each, footprints
 * doubling from 4 KiB to the top, so that where each path's capacity ends
 * shows, and where bypassing L1 starts to pay (Li, ch. 5: the footprint
 * from which .cg is faster than .ca). */
#include "cache/state.h"

#include <inttypes.h>
#include <stdio.h>

int cc_sweep_loads(cc_state *s)
{
    const cc_backend *be = s->be;
    unsigned line = s->line0;
    for (uint64_t footprint = UINT64_C(4) << 10; footprint <= s->top; footprint *= 2) {
        cc_order o;
        if (cc_order_random(&o, footprint / line, line / 8, s->cfg.seed) != 0) {
            fprintf(stderr, "%s: error: out of memory for a chain of %" PRIu64 " bytes\n", s->ses.opt.program,
                    footprint);
            return -1;
        }
        int rc = 0;
        for (unsigned kind = 0; kind < be->n_load_kinds && rc == 0; ++kind) {
            cr_result row;
            cc_row_init(s, &row, be->load_kinds[kind], "loads");
            row.size_bytes = footprint;
            cr_result_add_param(&row, "stride=%u", line);
            rc = cc_chase_point(s, &o, &row, &s->loads[kind], (double)footprint, kind + 1);
        }
        cc_order_free(&o);
        if (rc != 0)
            return -1;
    }
    return 0;
}
