/* The CUDA bandwidth backend's results (results.h). */
#include "results.h"

#include "transfers.h"

#include <cstdlib>
#include <cstring>

/* Vector add: c as it is; reduce: the sum of the partials. */
static void technique_result(const bw_path *p, void *dst)
{
    bw_technique_output(p->workload == BW_VECTOR_ADD, bw_cu.tdst, bw_cu.tout_bytes, bw_cu.tblocks, dst);
}

cr_status cuda_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);
    if (p->kind == BW_TECHNIQUE) {
        technique_result(p, dst);
        return CR_OK;
    }
    if (runs_transfers(p))
        return bw_transfers_result(dst, err, errlen);
    if (p->kind != BW_KERNEL_READ) {
        /* Device and managed memory through the runtime; host memory, mapped
         * included, as the CPU sees it. */
        if (on_device(bw_cu.to) || bw_cu.to == bw_cu.managed)
            CR_CUDA_CHECK(cudaMemcpy(dst, bw_cu.to, (size_t)bw_cu.bytes, cudaMemcpyDefault), "cudaMemcpy", err, errlen);
        else
            memcpy(dst, bw_cu.to, (size_t)bw_cu.bytes);
        return CR_OK;
    }
    uint64_t *partial = (uint64_t *)malloc(bw_cu.blocks * sizeof *partial);
    if (partial == NULL) {
        snprintf(err, errlen, "out of memory");
        return CR_ERR;
    }
    cudaError_t rc = cudaMemcpy(partial, bw_cu.partial, bw_cu.blocks * sizeof *partial, cudaMemcpyDeviceToHost);
    *sum = 0;
    for (unsigned i = 0; rc == cudaSuccess && i < bw_cu.blocks; ++i)
        *sum += partial[i];
    free(partial);
    CR_CUDA_CHECK(rc, "cudaMemcpy", err, errlen);
    return CR_OK;
}

unsigned cuda_transfers(const bw_path *p)
{
    if (!runs_transfers(p))
        return 1;
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    const unsigned n = bw_cuda_plan(shape_of(p), &bw_cu.topo, plan);
    return n ? n : 1;
}
