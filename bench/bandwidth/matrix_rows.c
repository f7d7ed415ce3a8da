/* The rows after the sweep: the devices' peer-to-peer topology as the
 * driver reports it, and the paths matrix at the largest size. */
#include "bandwidth/run.h"

#include "bandwidth/matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Links the topology rows can hold: every ordered pair of 16 devices. */
#define MAX_PEER_LINKS (16 * 15)

/* What links the devices, as the driver says: one row per link, or one
 * row saying why there is no table, so that its absence is never silent. */
int bw_record_topology(bw_run *run)
{
    cr_result r;
    bw_init_unmeasured_row(run, &r, "p2p-topology", "p2p-topology");
    r.unit[0] = '\0';
    char why[CR_ERRLEN];
    if (run->be->peer_links == NULL) {
        snprintf(why, sizeof why, "the %s API has no peer-to-peer query", run->be->base.name);
        return bw_record_unsupported_row(run, &r, why);
    }
    static bw_peer_link links[MAX_PEER_LINKS];
    unsigned devices = 0;
    size_t n = run->be->peer_links(links, MAX_PEER_LINKS, &devices);
    if (devices < 2) {
        snprintf(why, sizeof why, "needs >= 2 devices (%u present)", devices);
        return bw_record_unsupported_row(run, &r, why);
    }
    for (size_t i = 0; i < n && i < MAX_PEER_LINKS; ++i) {
        const bw_peer_link *l = &links[i];
        cr_result row = r;
        snprintf(row.params, sizeof row.params, "from=%u;to=%u;access=%d;native_atomics=%d;rank=%d;link=%s", l->from,
                 l->to, l->access, l->native_atomics, l->rank, l->link);
        if (n >= MAX_PEER_LINKS)
            snprintf(row.note, sizeof row.note, "the first %d links of %u devices", MAX_PEER_LINKS, devices);
        if (bw_record(run, &row) != 0)
            return -1;
    }
    return 0;
}

/* After the sweep, at the largest size: one row per cell of the matrix
 * (bw_matrix_cells), the cell's fastest verified path with its size row's
 * statistics (the local-memory path's best vector width), or why none of
 * its paths runs here. */
int bw_record_matrix(bw_run *run)
{
    bw_matrix_entry *e = calloc(run->npaths, sizeof *e);
    bw_matrix_cell *cells = calloc(run->npaths, sizeof *cells);
    size_t n = 0;
    int rc = e && cells ? 0 : -1;
    for (size_t i = 0; i < run->npaths && rc == 0; ++i)
        if (bw_path_selected(run, &run->paths[i])) {
            bool local = run->paths[i].kind == BW_KERNEL_LOCAL;
            bool at_end = run->has_largest[i] && (local || run->largest[i].size_bytes == run->max_bytes);
            e[n++] = (bw_matrix_entry){&run->paths[i], run->runnable[i], run->transfers[i], at_end,
                                       at_end ? run->largest[i].figure : NAN};
        }
    size_t ncells = rc == 0 ? bw_matrix_cells(e, n, cells) : 0;
    for (size_t c = 0; c < ncells && rc == 0; ++c) {
        const bw_path *p = e[cells[c].entry].path;
        size_t i = (size_t)(p - run->paths);
        cr_result r;
        if (cells[c].measured) {
            r = run->largest[i];
            snprintf(r.sweep, sizeof r.sweep, "matrix");
        } else {
            bw_init_unmeasured_row(run, &r, p->key, "matrix");
        }
        snprintf(r.params, sizeof r.params, "from=%s;to=%s;engine=%s", bw_memory_name(p->from), bw_memory_name(p->to),
                 bw_engine_name(p->engine));
        if (cells[c].measured && run->transfers[i] > 1)
            cr_result_add_param(&r, "transfers=%u", run->transfers[i]);
        if (cells[c].measured && p->kind == BW_KERNEL_LOCAL)
            cr_result_add_param(&r, "vector=%u", run->local_width);
        rc = cells[c].measured ? bw_record(run, &r) : bw_record_unsupported_row(run, &r, run->why[i]);
    }
    free(e);
    free(cells);
    return rc;
}
