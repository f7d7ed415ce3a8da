/* CUDA backend of the stream benchmark: allocates, launches (kernels.cu)
 * and times. */
#include "cuda_device.h"
#include "kernels.h"

#include <cstdlib>
#include <cstring>

static struct {
    cr_cuda cu;
    cr_dtype type;
    uint64_t n;
    void *arr[3];
    /* dot's per-block sums: the kernel stores them in device memory, as
     * every other kernel stores its output, and they are copied to the host
     * after the stop event, so that the timed interval holds the kernel
     * alone. (Stores to mapped host memory would cross the bus inside it:
     * 4.1 us against the others' 3.2 us at small sizes on an H200.) */
    void *partial_dev;
    double *partial; /* the host's copy */
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
    cr_cuda_free(&st.partial_dev);
    free(st.partial);
    st.partial = NULL;
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

/* Grows the partial sums outside the timed interval. */
static cr_status ensure_partials(uint64_t blocks, char *err, size_t errlen)
{
    if (blocks <= st.partial_cap)
        return CR_OK;
    free_partials();
    CR_CUDA_CHECK(cudaMalloc(&st.partial_dev, blocks * sizeof(double)), "cudaMalloc(partial sums)", err, errlen);
    st.partial = static_cast<double *>(malloc(blocks * sizeof(double)));
    if (st.partial == NULL) {
        snprintf(err, errlen, "out of memory for %llu partial sums", (unsigned long long)blocks);
        return CR_ERR;
    }
    st.partial_cap = blocks;
    return CR_OK;
}

/* Pairwise, so that the chain of additions across blocks stays log2 long. */
static double sum_partials(double *p, uint64_t count)
{
    for (uint64_t step = 1; step < count; step *= 2)
        for (uint64_t i = 0; i + step < count; i += 2 * step)
            p[i] += p[i + step];
    return count ? p[0] : 0.0;
}

static cr_status cuda_run(stream_kernel k, const stream_geometry *g, double scalar, cr_timing *t, double *dot,
                          char *err, size_t errlen)
{
    if (cr_cuda_check_geometry(g->work_items, g->work_group, st.cu.max_group, err, errlen) != CR_OK ||
        stream_check_window(g, st.n, err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t blocks = g->work_items / g->work_group;
    if (k == STREAM_DOT && ensure_partials(blocks, err, errlen) != CR_OK)
        return CR_ERR;
    size_t es = cr_dtype_size(st.type);
    void *at[3];
    for (int i = 0; i < 3; ++i)
        at[i] = (char *)st.arr[i] + g->first * es;
    /* The interval holds the launch alone: asynchronous, so the gated timer
     * starts the device on it only once it is enqueued. */
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    stream_cuda_launch(k, st.type, (unsigned)blocks, (unsigned)g->work_group, at[STREAM_A], at[STREAM_B],
                       at[STREAM_C], scalar, g->count, static_cast<double *>(st.partial_dev));
    cudaError_t launched = cudaGetLastError();
    /* Stopped even after a failed launch: it opens the gate. */
    cr_status stopped = cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen);
    CR_CUDA_CHECK(launched, "kernel launch", err, errlen);
    if (stopped != CR_OK)
        return CR_ERR;
    if (k != STREAM_DOT)
        return CR_OK;
    if (cr_cuda_download(st.partial, st.partial_dev, blocks, st.partial_cap, sizeof(double), "partial sums", err,
                         errlen) != CR_OK)
        return CR_ERR;
    *dot = sum_partials(st.partial, blocks);
    return CR_OK;
}

static stream_geometry cuda_default_geometry(uint64_t n)
{
    const uint64_t group = 256;
    uint64_t items = (n + group - 1) / group * group;
    uint64_t full = st.cu.sms * st.cu.threads_per_sm;
    stream_geometry g = {items < full ? items : full, group, 0, n};
    return g;
}

static uint64_t cuda_work_group_for(uint64_t work_items) { return cr_cuda_work_group_for(&st.cu, work_items); }

static const char *cuda_layout(void)
{
    return "grid-stride: each thread 16 bytes of each array a step (4 floats or 2 doubles), loads before stores";
}

extern "C" {
extern const stream_backend stream_cuda_backend;
const stream_backend stream_cuda_backend = {
    {"cuda", cr_cuda_list, cuda_open, cuda_close},
    cuda_prepare, cuda_upload, cuda_download, cuda_run, cuda_default_geometry, cuda_work_group_for, cuda_layout,
};
}
