/* The OpenCL bandwidth backend's state, which its files share: opening and
 * results (backend.c), the path table (path_table.c), allocation and
 * preparation (prepare.c), the timed repetitions (run.c). */
#ifndef CR_OPENCL_BANDWIDTH_STATE_H
#define CR_OPENCL_BANDWIDTH_STATE_H

#include "bandwidth/backend.h"
#include "cl_device.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What each path does (path_table.c): its bw_path.id. */
enum path_id {
    P_H2D_PAGEABLE, P_H2D_PAGEABLE_ASYNC, P_H2D_PINNED, P_H2D_PINNED_ASYNC,
    P_D2H_PAGEABLE, P_D2H_PAGEABLE_ASYNC, P_D2H_PINNED, P_D2H_PINNED_ASYNC,
    P_H2D_COPY_BUFFER_PINNED, P_D2H_COPY_BUFFER_PINNED, P_H2D_KERNEL_PINNED, P_D2H_KERNEL_PINNED,
    P_DUPLEX_COPY, P_DUPLEX_KERNEL,
    P_D2D_COPY, P_D2D_KERNEL,
    P_CPU_WRITE_HOST, P_CPU_READ_HOST, P_CPU_WRITE_DEVICE, P_CPU_READ_DEVICE,
    P_KR_DEVICE, P_KW_DEVICE, P_LOCAL,
    P_KR_HOST_RO, P_KR_HOST_RW, P_KW_HOST_WO, P_KW_HOST_RW,
    P_KR_USE_RO, P_KR_USE_RW, P_KW_USE_WO, P_KW_USE_RW, P_KR_USE_MISALIGNED, P_KW_USE_MISALIGNED,
    P_KR_SVM_COARSE, P_KW_SVM_COARSE, P_KR_SVM_FINE, P_KW_SVM_FINE,
    P_KR_MALLOC, P_KW_MALLOC,
    P_PEER,      /* a multi-device path between devices' memories */
    P_HOST_FAN,  /* a multi-device path between the host and every device */
    P_TECHNIQUE, /* every technique path: which one is in its workload/technique fields */
};

/* The kernels, the local-memory ones one per vector width, in the order of their widths. */
enum kernel_id { K_READ, K_WRITE, K_COPY, K_VECTOR_ADD, K_REDUCE, K_LOCAL_V1, K_LOCAL_V2, K_LOCAL_V4, K_LOCAL_V8,
                 K_LOCAL_V16, N_KERNELS };
extern const char *const bw_cl_kernel_names[N_KERNELS];

typedef struct {
    cr_cl cl;
    cl_program program;
    cl_kernel kernel[N_KERNELS];
    cl_device_svm_capabilities svm;
    size_t base_align; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */
    cl_uint platform_devices; /* devices of the opened device's platform */
    cl_command_queue queue2;  /* a second queue of the device, for the duplex paths */
    char queue2_err[96];      /* why there is none */
    /* per prepared path */
    uint64_t bytes;
    cl_mem src, dst;         /* device-side buffers */
    cl_mem pinned;           /* ALLOC_HOST_PTR buffer backing a pinned host pointer */
    void *pinned_ptr;
    cl_mem pinned_out;       /* duplex: the device-to-host half's ALLOC_HOST_PTR destination */
    void *pinned_out_ptr;
    void *system_ptr;        /* malloc'd memory a kernel reaches through system SVM */
    void *host;              /* pageable host memory (source or destination) */
    void *host_block;        /* USE_HOST_PTR allocation (host points into it) */
    void *svm_ptr;
    void *mapped;            /* CPU access: the pointer of the current map */
    cl_mem partial;          /* kernel reads: one sum per work-group */
    cl_mem tin[2], tout;     /* technique: inputs and output */
    void *tsrc;              /* technique: the inputs in host memory */
    void *tdst;              /* technique: the output in host memory */
    uint64_t tin_bytes, tout_bytes;
    uint64_t groups;
    uint64_t work_items, work_group;
    enum kernel_id local_kernel; /* the prepared local-memory path's */
} bw_cl_state;

extern bw_cl_state bw_cl;

#endif
