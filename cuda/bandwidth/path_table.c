#include "path_table.h"
#include "bandwidth/technique_paths.h"

/* The technique fields of the paths that are not techniques (-Wextra wants
 * every member of the aggregate initialised). */
#define NOT_A_TECHNIQUE BW_VECTOR_ADD, 0, {NULL, NULL, NULL, NULL}

/* A path's paths-matrix cell: where its bytes start and end, and what
 * moves them. A kernel read moves them from its buffer into the device, a
 * kernel write from the device into its buffer; mapped pinned memory is
 * pinned host memory, managed memory is shared. */
#define CELL(from, to, engine) BW_MEM_##from, BW_MEM_##to, BW_ENGINE_##engine
#define PATH(key, desc, kind, phases, id, from, to, engine) \
    {key, desc, kind, phases, id, NOT_A_TECHNIQUE, CELL(from, to, engine)}
/* The fields each kind of path fixes: an API copy runs on the copy engine,
 * a kernel read ends on the device and a kernel write starts there, and a
 * CPU access has three phases (map, access, unmap). */
#define API_COPY(key, desc, id, from, to) PATH(key, desc, BW_COPY, 1, id, from, to, COPY)
#define KREAD(key, desc, id, from) PATH(key, desc, BW_KERNEL_READ, 1, id, from, DEVICE, KERNEL)
#define KWRITE(key, desc, id, to) PATH(key, desc, BW_KERNEL_WRITE, 1, id, DEVICE, to, KERNEL)
#define ACCESS(key, desc, id, from, to) PATH(key, desc, BW_CPU_ACCESS, 3, id, from, to, CPU)
#define TRANSFERS(key, desc, shape, from, to, engine) PATH(key, desc, BW_COPY, 1, P_TRANSFERS + (shape), from, to, engine)
/* A shape by both engines, the copy engines' path first: "<name>-copy" and
 * "<name>-kernel". */
#define COPY_AND_KERNEL(name, shape, from, to, copy_desc, kernel_desc) \
    TRANSFERS(name "-copy", copy_desc, shape, from, to, COPY), TRANSFERS(name "-kernel", kernel_desc, shape, from, to, KERNEL)

/* The paths that model each technique's stages on CUDA: input transfer,
 * kernel reads, kernel writes, output transfer (Lee's Eq. 3.1-3.4). */
#define DEFAULT_MODEL {"h2d-memcpy-pageable", "kernel-read-device", "kernel-write-device", "d2h-memcpy-pageable"}
#define CPU_RESIDENT_MODEL {"cpu-write-mapped", "kernel-read-mapped", "kernel-write-mapped", "cpu-read-mapped"}
#define GPU_RESIDENT_MODEL {"cpu-write-managed", "kernel-read-managed", "kernel-write-managed", "cpu-read-managed"}
#define MIXED_MODEL {"cpu-write-managed", "kernel-read-managed", "kernel-write-device", "d2h-memcpy-pageable"}

#define TECHNIQUE(key, desc, workload, technique, model) \
    {key, desc, BW_TECHNIQUE, 1, P_TECHNIQUE, workload, technique, model, CELL(NONE, NONE, NONE)}

bw_path bw_cuda_paths[] = {
    API_COPY("h2d-memcpy-pageable", "cudaMemcpy from pageable host memory (posix_memalign)", P_H2D_PAGEABLE, HOST_PAGEABLE, DEVICE),
    API_COPY("h2d-memcpy-pageable-async", "cudaMemcpyAsync + synchronize from pageable host memory (staged by the driver)", P_H2D_PAGEABLE_ASYNC, HOST_PAGEABLE, DEVICE),
    API_COPY("h2d-memcpy-pinned", "cudaMemcpy from pinned host memory (cudaHostAlloc)", P_H2D_PINNED, HOST_PINNED, DEVICE),
    API_COPY("h2d-memcpy-pinned-async", "cudaMemcpyAsync + synchronize from pinned host memory (the copy engine's form, nvbandwidth's CE copy)", P_H2D_PINNED_ASYNC, HOST_PINNED, DEVICE),
    API_COPY("h2d-memcpy-pinned-wc", "cudaMemcpy from pinned write-combined host memory (cudaHostAllocWriteCombined)", P_H2D_PINNED_WC, HOST_PINNED, DEVICE),
    API_COPY("d2h-memcpy-pageable", "cudaMemcpy into pageable host memory (posix_memalign)", P_D2H_PAGEABLE, DEVICE, HOST_PAGEABLE),
    API_COPY("d2h-memcpy-pageable-async", "cudaMemcpyAsync + synchronize into pageable host memory (staged by the driver)", P_D2H_PAGEABLE_ASYNC, DEVICE, HOST_PAGEABLE),
    API_COPY("d2h-memcpy-pinned", "cudaMemcpy into pinned host memory (cudaHostAlloc)", P_D2H_PINNED, DEVICE, HOST_PINNED),
    API_COPY("d2h-memcpy-pinned-async", "cudaMemcpyAsync + synchronize into pinned host memory (the copy engine's form, nvbandwidth's CE copy)", P_D2H_PINNED_ASYNC, DEVICE, HOST_PINNED),
    API_COPY("d2d-memcpy", "cudaMemcpy between device buffers (bytes counted once)", P_D2D_MEMCPY, DEVICE, DEVICE),
    PATH("d2d-kernel-copy", "a copy kernel between device buffers (bytes counted once)", BW_COPY, 1, P_D2D_KERNEL, DEVICE, DEVICE, KERNEL),
    TRANSFERS("h2d-kernel-copy-pinned", "a copy kernel reads pinned host memory (cudaHostAllocMapped) into a device buffer (nvbandwidth's SM copy)", BW_SHAPE_H2D, HOST_PINNED, DEVICE, KERNEL),
    TRANSFERS("d2h-kernel-copy-pinned", "a copy kernel writes a device buffer into pinned host memory (cudaHostAllocMapped; nvbandwidth's SM copy)", BW_SHAPE_D2H, DEVICE, HOST_PINNED, KERNEL),
    TRANSFERS("duplex-copy-pinned", "cudaMemcpyAsync pinned host -> device and device -> pinned host at once, on two streams (both counted)", BW_SHAPE_DUPLEX, HOST_PINNED, DEVICE, COPY),
    TRANSFERS("duplex-kernel-copy-pinned", "two copy kernels at once on two streams, half the SMs' threads each: mapped pinned host -> device and device -> mapped pinned host (both counted)", BW_SHAPE_DUPLEX, HOST_PINNED, DEVICE, KERNEL),
    KREAD("kernel-read-device", "kernel reads a device buffer (cudaMalloc)", P_KR_DEVICE, DEVICE),
    KWRITE("kernel-write-device", "kernel writes a device buffer (cudaMalloc)", P_KW_DEVICE, DEVICE),
    PATH(BW_LOCAL_PATH_KEY, "blocks stream tiles through shared memory (__shared__, 255 rounds, vectors of 1, 2 and 4 words)", BW_KERNEL_LOCAL, 1, P_LOCAL, LOCAL, LOCAL, KERNEL),
    KREAD("kernel-read-mapped", "kernel reads pinned host memory in place (cudaHostAllocMapped, zero-copy)", P_KR_MAPPED, HOST_PINNED),
    KWRITE("kernel-write-mapped", "kernel writes pinned host memory in place (cudaHostAllocMapped, zero-copy)", P_KW_MAPPED, HOST_PINNED),
    KREAD("kernel-read-managed", "kernel reads managed memory filled by the CPU, no prefetch (pages migrate on demand)", P_KR_MANAGED, SHARED),
    KWRITE("kernel-write-managed", "kernel writes managed memory cleared by the CPU, no prefetch (pages migrate on demand)", P_KW_MANAGED, SHARED),
    KREAD("kernel-read-managed-prefetch", "cudaMemPrefetchAsync of managed memory from the host to the device, then a kernel reads it; both timed", P_KR_MANAGED_PREFETCH, SHARED),
    KWRITE("kernel-write-managed-prefetch", "cudaMemPrefetchAsync of managed memory from the host to the device, then a kernel writes it; both timed", P_KW_MANAGED_PREFETCH, SHARED),
    KREAD("kernel-read-malloc", "kernel reads malloc'd host memory (posix_memalign) in place, through HMM or ATS (cudaDevAttrPageableMemoryAccess)", P_KR_MALLOC, MALLOC),
    KWRITE("kernel-write-malloc", "kernel writes malloc'd host memory (posix_memalign) in place, through HMM or ATS (cudaDevAttrPageableMemoryAccess)", P_KW_MALLOC, MALLOC),
    ACCESS("cpu-write-managed", "CPU memcpy into managed memory; map/unmap = cudaMemPrefetchAsync to the CPU / back to the GPU", P_CPU_WRITE_MANAGED, HOST_PAGEABLE, SHARED),
    ACCESS("cpu-read-managed", "CPU memcpy out of managed memory; map/unmap = cudaMemPrefetchAsync to the CPU / back to the GPU", P_CPU_READ_MANAGED, SHARED, HOST_PAGEABLE),
    ACCESS("cpu-write-mapped", "CPU memcpy into cudaHostAllocMapped memory; map/unmap = cudaDeviceSynchronize", P_CPU_WRITE_MAPPED, HOST_PAGEABLE, HOST_PINNED),
    ACCESS("cpu-read-mapped", "CPU memcpy out of cudaHostAllocMapped memory; map/unmap = cudaDeviceSynchronize", P_CPU_READ_MAPPED, HOST_PINNED, HOST_PAGEABLE),
    /* The peer is the lowest-numbered other device; "all" is every device the runtime counts. */
    TRANSFERS("p2p-read-copy", "cudaMemcpyPeerAsync from the peer into this device, on this device's stream (peer access enabled where the pair allows it, else staged by the driver)", BW_SHAPE_P2P_READ, PEER, DEVICE, COPY),
    TRANSFERS("p2p-write-copy", "cudaMemcpyPeerAsync from this device into the peer, on this device's stream (peer access enabled where the pair allows it, else staged by the driver)", BW_SHAPE_P2P_WRITE, DEVICE, PEER, COPY),
    TRANSFERS("p2p-read-kernel", "a copy kernel on this device reads the peer's memory (cudaDeviceEnablePeerAccess) into its own", BW_SHAPE_P2P_READ, PEER, DEVICE, KERNEL),
    TRANSFERS("p2p-write-kernel", "a copy kernel on this device writes its own memory into the peer's (cudaDeviceEnablePeerAccess)", BW_SHAPE_P2P_WRITE, DEVICE, PEER, KERNEL),
    COPY_AND_KERNEL("all-to-one", BW_SHAPE_ALL_TO_ONE, PEER, DEVICE, "cudaMemcpyPeerAsync from every other device into this one at once, one stream of this device per peer (all counted)", "copy kernels on this device read every other device's memory at once, one stream per peer, sharing its SMs (all counted)"),
    COPY_AND_KERNEL("one-to-all", BW_SHAPE_ONE_TO_ALL, DEVICE, PEER, "cudaMemcpyPeerAsync from this device into every other one at once, one stream of this device per peer (all counted)", "copy kernels on this device write into every other device's memory at once, one stream per peer, sharing its SMs (all counted)"),
    COPY_AND_KERNEL("all-to-host", BW_SHAPE_ALL_TO_HOST, DEVICE, HOST_PINNED, "every device's cudaMemcpyAsync into pinned host memory at once, each on its own stream (all counted)", "every device's copy kernel writes into mapped pinned host memory at once, each on its own stream (all counted)"),
    COPY_AND_KERNEL("host-to-all", BW_SHAPE_HOST_TO_ALL, HOST_PINNED, DEVICE, "cudaMemcpyAsync from pinned host memory into every device at once, each on its own stream (all counted)", "every device's copy kernel reads mapped pinned host memory at once, each on its own stream (all counted)"),
    BW_TECHNIQUE_PATHS(TECHNIQUE,
                       "vector add: cudaMemcpy in from pageable memory, kernel on device buffers, cudaMemcpy out",
                       "vector add: CPU memcpy into and out of cudaHostAllocMapped memory, kernel on it in place",
                       "vector add: CPU memcpy into and out of managed memory, no prefetch (pages migrate on demand)",
                       "vector add: CPU memcpy into managed memory, kernel writes a device buffer, cudaMemcpy out",
                       "reduce: cudaMemcpy in from pageable memory, kernel on a device buffer, cudaMemcpy partial sums out",
                       "reduce: CPU memcpy into cudaHostAllocMapped memory, kernel writes partial sums there, CPU memcpy out",
                       "reduce: CPU memcpy into and partial sums out of managed memory, no prefetch",
                       "reduce: CPU memcpy into managed memory, kernel writes partial sums to a device buffer, cudaMemcpy out"),
};

const size_t bw_cuda_npaths = sizeof bw_cuda_paths / sizeof bw_cuda_paths[0];
