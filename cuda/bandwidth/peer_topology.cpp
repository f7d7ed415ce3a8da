#include "peer_topology.h"

#include <cstring>

cr_status bw_cuda_topology_query(int self, bw_cuda_topology *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int n = 0;
    CR_CUDA_CHECK(cudaGetDeviceCount(&n), "cudaGetDeviceCount", err, errlen);
    if (self < 0 || self >= BW_CUDA_MAX_DEVICES) {
        snprintf(err, errlen, "device %d: the bandwidth paths span devices 0 to %d only", self,
                 BW_CUDA_MAX_DEVICES - 1);
        return CR_ERR;
    }
    t->devices = (unsigned)(n < BW_CUDA_MAX_DEVICES ? n : BW_CUDA_MAX_DEVICES);
    t->self = self;
    for (int k = 0; k < (int)t->devices; ++k) {
        int maps = 0, access = 0;
        CR_CUDA_CHECK(cudaDeviceGetAttribute(&maps, cudaDevAttrCanMapHostMemory, k), "cudaDeviceGetAttribute", err,
                      errlen);
        if (k != self)
            CR_CUDA_CHECK(cudaDeviceCanAccessPeer(&access, self, k), "cudaDeviceCanAccessPeer", err, errlen);
        t->maps_host[k] = maps != 0;
        t->peer_access[k] = access != 0;
    }
    return CR_OK;
}

/* One P2P attribute, or fallback where the runtime cannot say. */
static int p2p_attribute(cudaDeviceP2PAttr attr, int from, int to, int fallback)
{
    int v = 0;
    if (cudaDeviceGetP2PAttribute(&v, attr, from, to) == cudaSuccess)
        return v;
    cudaGetLastError(); /* keep it off the next check */
    return fallback;
}

size_t bw_cuda_peer_links(bw_peer_link *out, size_t max, unsigned *devices)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        n = 0;
    }
    *devices = (unsigned)n;
    size_t filled = 0;
    for (int from = 0; from < n; ++from)
        for (int to = 0; to < n && filled < max; ++to) {
            if (from == to)
                continue;
            int can = 0;
            if (cudaDeviceCanAccessPeer(&can, from, to) != cudaSuccess) {
                cudaGetLastError();
                can = 0;
            }
            bw_peer_link *l = &out[filled++];
            memset(l, 0, sizeof *l);
            l->from = (unsigned)from;
            l->to = (unsigned)to;
            l->access = can != 0 && p2p_attribute(cudaDevP2PAttrAccessSupported, from, to, 0) != 0;
            l->native_atomics = p2p_attribute(cudaDevP2PAttrNativeAtomicSupported, from, to, 0) != 0;
            l->rank = p2p_attribute(cudaDevP2PAttrPerformanceRank, from, to, -1);
            snprintf(l->link, sizeof l->link, "unknown");
        }
    return filled;
}
