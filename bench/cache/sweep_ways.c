/* Associativity: for each level, N addresses one capacity apart (a
 * multiple of sets x line whatever the ways, so every one of them falls
 * into the same set of that level, and of every smaller level whose sets
 * x line divides it), chased in a random cyclic order, N from 1 up. While
 * N is at most the ways they all stay; from ways + 1 on, LRU evicts each
 * before it comes round again, and the time per load jumps to the next
 * level's. A physically indexed level sees the same set only where the
 * addresses' set bits are physical too: huge pages keep the low 21 bits,
 * 4 KiB pages only 12; where huge pages are not to be had the jump smears
 * and the row says so. */
#include "cache/state.h"

#include <inttypes.h>
#include <stdio.h>

#define CC_WAYS_MAX_ADDRESSES 24
#define CC_WAYS_MAX_ADDRESSES_QUICK 18

int cc_sweep_ways(cc_state *s)
{
    unsigned most = s->ses.opt.quick ? CC_WAYS_MAX_ADDRESSES_QUICK : CC_WAYS_MAX_ADDRESSES;
    for (unsigned k = 0; k < s->levels.count; ++k) {
        cc_level_data *d = &s->level[k];
        uint64_t stride = (uint64_t)s->levels.level[k].capacity / 8 * 8;
        d->huge_share = -1;
        if (!cc_span_ok(s, stride * most)) {
            snprintf(d->ways_why, sizeof d->ways_why,
                     "%u addresses one capacity apart span %" PRIu64 " MiB, above what one chase may (1 GiB, and the "
                     "device's largest allocation)",
                     most, stride * most >> 20);
            continue;
        }
        d->ways_stride = stride;
        char name[8];
        cc_level_name(s, k, name, sizeof name);
        for (unsigned n = 1; n <= most; ++n) {
            cr_result row;
            cc_row_init(s, &row, "set-conflict", "ways");
            row.size_bytes = stride * n;
            cc_order o;
            if (cc_order_random(&o, n, stride / 8, s->cfg.seed) != 0) {
                fprintf(stderr, "%s: error: out of memory for the set-conflict chain\n", s->ses.opt.program);
                return -1;
            }
            char err[CR_ERRLEN] = "";
            cc_walk w = {.s = s, .o = &o};
            int rc;
            if (cc_prepare_chain(s, &o, 0, err, sizeof err) != CR_OK) {
                rc = cc_series_add(&d->ways, n, 0, false) == 0 ? cc_record_failed(s, &row, err) : -1;
            } else {
                if (s->in_place)
                    d->huge_share = cc_huge_share("/proc/self/smaps", s->chain_mem.words, s->chain_mem.nwords * 8);
                cr_result_add_param(&row, "level=%s;addresses=%u;stride=%" PRIu64, name, n, stride);
                if (d->huge_share >= 0)
                    cr_result_add_param(&row, "huge_share=%.2f", d->huge_share);
                rc = cc_walk_measure(&w, &row, err, sizeof err) == CR_OK ? cc_record_point(s, &row, &d->ways, n)
                     : cc_series_add(&d->ways, n, 0, false) == 0              ? cc_record_failed(s, &row, err)
                                                                             : -1;
            }
            cc_order_free(&o);
            if (rc != 0)
                return -1;
        }
    }
    return 0;
}
