/* CUDA backend of the stream benchmark. Kernels use interleaved
 * (grid-stride) loops so that exactly the requested number of threads runs,
 * each touching elements tid, tid + T, tid + 2T, ... with T threads in all. */
#include "cuda_device.h"

extern "C" {
#include "stream/backend.h"
}
#include "stream/elements.h"

#include <climits>
#include <cstring>

/* Bounds for the largest block at two per SM cap registers at 32 per thread,
 * so the full occupancy default_geometry asks for (2048 threads per SM on
 * sm_80 and sm_90) stays resident with any block size. */
#define RESIDENT __launch_bounds__(1024, 2)

template <typename T, stream_kernel K>
__global__ void RESIDENT elementwise(T *__restrict__ a, T *__restrict__ b, T *__restrict__ c, T s, size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        if constexpr (K == STREAM_COPY)
            STREAM_COPY_AT(a, b, c, s, i);
        else if constexpr (K == STREAM_MUL)
            STREAM_MUL_AT(a, b, c, s, i);
        else if constexpr (K == STREAM_ADD)
            STREAM_ADD_AT(a, b, c, s, i);
        else
            STREAM_TRIAD_AT(a, b, c, s, i);
    }
}

/* Sums blocks of at most STREAM_DOT_BLOCK products into the thread's running
 * sum, then a tree over the block; one partial per block, in double for the
 * host's pairwise sum. One accumulator, like the other kernels' one element
 * per iteration: more chains need more registers than full occupancy leaves
 * for double (ptxas spills), and would give dot more memory parallelism per
 * thread than the other kernels in the concurrency sweep. */
template <typename T>
__global__ void RESIDENT dot_kernel(const T *__restrict__ a, const T *__restrict__ b,
                                    double *__restrict__ partial, size_t n)
{
    extern __shared__ __align__(8) unsigned char shared[];
    T *red = reinterpret_cast<T *>(shared);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T sum = 0;
    while (i < n) {
        T block = 0;
        for (unsigned k = 0; k < STREAM_DOT_BLOCK && i < n; ++k, i += stride)
            block += STREAM_DOT_AT(a, b, i);
        sum += block;
    }
    red[threadIdx.x] = sum;
    __syncthreads();
    /* Block sizes need not be powers of two (see work_group_for). */
    for (unsigned active = blockDim.x; active > 1;) {
        unsigned half = (active + 1) / 2;
        if (threadIdx.x < active - half)
            red[threadIdx.x] += red[threadIdx.x + half];
        __syncthreads();
        active = half;
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = red[0];
}

static struct {
    cr_cuda cu;
    cr_dtype type;
    uint64_t n;
    void *arr[3];
    double *partial, *host_partial; /* host side pinned: the copy is part of the timed interval */
    uint64_t partial_cap;
    } st;

static void free_arrays(void)
{
    for (int i = 0; i < 3; ++i) {
        cudaFree(st.arr[i]);
        st.arr[i] = NULL;
    }
    st.n = 0;
}

static void free_partials(void)
{
    cudaFree(st.partial);
    cudaFreeHost(st.host_partial);
    st.partial = st.host_partial = NULL;
    st.partial_cap = 0;
}

static void cuda_close(void)
{
    free_arrays();
    free_partials();
    cr_cuda_close_timed(&st.cu);
}

static cr_status cuda_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    return cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
}

static cr_status cuda_prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    free_arrays();
    for (int i = 0; i < 3; ++i)
        CR_CUDA_CHECK(cudaMalloc(&st.arr[i], n * cr_dtype_size(t)), "cudaMalloc", err, errlen);
    st.type = t;
    st.n = n;
    return CR_OK;
}

static cr_status cuda_upload(stream_array which, const void *src, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMemcpy(st.arr[which], src, st.n * cr_dtype_size(st.type), cudaMemcpyHostToDevice),
                  "cudaMemcpy", err, errlen);
    return CR_OK;
}

static cr_status cuda_download(stream_array which, void *dst, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMemcpy(dst, st.arr[which], st.n * cr_dtype_size(st.type), cudaMemcpyDeviceToHost),
                  "cudaMemcpy", err, errlen);
    return CR_OK;
}

/* Grows the partial-sum buffers outside the timed interval. */
static cr_status ensure_partials(uint64_t blocks, char *err, size_t errlen)
{
    if (blocks <= st.partial_cap)
        return CR_OK;
    free_partials();
    CR_CUDA_CHECK(cudaMalloc(&st.partial, blocks * sizeof(double)), "cudaMalloc", err, errlen);
    CR_CUDA_CHECK(cudaMallocHost(&st.host_partial, blocks * sizeof(double)), "cudaMallocHost", err, errlen);
    st.partial_cap = blocks;
    return CR_OK;
}

template <typename T>
static void launch(stream_kernel k, unsigned blocks, unsigned group, double scalar)
{
    T *a = (T *)st.arr[STREAM_A], *b = (T *)st.arr[STREAM_B], *c = (T *)st.arr[STREAM_C];
    const T s = (T)scalar;
    /* Indexed by stream_kernel; dot has a kernel of its own. */
    static void (*const element_kernels[])(T *, T *, T *, T, size_t) = {
        elementwise<T, STREAM_COPY>, elementwise<T, STREAM_MUL>, elementwise<T, STREAM_ADD>,
        elementwise<T, STREAM_TRIAD>};
    if (k == STREAM_DOT)
        dot_kernel<T><<<blocks, group, group * sizeof(T)>>>(a, b, st.partial, st.n);
    else
        element_kernels[k]<<<blocks, group>>>(a, b, c, s, st.n);
}

/* Pairwise, so that the chain of additions across blocks stays log2 long. */
static double sum_partials(double *p, uint64_t count)
{
    for (uint64_t step = 1; step < count; step *= 2)
        for (uint64_t i = 0; i + step < count; i += 2 * step)
            p[i] += p[i + step];
    return count ? p[0] : 0.0;
}

static cr_status check_geometry(const stream_geometry *g, char *err, size_t errlen)
{
    if (g->work_group == 0 || g->work_group > st.cu.max_group || g->work_items % g->work_group != 0 ||
        g->work_items / g->work_group > INT_MAX) {
        snprintf(err, errlen, "invalid geometry: %llu work-items in groups of %llu",
                 (unsigned long long)g->work_items, (unsigned long long)g->work_group);
        return CR_ERR;
    }
    return CR_OK;
}

static cr_status cuda_run(stream_kernel k, const stream_geometry *g, double scalar, cr_timing *t, double *dot,
                          char *err, size_t errlen)
{
    if (check_geometry(g, err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t blocks = g->work_items / g->work_group;
    if (k == STREAM_DOT && ensure_partials(blocks, err, errlen) != CR_OK)
        return CR_ERR;
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    if (st.type == CR_DOUBLE)
        launch<double>(k, (unsigned)blocks, (unsigned)g->work_group, scalar);
    else
        launch<float>(k, (unsigned)blocks, (unsigned)g->work_group, scalar);
    CR_CUDA_CHECK(cudaGetLastError(), "kernel launch", err, errlen);
    if (k == STREAM_DOT)
        CR_CUDA_CHECK(cudaMemcpyAsync(st.host_partial, st.partial, blocks * sizeof(double),
                                      cudaMemcpyDeviceToHost, 0),
                      "cudaMemcpyAsync", err, errlen);
    if (cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;
    if (k == STREAM_DOT)
        *dot = sum_partials(st.host_partial, blocks);
    return CR_OK;
}

static stream_geometry cuda_default_geometry(uint64_t n)
{
    const uint64_t group = 256;
    uint64_t items = (n + group - 1) / group * group;
    uint64_t full = st.cu.sms * st.cu.threads_per_sm;
    stream_geometry g = {items < full ? items : full, group};
    return g;
}

/* The largest group that divides work_items and still leaves at least one
 * block per SM: at multiples of the SM count every SM gets the same share. */
static uint64_t cuda_work_group_for(uint64_t work_items)
{
    uint64_t limit = st.cu.sms ? work_items / st.cu.sms : 1;
    if (limit > st.cu.max_group)
        limit = st.cu.max_group;
    uint64_t group = limit ? limit : 1;
    while (work_items % group != 0)
        --group;
    return group;
}

extern "C" {
extern const stream_backend stream_cuda_backend;
const stream_backend stream_cuda_backend = {
    {"cuda", cr_cuda_list, cuda_open, cuda_close},
    cuda_prepare, cuda_upload, cuda_download, cuda_run, cuda_default_geometry, cuda_work_group_for,
};
}
