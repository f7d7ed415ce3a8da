/* CUDA backend of the gesummv benchmark: the kernel (bench/gesummv/row.h),
 * allocation, launch and timing with the gated event timer. */
#include "cuda_device.h"

extern "C" {
#include "gesummv/backend.h"
}

#include <cstring>

/* Exactly gridDim.x * blockDim.x threads; thread g the rows g, g + k, ... */
template <typename T>
__global__ void gesummv(const T *__restrict__ A, const T *__restrict__ B, const T *__restrict__ x, T *__restrict__ y,
                        T alpha, T beta, unsigned long long n)
{
    const unsigned long long k = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += k)
        GESUMMV_ROW(T, unsigned long long, A, B, x, y, n, i, alpha, beta);
}

static struct {
    cr_cuda cu;
    cr_dtype type;
    uint64_t n;
    void *arr[GESUMMV_NARRAYS];
} st;

static void free_arrays(void)
{
    for (int i = 0; i < GESUMMV_NARRAYS; ++i)
        cr_cuda_free(&st.arr[i]);
}

static void gc_close(void) { free_arrays(), cr_cuda_close_timed(&st.cu); }

static cr_status gc_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    return cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
}

static size_t array_bytes(gesummv_array which)
{
    return (size_t)(gesummv_elements(which, st.n) * cr_dtype_size(st.type));
}

static cr_status gc_prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    free_arrays();
    st.type = t;
    st.n = n;
    for (int i = 0; i < GESUMMV_NARRAYS; ++i)
        CR_CUDA_CHECK(cudaMalloc(&st.arr[i], array_bytes((gesummv_array)i)), "cudaMalloc", err, errlen);
    return CR_OK;
}

static cr_status gc_upload(gesummv_array which, const void *src, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMemcpy(st.arr[which], src, array_bytes(which), cudaMemcpyHostToDevice), "cudaMemcpy", err,
                  errlen);
    return CR_OK;
}

static cr_status gc_download(gesummv_array which, void *dst, char *err, size_t errlen)
{
    CR_CUDA_CHECK(cudaMemcpy(dst, st.arr[which], array_bytes(which), cudaMemcpyDeviceToHost), "cudaMemcpy", err,
                  errlen);
    return CR_OK;
}

static cr_status gc_run(uint64_t work_items, uint64_t work_group, double alpha, double beta, cr_timing *t, char *err,
                        size_t errlen)
{
    if (cr_cuda_check_geometry(work_items, work_group, st.cu.max_group, err, errlen) != CR_OK)
        return CR_ERR;
    const void *k = st.type == CR_FLOAT ? (const void *)gesummv<float> : (const void *)gesummv<double>;
    float af = (float)alpha, bf = (float)beta;
    unsigned long long n = st.n;
    void *args_f[] = {&st.arr[GESUMMV_A], &st.arr[GESUMMV_B], &st.arr[GESUMMV_X], &st.arr[GESUMMV_Y], &af, &bf, &n};
    void *args_d[] = {&st.arr[GESUMMV_A], &st.arr[GESUMMV_B], &st.arr[GESUMMV_X], &st.arr[GESUMMV_Y], &alpha, &beta,
                      &n};
    const dim3 grid((unsigned)(work_items / work_group)), block((unsigned)work_group);
    /* The interval holds the launch alone: the gated timer starts the
     * device on it only once it is enqueued. */
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    cudaError_t launched = cudaLaunchKernel(k, grid, block, st.type == CR_FLOAT ? args_f : args_d, 0, 0);
    /* Stopped even after a failed launch: it opens the gate. */
    cr_status stopped = cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen);
    CR_CUDA_CHECK(launched, "kernel launch", err, errlen);
    return stopped;
}

static uint64_t gc_work_group_for(uint64_t work_items) { return cr_cuda_work_group_for(&st.cu, work_items); }

CR_CUDA_BACKEND(gesummv_backend, gesummv_cuda_backend) = {
    {"cuda", cr_cuda_list, gc_open, gc_close}, gc_prepare, gc_upload, gc_download, gc_run, gc_work_group_for,
};
