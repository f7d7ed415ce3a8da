/* Opening the CUDA bandwidth backend (open.h): the device's attributes,
 * its stream and peers, and which paths it supports. */
#include "open.h"

#include "prepare.h"

#include <cstring>

void cuda_close(void)
{
    cuda_release(NULL);
    if (bw_cu.stream)
        cudaStreamDestroy(bw_cu.stream);
    bw_cu.stream = NULL;
    cr_cuda_close_timed(&bw_cu.cu);
}

static cr_status device_attrs(char *err, size_t errlen)
{
    int managed = 0, concurrent = 0, can_map = 0;
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, bw_cu.cu.dev), "cudaDeviceGetAttribute",
                  err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, bw_cu.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, bw_cu.cu.dev), "cudaDeviceGetAttribute",
                  err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&bw_cu.pageable, cudaDevAttrPageableMemoryAccess, bw_cu.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&bw_cu.host_page_tables, cudaDevAttrPageableMemoryAccessUsesHostPageTables,
                                         bw_cu.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    bw_cu.has_managed = managed != 0;
    bw_cu.concurrent = concurrent != 0;
    bw_cu.can_map = can_map != 0;
    bw_cu.full_threads = (uint64_t)bw_cu.cu.sms * bw_cu.cu.threads_per_sm;
    if (bw_cuda_topology_query(bw_cu.cu.dev, &bw_cu.topo, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaSetDevice(bw_cu.cu.dev), "cudaSetDevice", err, errlen);
    CR_CUDA_CHECK(cudaStreamCreate(&bw_cu.stream), "cudaStreamCreate", err, errlen);
    return CR_OK;
}

/* Which of HMM and ATS reaches malloc'd memory goes into the malloc
 * paths' descriptions, which the run prints and records. */
static void name_pageable_access(void)
{
    if (bw_cuda_pageable_refusal(bw_cu.pageable) != NULL)
        return;
    for (size_t i = 0; i < bw_cuda_npaths; ++i) {
        bw_path *p = &bw_cuda_paths[i];
        if (!malloc_kernel(p->id))
            continue;
        char *desc = bw_cu.malloc_desc[p->id == P_KW_MALLOC];
        snprintf(desc, sizeof bw_cu.malloc_desc[0], "kernel %s malloc'd host memory (posix_memalign) in place; %s",
                 p->id == P_KW_MALLOC ? "writes" : "reads", bw_cuda_pageable_label(bw_cu.host_page_tables));
        p->desc = desc;
    }
}

cr_status cuda_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&bw_cu, 0, sizeof bw_cu);
    cr_status s = cr_cuda_open_timed(spec, &bw_cu.cu, info, err, errlen);
    if (s != CR_OK)
        return s;
    s = device_attrs(err, errlen);
    if (s != CR_OK)
        cuda_close();
    else
        name_pageable_access();
    return s;
}

void cuda_oversubscribe(void) { bw_cu.oversubscribe = true; }

size_t cuda_paths(const bw_path **out)
{
    *out = bw_cuda_paths;
    return bw_cuda_npaths;
}

cr_status cuda_supported(const bw_path *p, char *why, size_t len)
{
    if (runs_transfers(p))
        return bw_cuda_refusal(shape_of(p), p->engine == BW_ENGINE_KERNEL, &bw_cu.topo, why, len) ? CR_UNSUPPORTED
                                                                                                  : CR_OK;
    const char *no = NULL;
    switch ((path_id)p->id) {
    case P_TECHNIQUE:
        if (p->technique == BW_CPU_RESIDENT && !bw_cu.can_map)
            no = "the device cannot map host memory (cudaDevAttrCanMapHostMemory is 0)";
        else if ((p->technique == BW_GPU_RESIDENT || p->technique == BW_MIXED) && !bw_cu.has_managed)
            no = "the device has no managed memory (cudaDevAttrManagedMemory is 0)";
        else if ((p->technique == BW_GPU_RESIDENT || p->technique == BW_MIXED) && !bw_cu.concurrent)
            no = "its model's cpu-*-managed paths need concurrent managed access "
                 "(cudaDevAttrConcurrentManagedAccess is 0)";
        break;
    case P_KR_MAPPED:
    case P_KW_MAPPED:
    case P_CPU_WRITE_MAPPED:
    case P_CPU_READ_MAPPED:
        if (!bw_cu.can_map)
            no = "the device cannot map host memory (cudaDevAttrCanMapHostMemory is 0)";
        break;
    case P_KR_MANAGED:
    case P_KW_MANAGED:
        if (!bw_cu.has_managed)
            no = "the device has no managed memory (cudaDevAttrManagedMemory is 0)";
        break;
    case P_KR_MANAGED_PREFETCH:
    case P_KW_MANAGED_PREFETCH:
    case P_CPU_WRITE_MANAGED:
    case P_CPU_READ_MANAGED:
        if (!bw_cu.has_managed)
            no = "the device has no managed memory (cudaDevAttrManagedMemory is 0)";
        else if (!bw_cu.concurrent)
            no = "cudaMemPrefetchAsync needs concurrent managed access (cudaDevAttrConcurrentManagedAccess is 0)";
        break;
    case P_KR_MALLOC:
    case P_KW_MALLOC:
        no = bw_cuda_pageable_refusal(bw_cu.pageable);
        break;
    default:
        break;
    }
    if (no == NULL)
        return CR_OK;
    snprintf(why, len, "%s", no);
    return CR_UNSUPPORTED;
}
