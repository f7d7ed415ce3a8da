/* The register-pressure kernel of the regspill benchmark, compiled to PTX
 * once per live-value count (nvcc -ptx -DRS_LIVE=N) and JIT-compiled at run
 * time, so that the register cap is a JIT option rather than one binary per
 * (count, cap) pair. Semantics: regspill/backend.h.
 *
 *   extern "C" __global__ void regspill_live(uint32_t *out, uint32_t rounds)
 *
 * out holds one value per launched thread. There is no bounds check: the
 * backend launches exactly work_items threads (a multiple of the block size)
 * and refuses more than it allocated, and a check would add a register and a
 * branch to the very thing being measured. The id is 32-bit for the same
 * reason, and the backend refuses more threads than it numbers
 * (regspill/kernel_ids.h).
 *
 * The element operations are recurrence.h's, shared with the OpenCL kernel
 * and the host truth; the loops differ from the OpenCL kernel's on purpose
 * (no vector lanes: a thread is one work-item; the rounds kept rolled). */
#include <stdint.h>

#define RS_UINT unsigned int
#include "regspill/recurrence.h"

#ifndef RS_LIVE
#error "compile with -DRS_LIVE=<live values per thread>"
#endif
#if RS_LIVE < 1
#error "RS_LIVE must be at least 1"
#endif

extern "C" __global__ void regspill_live(uint32_t *out, uint32_t rounds)
{
    const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
    /* Indexed only by constants after unrolling, so that v is a register
     * file rather than a stack array: what spills is then the compiler's
     * choice under the cap, not an addressing artefact. */
    RS_UINT v[RS_LIVE];
#pragma unroll
    for (unsigned i = 0; i < RS_LIVE; ++i)
        v[i] = RS_SEED(gid, i);
    /* Kept rolled: unrolling rounds would multiply the code without changing
     * how many values are live, and the JIT time with it. */
#pragma unroll 1
    for (uint32_t r = 0; r < rounds; ++r) {
#pragma unroll
        for (unsigned i = 0; i < RS_LIVE; ++i)
            v[i] = RS_STEP(v[i], v[(i + 1) % RS_LIVE]);
    }
    RS_UINT h = 0;
#pragma unroll
    for (unsigned i = 0; i < RS_LIVE; ++i)
        h = h * RS_FOLD + v[i];
    out[gid] = h;
}
