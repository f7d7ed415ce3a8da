/* The CUDA bandwidth backend's state (state.h). */
#include "state.h"

bw_cu_state bw_cu;

/* CUDA 13 takes a cudaMemLocation where CUDA 12 took a device ordinal. */
cudaError_t bw_cu_prefetch(const void *p, bool to_host)
{
#if CUDART_VERSION >= 13000
    cudaMemLocation loc = {to_host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice, to_host ? 0 : bw_cu.cu.dev};
    return cudaMemPrefetchAsync(p, (size_t)bw_cu.bytes, loc, 0, bw_cu.stream);
#else
    return cudaMemPrefetchAsync(p, (size_t)bw_cu.bytes, to_host ? cudaCpuDeviceId : bw_cu.cu.dev, bw_cu.stream);
#endif
}
