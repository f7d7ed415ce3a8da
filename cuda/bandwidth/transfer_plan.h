/* What the CUDA bandwidth backend's multi-stream paths do, decided on the
 * host alone: which transfers a path makes (nvbandwidth's host<->device,
 * duplex, peer-to-peer, all-to-one, one-to-all, all-to-host and
 * host-to-all shapes), which device runs each, whether the device and its
 * peers can run it at all, and how a full wave of threads is shared among
 * the kernels one device runs at once. Plain C on plain data, so that it
 * is tested without a GPU; peer_topology.cpp fills it from the runtime and
 * transfers.cu acts on it. */
#ifndef CR_CUDA_BW_TRANSFER_PLAN_H
#define CR_CUDA_BW_TRANSFER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most devices a plan spans; a node with more uses the first ones. */
#define BW_CUDA_MAX_DEVICES 32

typedef enum {
    BW_SHAPE_H2D,         /* pinned host -> this device */
    BW_SHAPE_D2H,         /* this device -> pinned host */
    BW_SHAPE_DUPLEX,      /* both of those at once */
    BW_SHAPE_P2P_READ,    /* the peer -> this device, run by this device */
    BW_SHAPE_P2P_WRITE,   /* this device -> the peer, run by this device */
    BW_SHAPE_ALL_TO_ONE,  /* every peer -> this device at once, run by this device */
    BW_SHAPE_ONE_TO_ALL,  /* this device -> every peer at once, run by this device */
    BW_SHAPE_ALL_TO_HOST, /* every device -> pinned host at once, each run by its own device */
    BW_SHAPE_HOST_TO_ALL, /* pinned host -> every device at once, each run by its own device */
    BW_SHAPE_COUNT
} bw_cuda_shape;

/* One end of a transfer: pinned (mapped, portable) host memory, or the
 * memory of a device. */
typedef struct {
    bool host;
    int device; /* when !host */
} bw_cuda_end;

/* One transfer of the path's size: the device whose copy engine or SMs
 * move it (its stream), from where to where. */
typedef struct {
    int runner;
    bw_cuda_end from, to;
} bw_cuda_transfer;

/* What the runtime says about the node, as the plan needs it. */
typedef struct {
    unsigned devices;                        /* the runtime's count, at most BW_CUDA_MAX_DEVICES */
    int self;                                /* the benchmark's device */
    bool peer_access[BW_CUDA_MAX_DEVICES];   /* self can address device k's memory (cudaDeviceCanAccessPeer) */
    bool maps_host[BW_CUDA_MAX_DEVICES];     /* device k can map host memory (cudaDevAttrCanMapHostMemory) */
} bw_cuda_topology;

/* The lowest-numbered device other than self: the peer of the
 * peer-to-peer shapes. -1 with one device. */
int bw_cuda_first_peer(const bw_cuda_topology *t);

/* Whether the shape needs two devices or more. */
bool bw_cuda_shape_multi_device(bw_cuda_shape shape);

/* Fills out (BW_CUDA_MAX_DEVICES transfers at most) with the shape's
 * transfers in the order result() delivers them; their number, 0 where
 * the shape needs more devices than there are. */
unsigned bw_cuda_plan(bw_cuda_shape shape, const bw_cuda_topology *t, bw_cuda_transfer *out);

/* Why the node cannot run the shape by kernels (kernel true) or by copy
 * engines: false, or true with one line in why. */
bool bw_cuda_refusal(bw_cuda_shape shape, bool kernel, const bw_cuda_topology *t, char *why, size_t len);

/* Whether every transfer of the plan is asynchronous to the host, so that
 * the timer may gate the stream: a copy between devices without peer
 * access is staged through host memory by the driver, which may do it in
 * the calling thread. */
bool bw_cuda_plan_async(const bw_cuda_transfer *plan, unsigned n, bool kernel, const bw_cuda_topology *t);

/* How many kernel transfers of the plan the device runs at once. */
unsigned bw_cuda_kernels_on(const bw_cuda_transfer *plan, unsigned n, int device);

/* Blocks of block threads for a copy kernel over bytes (one thread per 16
 * bytes) sharing a device's full wave (full_threads resident threads) with
 * sharing - 1 other kernels running at once: at most its share of the
 * wave, so that all of them are resident together; at least one. */
unsigned bw_cuda_blocks(uint64_t bytes, uint64_t full_threads, unsigned sharing, unsigned block);

/* The kernel paths on the system allocator's memory: why they cannot run
 * (NULL where they can), and how the device reaches that memory, from
 * cudaDevAttrPageableMemoryAccess and
 * cudaDevAttrPageableMemoryAccessUsesHostPageTables. */
const char *bw_cuda_pageable_refusal(int pageable_access);
const char *bw_cuda_pageable_label(int uses_host_page_tables);

#endif
