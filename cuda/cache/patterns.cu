/* The CUDA pattern kernel of the cache benchmark (cache/pattern_ops.h), on the
 * device and timer the shared walker opened (chase/walker.h): one
 * thread makes one run of the pattern (bench/cache/pattern_index.h), every
 * address dependent on the value loaded before, and stores the sum of what
 * it loaded for the host to check. The loads are the plain ld.global of an
 * application's read (tests/test_cache_patterns_ptx.c checks the PTX: one
 * load per access, nothing in local memory). */
#include "cuda_device.h"
#include "chase/walker.h"
#include "patterns.h"

extern "C" {
#include "cache/pattern_index.h"
#include "cache/pattern_ops.h"
}

#include <cstdio>
#include <cstring>

__global__ void cc_pattern(unsigned long long *b0, unsigned long long *b1, unsigned long long *b2,
                           cc_pattern_shape s, unsigned long long mask, unsigned long long *out)
{
    unsigned long long sum = 0;
    CC_RUN(s, b0, b1, b2, s.accesses, mask, sum);
    *out = sum;
}

static struct {
    void *buffer[3], *out;
    cc_pattern_shape shape;
} P;

static void release_buffers()
{
    for (void *&b : P.buffer)
        cr_cuda_free(&b);
}

static void cu_patterns_release()
{
    release_buffers();
    cr_cuda_free(&P.out);
    P = {};
}

static cr_status cu_patterns_prepare(const cc_pattern_shape *shape, const void *init, uint64_t init_bytes, char *err,
                                     size_t errlen)
{
    if (lt_cuda_device() == nullptr) {
        snprintf(err, errlen, "no CUDA device is open for the pattern kernels");
        return CR_ERR;
    }
    release_buffers();
    if (cc_shape_check_init(shape, init_bytes, err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t bytes = shape->words * sizeof(unsigned long long);
    if (P.out == nullptr) {
        /* The cache configuration of the chases it is compared with. */
        if (CR_CUDA_PREFER_L1(cc_pattern, err, errlen) != CR_OK)
            return CR_ERR;
        CR_CUDA_CHECK(cudaMalloc(&P.out, sizeof(unsigned long long)), "cudaMalloc(out)", err, errlen);
    }
    for (unsigned b = 0; b < shape->buffers; ++b) {
        CR_CUDA_CHECK(cudaMalloc(&P.buffer[b], bytes), "cudaMalloc(pattern)", err, errlen);
        CR_CUDA_CHECK(cudaMemcpy(P.buffer[b], static_cast<const char *>(init) + b * bytes, bytes,
                                 cudaMemcpyHostToDevice),
                      "cudaMemcpy(pattern)", err, errlen);
    }
    P.shape = *shape;
    return CR_OK;
}

/* Between the timer's start and stop only the launch: the timer holds the
 * stream until stop, so nothing there may wait for the device. */
static cr_status cu_patterns_run(cr_timing *t, uint64_t *check, char *err, size_t errlen)
{
    cr_cuda *cu = lt_cuda_device();
    if (cu == nullptr || P.buffer[0] == nullptr) {
        snprintf(err, errlen, "no pattern prepared");
        return CR_ERR;
    }
    auto *b0 = static_cast<unsigned long long *>(P.buffer[0]);
    auto *b1 = P.buffer[1] ? static_cast<unsigned long long *>(P.buffer[1]) : b0;
    auto *b2 = P.buffer[2] ? static_cast<unsigned long long *>(P.buffer[2]) : b0;
    *t = cr_timing{};
    if (cr_cuda_timer_start(&cu->timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    cc_pattern<<<1, 1>>>(b0, b1, b2, P.shape, 0ULL, static_cast<unsigned long long *>(P.out));
    CR_CUDA_CHECK(cudaGetLastError(), "cc_pattern<<<1, 1>>>", err, errlen);
    if (cr_cuda_timer_stop(&cu->timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;
    unsigned long long sum = 0;
    CR_CUDA_CHECK(cudaMemcpy(&sum, P.out, sizeof sum, cudaMemcpyDeviceToHost), "cudaMemcpy(out)", err, errlen);
    *check = sum;
    return CR_OK;
}

extern "C" const cc_pattern_ops cc_cuda_patterns = {cu_patterns_prepare, cu_patterns_run, cu_patterns_release};
