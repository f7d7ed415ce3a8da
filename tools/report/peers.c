#include "report/peers.h"

#include <stdio.h>
#include <string.h>

void rp_peers_table(rp_table *t, const cr_csv_table *csv)
{
    snprintf(t->id, sizeof t->id, "peers");
    snprintf(t->title, sizeof t->title, "crossroof beside the peers on the same device and the same bytes");
    snprintf(t->key_head, sizeof t->key_head, "suite, test, size, statistic");
    static const char *const cols[] = {"crossroof (GB/s)", "peer (GB/s)", "ratio", "n crossroof",
                                       "n peer",           "slices",      "flags", "note"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; ++c)
        snprintf(t->cols[t->ncols++], sizeof t->cols[0], "%s", cols[c]);
    for (size_t i = 0; i < csv->nrows; ++i) {
        const char *test = rp_get(csv, i, "test"), *ours = rp_get(csv, i, "crossroof_test");
        const char *dtype = rp_get(csv, i, "dtype");
        char size[48];
        rp_format_bytes(rp_number(rp_get(csv, i, "size_bytes")), size, sizeof size);
        char theirs[96] = "";
        if (strcmp(test, ours) != 0)
            snprintf(theirs, sizeof theirs, " (%s)", ours);
        rp_row *r = rp_row_for(t, "%s %s%s%s%s %s %s", rp_get(csv, i, "suite"), test, theirs, *dtype ? " " : "",
                               dtype, size, rp_get(csv, i, "statistic"));
        rp_set_num(r, 0, rp_number(rp_get(csv, i, "crossroof")), 5);
        rp_set_num(r, 1, rp_number(rp_get(csv, i, "peer")), 5);
        rp_set_num(r, 2, rp_number(rp_get(csv, i, "ratio")), 4);
        rp_set_int(r, 3, rp_number(rp_get(csv, i, "n_crossroof")));
        rp_set_int(r, 4, rp_number(rp_get(csv, i, "n_peer")));
        rp_set_int(r, 5, rp_number(rp_get(csv, i, "slices")));
        rp_set_text(r, 6, "%s", rp_get(csv, i, "flags"));
        rp_set_text(r, 7, "%s", rp_get(csv, i, "note"));
    }
}
