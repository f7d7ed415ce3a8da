/* Register-pressure kernel (regspill/backend.h). Built once per live-value
 * count after regspill/recurrence.h with -DRS_LIVE=N, -DRS_LANES=L and
 * -DRS_UINT=uint or uintL (and RS_LANE_IDS, the vector 0..L-1): on a CPU
 * each work-item runs L copies as one vector, so one live value takes one
 * vector register, which is the register a CPU spills. The loops over the
 * values are unrolled so that v[] can live in registers.
 *
 * The element operations are recurrence.h's, shared with the CUDA kernel
 * and the host truth; the loops around them differ on purpose: the lanes
 * are a CPU's, and the CUDA kernel keeps its rounds loop rolled for the
 * JIT (cuda/regspill/kernels.cu). */

__kernel void regspill_live(__global uint *out, uint rounds)
{
#if RS_LANES == 1
    const RS_UINT gid = (RS_UINT)get_global_id(0);
#else
    const RS_UINT gid = (RS_UINT)((uint)get_global_id(0) * RS_LANES) + RS_LANE_IDS;
#endif
    RS_UINT v[RS_LIVE];
#pragma unroll
    for (int i = 0; i < RS_LIVE; ++i)
        v[i] = RS_SEED(gid, i);
    for (uint r = 0; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < RS_LIVE - 1; ++i)
            v[i] = RS_STEP(v[i], v[i + 1]);
        v[RS_LIVE - 1] = RS_STEP(v[RS_LIVE - 1], v[0]);
    }
    RS_UINT h = 0;
#pragma unroll
    for (int i = 0; i < RS_LIVE; ++i)
        h = h * RS_FOLD + v[i];
#if RS_LANES == 1
    out[get_global_id(0)] = h;
#else
    RS_STORE(h, get_global_id(0), out);
#endif
}
