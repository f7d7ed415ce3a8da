/* The bandwidth benchmark's backend contract: every memory path between
 * host and device (API copies, CPU access through a map, kernels reading and
 * writing device, host-resident and shared memory). The experiment design
 * (design.c) owns the size sweep, verification, zero-copy classification,
 * the transfer-model fit and the CSV; a backend lists its paths and, per
 * path, allocates, moves data and times it.
 *
 * A path has one to three phases that always run in order within one
 * repetition; CPU access through a map is map, access, unmap, each timed.
 * Every repetition starts from the same placement of the data (place()),
 * so that a repetition never times memory an earlier one already moved. */
#ifndef CR_BANDWIDTH_H
#define CR_BANDWIDTH_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "timer.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The contract's parts: the element operations of every kernel
 * (elements.h), what every backend does alike on the host (host_side.h),
 * and the keys and order of Lee's technique paths (technique_paths.h). */
#define BW_U32 uint32_t
#define BW_U64 uint64_t
#include "bandwidth/elements.h"
#include "bandwidth/host_side.h"
#include "bandwidth/technique_paths.h"

/* The local-memory path's key, the same on every backend: the energy
 * levels read its rows by it. */
#define BW_LOCAL_PATH_KEY "kernel-local-memory"

typedef enum {
    BW_COPY,         /* an API transfer: src bytes end up in dst */
    BW_CPU_ACCESS,   /* phases map / memcpy / unmap; the memcpy moves the bytes */
    BW_KERNEL_READ,  /* a kernel reads the buffer; result: sum of its 32-bit words */
    BW_KERNEL_WRITE, /* a kernel writes bw_pattern_word(i) into every 32-bit word i */
    BW_TECHNIQUE,    /* a memory-movement technique runs a workload end to end */
    BW_KERNEL_LOCAL, /* work-groups stream tiles of the source through local memory (elements.h): the
                        destination is the source moved as the host's replay says (local_replay.h); one
                        row per vector width, its bytes the local traffic */
} bw_kind;

/* The workloads of Lee's techniques (2012, §3.2.3), on floats:
 * vector add reads a and b (src: a then b, n floats each, bytes = 8n) and
 * delivers c = a + b (n floats); reduce reads n floats (bytes = 4n) and
 * delivers their sum, accumulated in double, as one double. */
typedef enum { BW_VECTOR_ADD, BW_REDUCE } bw_workload;

/* Where a path's bytes start and end, and what moves them: the cells of
 * the paths matrix (nvbandwidth's source x destination tables). */
typedef enum {
    BW_MEM_NONE,          /* not a transfer (a technique) */
    BW_MEM_HOST_PAGEABLE, /* plain host memory */
    BW_MEM_HOST_PINNED,   /* page-locked host memory the device can reach */
    BW_MEM_DEVICE,        /* the device's own memory */
    BW_MEM_SHARED,        /* one allocation both sides address: managed memory, SVM, host-mapped buffers */
    BW_MEM_MALLOC,        /* the system allocator's memory, reached by the device through HMM/ATS or system SVM */
    BW_MEM_PEER,          /* another device's memory */
    BW_MEM_LOCAL,         /* a work-group's local (CUDA: shared) memory */
    BW_MEM_COUNT
} bw_memory;

typedef enum {
    BW_ENGINE_NONE,
    BW_ENGINE_COPY,   /* the API's copy (a copy engine on a GPU) */
    BW_ENGINE_KERNEL, /* a kernel's loads and stores (nvbandwidth's "SM" copies) */
    BW_ENGINE_CPU,    /* the host's cores, through a map */
    BW_ENGINE_COUNT
} bw_engine;

/* What links two devices, as the driver reports it (the P2P topology). */
typedef struct {
    unsigned from, to;   /* device ordinals */
    bool access;         /* from can address to's memory */
    bool native_atomics; /* atomics on that memory are native */
    int rank;            /* the driver's performance rank, -1 unknown */
    char link[24];       /* "nvlink", "pcie", or "unknown" where the driver does not say */
} bw_peer_link;

/* Lee's memory-movement techniques, in his order. */
enum { BW_DEFAULT, BW_CPU_RESIDENT, BW_GPU_RESIDENT, BW_MIXED, BW_NTECHNIQUES };

typedef struct {
    const char *key;  /* CSV variant, e.g. "h2d-write-pinned" */
    const char *desc; /* one line for --list-paths */
    bw_kind kind;
    unsigned phases;  /* 1, or 3 for BW_CPU_ACCESS */
    int id;           /* backend-private */
    /* BW_TECHNIQUE only: */
    bw_workload workload;
    int technique;          /* BW_DEFAULT .. BW_MIXED */
    const char *model[4];   /* keys of the paths that model its input transfer, kernel reads,
                               kernel writes and output transfer (Lee's Eq. 3.1-3.4) */
    /* The paths-matrix cell (BW_COPY, BW_KERNEL_* and BW_CPU_ACCESS). */
    bw_memory from, to;
    bw_engine engine;
} bw_path;

/* The word a write kernel stores at 32-bit index i (elements.h, shared with
 * the kernels). */
static inline uint32_t bw_pattern_word(uint64_t i, uint32_t seed) { return BW_PATTERN_WORD(i, seed); }

typedef struct {
    cr_backend_base base;
    /* The backend's paths, in the order they should run. */
    size_t (*paths)(const bw_path **out);
    /* CR_OK, or CR_UNSUPPORTED with why (the device lacks the feature). */
    cr_status (*supported)(const bw_path *p, char *why, size_t len);
    /* Allocates the path's buffers for bytes (a multiple of 16) and fills its
     * source with src (host memory of bytes). Destinations start zeroed, so
     * that a transfer that did nothing cannot pass verification on memory
     * that still holds an earlier path's data. */
    cr_status (*prepare)(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen);
    /* Untimed, before every repetition (warm-up ones included) and after
     * the previous one has finished: puts the path's data where a
     * repetition of it starts, e.g. managed pages back on the host, which
     * the previous repetition migrated to the device; returns once they
     * are there. NULL where no path needs it. */
    cr_status (*place)(const bw_path *p, char *err, size_t errlen);
    /* Runs one phase of one repetition. */
    cr_status (*run)(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen);
    /* After the repetitions: copies, kernel writes and local-memory paths
     * deliver the destination bytes into dst (bytes long); kernel reads deliver their 64-bit word sum
     * into *sum; techniques deliver their workload's output into dst. */
    cr_status (*result)(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen);
    void (*release)(const bw_path *p);
    /* How many transfers of the size one repetition makes (a duplex copy
     * 2, all-to-one the number of peers); NULL or 0 means 1. BW_COPY only:
     * result() then delivers every transfer's destination one after
     * another (transfers x bytes), each of which must equal the source. */
    unsigned (*transfers)(const bw_path *p);
    /* The peer-to-peer topology: fills up to max links between the
     * devices this backend can use together and sets *devices to how many
     * there are; returns the number of links filled. NULL where the API
     * has no peer query (the design records why). */
    size_t (*peer_links)(bw_peer_link *out, size_t max, unsigned *devices);
    /* BW_KERNEL_LOCAL only, in place of prepare(): allocates the path's
     * buffers for bytes (whole tiles of BW_LOCAL_TILE_BYTES), fills the
     * source with src and zeroes the destination, for the kernel whose
     * elements are vectors of vector_words 32-bit words (elements.h); one
     * work-group per tile. CR_UNSUPPORTED with why in err where the API or
     * the device has no kernel of that width. run(), result() and release()
     * then work as for any path. */
    cr_status (*prepare_local)(const bw_path *p, unsigned vector_words, uint64_t bytes, const void *src, char *err,
                               size_t errlen);
    /* After open: lets the paths' managed allocations exceed the device
     * memory free at the time (--oversubscribe), which can hang a GPU; by
     * default such an allocation is refused. NULL where the backend has no
     * such allocation, and the option is refused. */
    void (*oversubscribe)(void);
} bw_backend;

int bandwidth_main(int argc, char **argv, const bw_backend *backend);

#endif
