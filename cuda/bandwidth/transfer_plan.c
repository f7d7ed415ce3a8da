#include "transfer_plan.h"

#include <stdio.h>

int bw_cuda_first_peer(const bw_cuda_topology *t)
{
    for (unsigned k = 0; k < t->devices; ++k)
        if ((int)k != t->self)
            return (int)k;
    return -1;
}

bool bw_cuda_shape_multi_device(bw_cuda_shape shape)
{
    return shape != BW_SHAPE_H2D && shape != BW_SHAPE_D2H && shape != BW_SHAPE_DUPLEX;
}

static bw_cuda_end host_end(void) { return (bw_cuda_end){true, -1}; }
static bw_cuda_end device_end(int k) { return (bw_cuda_end){false, k}; }

unsigned bw_cuda_plan(bw_cuda_shape shape, const bw_cuda_topology *t, bw_cuda_transfer *out)
{
    const int self = t->self, peer = bw_cuda_first_peer(t);
    if (bw_cuda_shape_multi_device(shape) && peer < 0)
        return 0;
    unsigned n = 0;
    switch (shape) {
    case BW_SHAPE_H2D:
        out[n++] = (bw_cuda_transfer){self, host_end(), device_end(self)};
        break;
    case BW_SHAPE_D2H:
        out[n++] = (bw_cuda_transfer){self, device_end(self), host_end()};
        break;
    case BW_SHAPE_DUPLEX:
        out[n++] = (bw_cuda_transfer){self, host_end(), device_end(self)};
        out[n++] = (bw_cuda_transfer){self, device_end(self), host_end()};
        break;
    case BW_SHAPE_P2P_READ:
        out[n++] = (bw_cuda_transfer){self, device_end(peer), device_end(self)};
        break;
    case BW_SHAPE_P2P_WRITE:
        out[n++] = (bw_cuda_transfer){self, device_end(self), device_end(peer)};
        break;
    case BW_SHAPE_ALL_TO_ONE:
    case BW_SHAPE_ONE_TO_ALL:
        for (unsigned k = 0; k < t->devices; ++k)
            if ((int)k != self)
                out[n++] = shape == BW_SHAPE_ALL_TO_ONE
                               ? (bw_cuda_transfer){self, device_end((int)k), device_end(self)}
                               : (bw_cuda_transfer){self, device_end(self), device_end((int)k)};
        break;
    case BW_SHAPE_ALL_TO_HOST:
    case BW_SHAPE_HOST_TO_ALL:
        for (unsigned k = 0; k < t->devices; ++k)
            out[n++] = shape == BW_SHAPE_ALL_TO_HOST ? (bw_cuda_transfer){(int)k, device_end((int)k), host_end()}
                                                     : (bw_cuda_transfer){(int)k, host_end(), device_end((int)k)};
        break;
    case BW_SHAPE_COUNT:
        break;
    }
    return n;
}

/* The device of a transfer's end that is not its runner's, -1 where both
 * ends are the runner's or the host's. */
static int other_device(const bw_cuda_transfer *x, const bw_cuda_end *e)
{
    return !e->host && e->device != x->runner ? e->device : -1;
}

bool bw_cuda_refusal(bw_cuda_shape shape, bool kernel, const bw_cuda_topology *t, char *why, size_t len)
{
    if (bw_cuda_shape_multi_device(shape) && t->devices < 2) {
        snprintf(why, len, "needs >= 2 devices (%u present)", t->devices);
        return true;
    }
    if (!kernel) /* copy engines reach pinned host memory and, staged by the driver where there is no peer access, peers */
        return false;
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    const unsigned n = bw_cuda_plan(shape, t, plan);
    for (unsigned i = 0; i < n; ++i) {
        const bw_cuda_transfer *x = &plan[i];
        const bool host = x->from.host || x->to.host;
        if (host && !t->maps_host[x->runner]) {
            snprintf(why, len, "device %d cannot map host memory (cudaDevAttrCanMapHostMemory is 0)", x->runner);
            return true;
        }
        /* A kernel dereferences the other device's pointer: only this
         * device runs kernels on a peer's memory. */
        const int peer = other_device(x, &x->from) >= 0 ? x->from.device : other_device(x, &x->to);
        if (peer >= 0 && !t->peer_access[peer]) {
            snprintf(why, len, "no peer access between devices %d and %d (cudaDeviceCanAccessPeer is 0)", t->self,
                     peer);
            return true;
        }
    }
    return false;
}

bool bw_cuda_plan_async(const bw_cuda_transfer *plan, unsigned n, bool kernel, const bw_cuda_topology *t)
{
    if (kernel) /* kernels run only where bw_cuda_refusal found the access they need */
        return true;
    for (unsigned i = 0; i < n; ++i) {
        const int from = plan[i].from.host ? -1 : plan[i].from.device, to = plan[i].to.host ? -1 : plan[i].to.device;
        const int peer = from == t->self ? to : to == t->self ? from : -1;
        if (from >= 0 && to >= 0 && from != to && (peer < 0 || !t->peer_access[peer]))
            return false;
    }
    return true;
}

unsigned bw_cuda_kernels_on(const bw_cuda_transfer *plan, unsigned n, int device)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; ++i)
        m += plan[i].runner == device;
    return m;
}

unsigned bw_cuda_blocks(uint64_t bytes, uint64_t full_threads, unsigned sharing, unsigned block)
{
    const uint64_t n4 = bytes / 16 ? bytes / 16 : 1;
    uint64_t threads = (n4 + block - 1) / block * block;
    const uint64_t share = full_threads / (sharing ? sharing : 1);
    if (threads > share)
        threads = share;
    return (unsigned)(threads / block ? threads / block : 1);
}

const char *bw_cuda_pageable_refusal(int pageable_access)
{
    return pageable_access ? NULL
                           : "the device cannot access pageable host memory (cudaDevAttrPageableMemoryAccess is 0: "
                             "no HMM or ATS)";
}

const char *bw_cuda_pageable_label(int uses_host_page_tables)
{
    return uses_host_page_tables ? "ATS: the device translates through the host's own page tables"
                                 : "HMM: the driver mirrors the host's page tables into the device's";
}
