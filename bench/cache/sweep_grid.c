/* The footprint x stride grid, the heat map's data: for every stride from
 * one chain word (8 B) to 8 KiB and every footprint from 1 KiB doubling to
 * the top, a random-order chase over the footprint's elements one stride
 * apart (random: a prefetcher would turn a regular stride into hits, and
 * the misses are what the map is to show). A power-of-two stride up to a
 * level's sets x line touches fewer lines and as many fewer sets, so the
 * level's boundary stays at its capacity; beyond it every element has a
 * set's ways to itself and the boundary moves out with the stride: the
 * stride where it starts to move is the way size (cc_grid_way_size), the
 * capacity over it the ways. Strides below the chain's 8-byte words cannot
 * be walked. */
#include "cache/state.h"

#include <inttypes.h>

#define CC_GRID_MIN_ELEMENTS 4

int cc_sweep_grid(cc_state *s)
{
    for (unsigned k = 0; k < CC_GRID_STRIDES; ++k) {
        uint64_t stride = (uint64_t)CC_GRID_MIN_STRIDE << k;
        /* --quick: footprints x4 apart, the map's outline in half the time. */
        for (uint64_t footprint = UINT64_C(1) << 10; footprint <= s->top; footprint *= s->ses.opt.quick ? 4 : 2) {
            uint64_t n = footprint / stride;
            if (n < CC_GRID_MIN_ELEMENTS)
                continue;
            cr_result row;
            cc_row_init(s, &row, "random", "grid");
            row.size_bytes = footprint;
            cr_result_add_param(&row, "stride=%" PRIu64 ";elements=%" PRIu64, stride, n);
            cc_order o;
            if (cc_order_random(&o, n, stride / 8, s->cfg.seed) != 0) {
                fprintf(stderr, "%s: error: out of memory for a chain of %" PRIu64 " bytes\n", s->ses.opt.program,
                        footprint);
                return -1;
            }
            int rc = cc_chase_point(s, &o, &row, &s->grid[k], (double)footprint, 0);
            cc_order_free(&o);
            if (rc != 0)
                return -1;
        }
    }
    return 0;
}
