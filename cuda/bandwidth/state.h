/* The CUDA bandwidth backend's state, which its files share: opening
 * (open.cpp), the buffers (prepare.cu), the repetitions and the contract's
 * table (backend.cpp), the results (results.cpp). */
#ifndef CR_CUDA_BW_STATE_H
#define CR_CUDA_BW_STATE_H

#include "cuda_device.h"

extern "C" {
#include "bandwidth/backend.h"
#include "path_table.h"
#include "transfer_plan.h"
}

#include "peer_topology.h"

typedef struct {
    cr_cuda cu;
    bool has_managed, concurrent, can_map; /* device attributes */
    int pageable, host_page_tables;        /* cudaDevAttrPageableMemoryAccess(UsesHostPageTables) */
    char malloc_desc[2][200];              /* the malloc paths' descriptions, HMM or ATS named */
    bw_cuda_topology topo;                 /* the devices the multi-device paths span */
    uint64_t full_threads;                 /* SMs * max threads per SM */
    cudaStream_t stream;                   /* async copies, prefetches and kernels */
    /* the prepared path */
    uint64_t bytes;
    unsigned blocks;
    unsigned local_width;    /* the local-memory path's vector, in words */
    void *host;              /* pageable, posix_memalign */
    void *pinned;            /* cudaHostAlloc: default, write-combined or mapped */
    void *dev_src, *dev_dst; /* cudaMalloc */
    void *managed;           /* cudaMallocManaged */
    uint64_t placeable_held; /* bytes the path holds that the device may bring into its memory */
    bool oversubscribe;      /* those may exceed the device memory free */
    uint64_t *partial;       /* kernel reads: one sum per block */
    /* the roles those buffers play for the path */
    void *from, *to;    /* source and destination; kernels: to is the buffer */
    void *kernel_ptr;   /* a kernel's view of to (differs for mapped memory) */
    cudaMemcpyKind dir; /* API copies */
    /* a prepared technique (the inputs in host memory are bw_cu.host) */
    void *tin[2], *tout;   /* where the kernel reads its inputs and writes its output */
    void *kin[2], *kout;   /* the kernel's views of them (differ for mapped memory) */
    bool tpinned;          /* tin and tout are cudaHostAlloc'd, else cudaMalloc'd or managed */
    void *tdst;            /* the output in host memory */
    uint64_t tin_bytes, tout_bytes;
    unsigned tblocks;
} bw_cu_state;

extern bw_cu_state bw_cu;

static inline bool runs_transfers(const bw_path *p) { return p->kind == BW_COPY && p->id >= P_TRANSFERS; }
static inline bw_cuda_shape shape_of(const bw_path *p) { return (bw_cuda_shape)(p->id - P_TRANSFERS); }
static inline bool malloc_kernel(int id) { return id == P_KR_MALLOC || id == P_KW_MALLOC; }

static inline bool is_async(int id)
{
    return id == P_H2D_PAGEABLE_ASYNC || id == P_H2D_PINNED_ASYNC || id == P_D2H_PAGEABLE_ASYNC ||
           id == P_D2H_PINNED_ASYNC;
}

static inline bool on_device(const void *p) { return p != NULL && (p == bw_cu.dev_src || p == bw_cu.dev_dst); }

/* Prefetches the prepared path's bytes at p to the host or to the device,
 * on the backend's stream. */
cudaError_t bw_cu_prefetch(const void *p, bool to_host);

#endif
