/* The OpenCL bandwidth backend's paths (path_table.h), in the order they run:
 * Lee's Table 3.2 rows and the buffer-flag variants of his Table 3.3, the
 * API's copy against a copy kernel in each direction, both directions at
 * once on two queues, kernels on malloc'd memory through system SVM, the
 * local-memory path, the multi-device paths (listed, and refused), and
 * Lee's techniques. */
#include "path_table.h"
#include "state.h"

/* The paths that model each technique's stages on OpenCL (Lee's mapping,
 * §3.4): input transfer, kernel reads, kernel writes, output transfer. */
#define DEFAULT_MODEL {"h2d-write-pageable", "kernel-read-device", "kernel-write-device", "d2h-read-pageable"}
#define CPU_RESIDENT_MODEL {"cpu-write-host", "kernel-read-host-ro", "kernel-write-host-wo", "cpu-read-host"}
#define GPU_RESIDENT_MODEL {"cpu-write-device", "kernel-read-device", "kernel-write-device", "cpu-read-device"}
#define MIXED_MODEL {"cpu-write-device", "kernel-read-device", "kernel-write-device", "d2h-read-pageable"}

/* A path's matrix cell: where its bytes start, where they end, what moves
 * them. A kernel runs on the device: what it reads ends there, what it
 * writes starts there. An ALLOC_HOST_PTR buffer is the pinned memory. */
#define CELL(from_, to_, engine_) .from = BW_MEM_##from_, .to = BW_MEM_##to_, .engine = BW_ENGINE_##engine_
#define PATH(k, d, kind_, phases_, id_, ...) {.key = k, .desc = d, .kind = kind_, .phases = phases_, .id = id_, __VA_ARGS__}
#define COPY(k, d, id_, ...) PATH(k, d, BW_COPY, 1, id_, __VA_ARGS__)
#define ACCESS(k, d, id_, ...) PATH(k, d, BW_CPU_ACCESS, 3, id_, __VA_ARGS__)
#define KREAD(k, d, id_, from_) PATH(k, d, BW_KERNEL_READ, 1, id_, CELL(from_, DEVICE, KERNEL))
#define KWRITE(k, d, id_, to_) PATH(k, d, BW_KERNEL_WRITE, 1, id_, CELL(DEVICE, to_, KERNEL))
#define TECHNIQUE(k, d, workload_, technique_, model_)                                                           \
    {.key = k, .desc = d, .kind = BW_TECHNIQUE, .phases = 1, .id = P_TECHNIQUE, .workload = workload_,            \
     .technique = technique_, .model = model_}
const bw_path bw_cl_paths[] = {
    COPY("h2d-write-pageable", "clEnqueueWriteBuffer, blocking, from pageable host memory", P_H2D_PAGEABLE, CELL(HOST_PAGEABLE, DEVICE, COPY)),
    COPY("h2d-write-pageable-async", "clEnqueueWriteBuffer, non-blocking, from pageable host memory", P_H2D_PAGEABLE_ASYNC, CELL(HOST_PAGEABLE, DEVICE, COPY)),
    COPY("h2d-write-pinned", "clEnqueueWriteBuffer, blocking, from pinned memory (ALLOC_HOST_PTR mapped once)", P_H2D_PINNED, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("h2d-write-pinned-async", "clEnqueueWriteBuffer, non-blocking, from pinned memory", P_H2D_PINNED_ASYNC, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("d2h-read-pageable", "clEnqueueReadBuffer, blocking, into pageable host memory", P_D2H_PAGEABLE, CELL(DEVICE, HOST_PAGEABLE, COPY)),
    COPY("d2h-read-pageable-async", "clEnqueueReadBuffer, non-blocking, into pageable host memory", P_D2H_PAGEABLE_ASYNC, CELL(DEVICE, HOST_PAGEABLE, COPY)),
    COPY("d2h-read-pinned", "clEnqueueReadBuffer, blocking, into pinned memory", P_D2H_PINNED, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("d2h-read-pinned-async", "clEnqueueReadBuffer, non-blocking, into pinned memory", P_D2H_PINNED_ASYNC, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("h2d-copy-buffer-pinned", "clEnqueueCopyBuffer from an ALLOC_HOST_PTR buffer into a device buffer", P_H2D_COPY_BUFFER_PINNED, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("d2h-copy-buffer-pinned", "clEnqueueCopyBuffer from a device buffer into an ALLOC_HOST_PTR buffer", P_D2H_COPY_BUFFER_PINNED, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("h2d-kernel-copy-pinned", "a copy kernel from an ALLOC_HOST_PTR buffer into a device buffer", P_H2D_KERNEL_PINNED, CELL(HOST_PINNED, DEVICE, KERNEL)),
    COPY("d2h-kernel-copy-pinned", "a copy kernel from a device buffer into an ALLOC_HOST_PTR buffer", P_D2H_KERNEL_PINNED, CELL(DEVICE, HOST_PINNED, KERNEL)),
    COPY("duplex-copy-pinned", "clEnqueueWriteBuffer from pinned memory and clEnqueueReadBuffer into pinned memory at once, on two queues (2 transfers)", P_DUPLEX_COPY, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("duplex-kernel-copy-pinned", "copy kernels ALLOC_HOST_PTR -> device and device -> ALLOC_HOST_PTR at once, on two queues (2 transfers)", P_DUPLEX_KERNEL, CELL(HOST_PINNED, DEVICE, KERNEL)),
    COPY("d2d-copy", "clEnqueueCopyBuffer between device buffers (bytes counted once)", P_D2D_COPY, CELL(DEVICE, DEVICE, COPY)),
    COPY("d2d-kernel-copy", "a copy kernel between device buffers (bytes counted once)", P_D2D_KERNEL, CELL(DEVICE, DEVICE, KERNEL)),
    ACCESS("cpu-write-host", "CPU memcpy into a mapped host buffer (ALLOC_HOST_PTR)", P_CPU_WRITE_HOST, CELL(HOST_PAGEABLE, HOST_PINNED, CPU)),
    ACCESS("cpu-read-host", "CPU memcpy out of a mapped host buffer (ALLOC_HOST_PTR)", P_CPU_READ_HOST, CELL(HOST_PINNED, HOST_PAGEABLE, CPU)),
    ACCESS("cpu-write-device", "CPU memcpy into a mapped device buffer", P_CPU_WRITE_DEVICE, CELL(HOST_PAGEABLE, DEVICE, CPU)),
    ACCESS("cpu-read-device", "CPU memcpy out of a mapped device buffer", P_CPU_READ_DEVICE, CELL(DEVICE, HOST_PAGEABLE, CPU)),
    KREAD("kernel-read-device", "kernel reads a device buffer", P_KR_DEVICE, DEVICE),
    KWRITE("kernel-write-device", "kernel writes a device buffer", P_KW_DEVICE, DEVICE),
    PATH(BW_LOCAL_PATH_KEY, "work-groups stream tiles through local memory (__local, 255 rounds, vectors of 1 to 16 words)", BW_KERNEL_LOCAL, 1, P_LOCAL, CELL(LOCAL, LOCAL, KERNEL)),
    KREAD("kernel-read-host-ro", "kernel reads ALLOC_HOST_PTR|READ_ONLY (Lee: Garlic)", P_KR_HOST_RO, HOST_PINNED),
    KREAD("kernel-read-host-rw", "kernel reads ALLOC_HOST_PTR|READ_WRITE (Lee: Onion)", P_KR_HOST_RW, HOST_PINNED),
    KWRITE("kernel-write-host-wo", "kernel writes ALLOC_HOST_PTR|WRITE_ONLY (Lee: Garlic)", P_KW_HOST_WO, HOST_PINNED),
    KWRITE("kernel-write-host-rw", "kernel writes ALLOC_HOST_PTR|READ_WRITE (Lee: Onion)", P_KW_HOST_RW, HOST_PINNED),
    /* USE_HOST_PTR wraps the program's own pageable memory; the runtime may pin or copy it. */
    KREAD("kernel-read-use-ro", "kernel reads USE_HOST_PTR|READ_ONLY, pointer aligned for the device", P_KR_USE_RO, HOST_PAGEABLE),
    KREAD("kernel-read-use-rw", "kernel reads USE_HOST_PTR|READ_WRITE, aligned", P_KR_USE_RW, HOST_PAGEABLE),
    KWRITE("kernel-write-use-wo", "kernel writes USE_HOST_PTR|WRITE_ONLY, aligned", P_KW_USE_WO, HOST_PAGEABLE),
    KWRITE("kernel-write-use-rw", "kernel writes USE_HOST_PTR|READ_WRITE, aligned", P_KW_USE_RW, HOST_PAGEABLE),
    KREAD("kernel-read-use-misaligned", "kernel reads USE_HOST_PTR|READ_WRITE, pointer 16 bytes off the device's alignment", P_KR_USE_MISALIGNED, HOST_PAGEABLE),
    KWRITE("kernel-write-use-misaligned", "kernel writes USE_HOST_PTR|READ_WRITE, pointer 16 bytes off alignment", P_KW_USE_MISALIGNED, HOST_PAGEABLE),
    KREAD("kernel-read-svm-coarse", "kernel reads coarse-grained shared virtual memory", P_KR_SVM_COARSE, SHARED),
    KWRITE("kernel-write-svm-coarse", "kernel writes coarse-grained shared virtual memory", P_KW_SVM_COARSE, SHARED),
    KREAD("kernel-read-svm-fine", "kernel reads fine-grained shared virtual memory (buffer)", P_KR_SVM_FINE, SHARED),
    KWRITE("kernel-write-svm-fine", "kernel writes fine-grained shared virtual memory (buffer)", P_KW_SVM_FINE, SHARED),
    KREAD("kernel-read-malloc", "kernel reads malloc'd host memory through fine-grained system SVM", P_KR_MALLOC, MALLOC),
    KWRITE("kernel-write-malloc", "kernel writes malloc'd host memory through fine-grained system SVM", P_KW_MALLOC, MALLOC),
    /* The multi-device paths, under the keys every backend gives them. */
    COPY("p2p-read-copy", "copy from a peer device's memory into this device's", P_PEER, CELL(PEER, DEVICE, COPY)),
    COPY("p2p-write-copy", "copy from this device's memory into a peer's", P_PEER, CELL(DEVICE, PEER, COPY)),
    COPY("p2p-read-kernel", "a copy kernel on this device reads a peer's memory into its own", P_PEER, CELL(PEER, DEVICE, KERNEL)),
    COPY("p2p-write-kernel", "a copy kernel on this device writes its memory into a peer's", P_PEER, CELL(DEVICE, PEER, KERNEL)),
    COPY("all-to-one-copy", "every peer copies into this device at once", P_PEER, CELL(PEER, DEVICE, COPY)),
    COPY("all-to-one-kernel", "copy kernels on this device read every peer at once", P_PEER, CELL(PEER, DEVICE, KERNEL)),
    COPY("one-to-all-copy", "this device copies into every peer at once", P_PEER, CELL(DEVICE, PEER, COPY)),
    COPY("one-to-all-kernel", "copy kernels on this device write every peer at once", P_PEER, CELL(DEVICE, PEER, KERNEL)),
    COPY("all-to-host-copy", "every device copies into pinned host memory at once", P_HOST_FAN, CELL(DEVICE, HOST_PINNED, COPY)),
    COPY("all-to-host-kernel", "copy kernels on every device write pinned host memory at once", P_HOST_FAN, CELL(DEVICE, HOST_PINNED, KERNEL)),
    COPY("host-to-all-copy", "pinned host memory copied into every device at once", P_HOST_FAN, CELL(HOST_PINNED, DEVICE, COPY)),
    COPY("host-to-all-kernel", "copy kernels on every device read pinned host memory at once", P_HOST_FAN, CELL(HOST_PINNED, DEVICE, KERNEL)),
    BW_TECHNIQUE_PATHS(TECHNIQUE,
                       "vector add: write buffers in, kernel, read buffer out",
                       "vector add: kernel on host buffers (READ_ONLY/WRITE_ONLY), CPU maps them",
                       "vector add: CPU maps device buffers in and out",
                       "vector add: CPU maps device buffers in, read buffer out",
                       "reduce: write buffer in, kernel, read partial sums out",
                       "reduce: kernel on a host buffer, CPU maps it and the partial sums",
                       "reduce: CPU maps the device buffer in and the partial sums out",
                       "reduce: CPU maps the device buffer in, read partial sums out"),
};
const size_t bw_cl_npaths = sizeof bw_cl_paths / sizeof bw_cl_paths[0];
