/* The chase with each of PTX's cache operators (Li, ch. 5), and the store
 * pass. The load is inline PTX for the same reason as the latency
 * walker's (cuda/chase/walker.cu): C++ says neither the state space
 * nor the operator. .ca caches in L1 and L2, .cg in L2 only, .nc goes
 * through the read-only (texture) path; `asm volatile` keeps every load,
 * in order, each address the value the load before returned. */
#include "cache/load_kernels.h"

extern "C" {
#include "cache/store.h"
}

template <int K> __device__ __forceinline__ unsigned long long load_kind(unsigned long long address);

template <> __device__ __forceinline__ unsigned long long load_kind<CC_LOAD_CA>(unsigned long long address)
{
    unsigned long long next;
    asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(next) : "l"(address));
    return next;
}

template <> __device__ __forceinline__ unsigned long long load_kind<CC_LOAD_CG>(unsigned long long address)
{
    unsigned long long next;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(next) : "l"(address));
    return next;
}

template <> __device__ __forceinline__ unsigned long long load_kind<CC_LOAD_NC>(unsigned long long address)
{
    unsigned long long next;
    asm volatile("ld.global.nc.u64 %0, [%1];" : "=l"(next) : "l"(address));
    return next;
}

template <int K> __global__ void chase_kind(unsigned long long start, unsigned long long steps, cc_chase_out *out)
{
    unsigned long long p = start;
    for (unsigned long long i = 0; i < steps; ++i)
        p = load_kind<K>(p);
    out->end = p;
}

#define CC_U64 unsigned long long
__global__ void store_pass(volatile unsigned long long *buf, CC_U64 first, CC_U64 count, CC_U64 stride, CC_U64 passes,
                           CC_U64 value)
{
    CC_STORE_LOOP(buf, first, count, stride, passes, value);
}

cudaError_t cc_launch_chase(int kind, unsigned long long start, unsigned long long steps, cc_chase_out *out)
{
    switch (kind) {
    case CC_LOAD_CA: chase_kind<CC_LOAD_CA><<<1, 1>>>(start, steps, out); break;
    case CC_LOAD_CG: chase_kind<CC_LOAD_CG><<<1, 1>>>(start, steps, out); break;
    case CC_LOAD_NC: chase_kind<CC_LOAD_NC><<<1, 1>>>(start, steps, out); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

cr_status cc_prefer_l1(char *err, size_t errlen)
{
    if (CR_CUDA_PREFER_L1(chase_kind<CC_LOAD_CA>, err, errlen) != CR_OK ||
        CR_CUDA_PREFER_L1(chase_kind<CC_LOAD_CG>, err, errlen) != CR_OK ||
        CR_CUDA_PREFER_L1(chase_kind<CC_LOAD_NC>, err, errlen) != CR_OK)
        return CR_ERR;
    return CR_CUDA_PREFER_L1(store_pass, err, errlen);
}

cudaError_t cc_launch_store(unsigned long long *buf, uint64_t first, uint64_t count, uint64_t stride, uint64_t passes,
                            uint64_t value)
{
    store_pass<<<1, 1>>>(buf, first, count, stride, passes, value);
    return cudaGetLastError();
}
