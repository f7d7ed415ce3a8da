/* What the runtime says about the node's devices, for the bandwidth
 * backend: the topology its multi-device plans are made from, and the
 * peer-to-peer links it reports. */
#ifndef CR_CUDA_BW_PEER_TOPOLOGY_H
#define CR_CUDA_BW_PEER_TOPOLOGY_H

#include "cuda_device.h"

extern "C" {
#include "bandwidth/backend.h"
#include "transfer_plan.h"
}

/* Fills t for the benchmark's device self: the device count, which
 * devices self can address (cudaDeviceCanAccessPeer) and which can map
 * host memory. */
cr_status bw_cuda_topology_query(int self, bw_cuda_topology *t, char *err, size_t errlen);

/* The backend's peer_links hook: every ordered pair of devices, as
 * cudaDeviceCanAccessPeer and cudaDeviceGetP2PAttribute say; the link
 * "unknown", the runtime not saying whether it is NVLink or PCIe. */
size_t bw_cuda_peer_links(bw_peer_link *out, size_t max, unsigned *devices);

#endif
