/* The peers' ratio table of a run (tools/peers.sh's <run>/peers/peers.csv):
 * crossroof beside BabelStream and nvbandwidth on the same work, as the
 * report shows it in its Peers section. */
#ifndef CR_REPORT_PEERS_H
#define CR_REPORT_PEERS_H

#include "report/model.h"

/* The directory of the run that tools/peers.sh writes into: not a device's. */
#define RP_PEERS_DIR "peers"

/* Fills t (empty) from the rows of peers.csv: one row per suite, test,
 * size and statistic, crossroof's figure and the peer's, their ratio, the
 * repetitions behind each, the slices, and the flags and note. */
void rp_peers_table(rp_table *t, const cr_csv_table *csv);

#endif
