/* CUDA backend of the atomics benchmark. One kernel template covers every
 * (operation, type, memory space); only the instances supports() accepts
 * are compiled, so float never meets an integer-only intrinsic. Every
 * address and operand comes from bench/atomics/pattern.h, like the host
 * reference the design verifies against. The operations themselves are
 * CUDA's atomic*, where OpenCL's kernels use OpenCL 1.2 atomic_* and the
 * host C11 atomics: each API's own instruction is what is measured. */
#include "cuda_device.h"

extern "C" {
#include "atomics/backend.h"
}

#define AT_U32 unsigned int
#include "atomics/pattern.h"

#include <climits>
#include <cmath>
#include <cstring>

#define WORK_GROUP 256u

/* The sum of the read's returns wraps in T, as the host's does; the other
 * operations discard their results, so ptxas may use the reduction (RED)
 * form where it has one, which is what a fire-and-forget atomic is. */
template <int OP, typename T>
__device__ __forceinline__ void at_op_once(T *p, unsigned long long g, unsigned j, unsigned inc_limit, T &sum)
{
    if constexpr (OP == AT_ADD) {
        atomicAdd(p, (T)AT_ADD_VALUE(g));
    } else if constexpr (OP == AT_INC) {
        /* atomicInc wraps at its limit, and at 0xFFFFFFFF that is the
         * ordinary 32-bit wrap. The limit arrives at run time: ptxas turns
         * an increment with the constant 0xFFFFFFFF limit into an add of 1
         * (REDG.ADD, ATOMS.POPC.INC), which would measure add, not the
         * increment instruction (REDG.INC, ATOMS.INC). There is no 64-bit
         * increment, so 64-bit adds 1. */
        if constexpr (sizeof(T) == 4)
            atomicInc(p, inc_limit);
        else
            atomicAdd(p, (T)1);
    } else if constexpr (OP == AT_XCHG) {
        atomicExch(p, (T)AT_XCHG_VALUE(g));
    } else if constexpr (OP == AT_CAS) {
        const T v = (T)AT_ADD_VALUE(g);
        T old = *(volatile T *)p;
        for (;;) {
            const T assumed = old;
            old = atomicCAS(p, assumed, (T)(assumed + v));
            if (old == assumed)
                break;
        }
    } else if constexpr (OP == AT_MIN) {
        atomicMin(p, (T)AT_MINMAX_VALUE(g, j));
    } else if constexpr (OP == AT_MAX) {
        atomicMax(p, (T)AT_MINMAX_VALUE(g, j));
    } else {
        sum = (T)(sum + atomicAdd(p, (T)0));
    }
}

template <int OP, typename T, bool LOCAL>
__global__ void at_kernel(T *counters, unsigned long long *out, unsigned long long stride, unsigned long long degree,
                          unsigned iters, T init, unsigned inc_limit)
{
    /* One untyped declaration for every instance: extern shared arrays of
     * different element types in one translation unit would conflict. */
    extern __shared__ __align__(8) unsigned char at_shared[];
    const unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    T *p;
    unsigned long long slots = 0;
    if constexpr (LOCAL) {
        T *sh = reinterpret_cast<T *>(at_shared);
        slots = (blockDim.x - 1) / degree + 1;
        /* Only the slots' elements are ever touched; the gaps between them
         * exist to place the slots in chosen banks. */
        for (unsigned long long k = threadIdx.x; k < slots; k += blockDim.x)
            sh[AT_INDEX(k, stride)] = init;
        __syncthreads();
        p = sh + AT_INDEX(AT_SLOT((unsigned long long)threadIdx.x, degree), stride);
    } else {
        p = counters + AT_INDEX(AT_SLOT(g, degree), stride);
    }
    T sum = 0;
    for (unsigned j = 0; j < iters; ++j)
        at_op_once<OP, T>(p, g, j, inc_limit, sum);
    if constexpr (OP == AT_READ)
        out[g] = (unsigned long long)sum;
    if constexpr (LOCAL) {
        __syncthreads();
        if (threadIdx.x % degree == 0)
            counters[blockIdx.x * slots + threadIdx.x / degree] = *p;
    }
}

__global__ void at_empty(void) {}

/* Lock and counter words of run_lock, in one allocation so that a single
 * memset resets them. */
typedef struct {
    unsigned int lock, next, serving, pad;
    unsigned long long counter;
} at_lock_words;

/* The counter is incremented by a plain (volatile) load and store, so that
 * only the lock keeps updates from being lost; the fences order that access
 * against the lock's atomics for the next holder on another SM. */
__device__ __forceinline__ void at_critical(at_lock_words *w)
{
    __threadfence();
    volatile unsigned long long *c = &w->counter;
    *c = *c + 1;
    __threadfence();
}

__global__ void at_spin_lock(at_lock_words *w, unsigned iters)
{
    for (unsigned j = 0; j < iters; ++j) {
        while (atomicExch(&w->lock, 1u) != 0u) {
        }
        at_critical(w);
        atomicExch(&w->lock, 0u);
    }
}

/* Fetch-and-add ticket lock: FIFO hand-over. Every ticket holder is already
 * resident (it took the ticket while running), so blocks still waiting to
 * be scheduled can never hold up the queue. */
__global__ void at_ticket_lock(at_lock_words *w, unsigned iters)
{
    for (unsigned j = 0; j < iters; ++j) {
        const unsigned my = atomicAdd(&w->next, 1u);
        while (atomicAdd(&w->serving, 0u) != my) {
        }
        at_critical(w);
        atomicAdd(&w->serving, 1u);
    }
}

static struct {
    cr_cuda cu;
    uint64_t smem_optin;   /* the most dynamic shared memory a block may opt into */
    uint64_t smem_default; /* what it gets without (cudaFuncAttributeMaxDynamicSharedMemorySize) */
    at_type type;
    void *counters;
    uint64_t n_counters;
    void *out; /* unsigned long long read sums */
    uint64_t n_outs;
    void *locks; /* at_lock_words */
    bool empty_warm; /* at_empty has run once since open */
} st;

static void free_buffers(void)
{
    cr_cuda_free(&st.counters);
    cr_cuda_free(&st.out);
    st.n_counters = st.n_outs = 0;
}

static void at_close(void)
{
    free_buffers();
    cr_cuda_free(&st.locks);
    cr_cuda_close_timed(&st.cu);
}

/* The local memory a group may have is what a block can opt into (the
 * device layer's local_mem_bytes): the design sizes its strides by it, as
 * shared_bytes() does. */
static cr_status at_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    memset(&st, 0, sizeof st);
    cr_status s = cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
    if (s == CR_OK) {
        st.smem_optin = info->local_mem_bytes;
        st.smem_default = info->local_mem_default_bytes;
    }
    return s;
}

/* Whether ptxas realises the operation on shared memory as its own
 * compare-and-swap loop (LDS, ALU op, ATOMS.CAST.SPIN) rather than one
 * instruction: float add and 64-bit add, min and max (inc and read are
 * adds) have no shared-memory atomic instruction on any target from sm_75
 * to sm_121; 64-bit exchange and compare-and-swap do. */
static bool shared_cas_loop(at_op op, at_type type)
{
    if (type == AT_TYPE_F32)
        return true;
    return type == AT_TYPE_U64 && op != AT_XCHG && op != AT_CAS;
}

/* 64-bit min and max need compute capability 3.5, below anything this
 * toolkit targets, so every operation runs on every device. */
static cr_status at_supports(at_op op, at_type type, at_space space, const char **how, char *err, size_t errlen)
{
    const cr_status s = at_check_kind(op, type, space, err, errlen);
    if (s != CR_OK)
        return s;
    if (how)
        *how = space == AT_LOCAL && shared_cas_loop(op, type) ? "cas-loop" : "native";
    return CR_OK;
}

static cr_status at_prepare(at_type type, uint64_t counters, uint64_t outs, char *err, size_t errlen)
{
    free_buffers();
    if ((unsigned)type >= AT_NTYPES || counters > SIZE_MAX / 8 || outs > SIZE_MAX / 8) {
        snprintf(err, errlen, "invalid allocation: %llu counters, %llu read sums", (unsigned long long)counters,
                 (unsigned long long)outs);
        return CR_ERR;
    }
    st.type = type;
    if (counters)
        CR_CUDA_CHECK(cudaMalloc(&st.counters, counters * at_type_size(type)), "cudaMalloc", err, errlen);
    st.n_counters = counters;
    if (outs)
        CR_CUDA_CHECK(cudaMalloc(&st.out, outs * sizeof(unsigned long long)), "cudaMalloc", err, errlen);
    st.n_outs = outs;
    return CR_OK;
}

static cr_status check_count(uint64_t n, uint64_t have, const char *what, char *err, size_t errlen)
{
    if (n > have) {
        snprintf(err, errlen, "%llu %s requested but %llu prepared", (unsigned long long)n, what,
                 (unsigned long long)have);
        return CR_ERR;
    }
    return CR_OK;
}

/* A copy of n elements of es bytes to or from a buffer that holds have. */
static cr_status copy(void *dst, const void *src, uint64_t n, uint64_t have, size_t es, cudaMemcpyKind kind,
                      const char *what, char *err, size_t errlen)
{
    if (check_count(n, have, what, err, errlen) != CR_OK)
        return CR_ERR;
    if (n)
        CR_CUDA_CHECK(cudaMemcpy(dst, src, n * es, kind), "cudaMemcpy", err, errlen);
    return CR_OK;
}

static cr_status at_upload(const void *src, uint64_t n, char *err, size_t errlen)
{
    return copy(st.counters, src, n, st.n_counters, at_type_size(st.type), cudaMemcpyHostToDevice, "counters", err,
                errlen);
}

static cr_status at_download(void *dst, uint64_t n, char *err, size_t errlen)
{
    return copy(dst, st.counters, n, st.n_counters, at_type_size(st.type), cudaMemcpyDeviceToHost, "counters", err,
                errlen);
}

static cr_status at_download_out(uint64_t *dst, uint64_t n, char *err, size_t errlen)
{
    return copy(dst, st.out, n, st.n_outs, sizeof(unsigned long long), cudaMemcpyDeviceToHost, "read sums", err,
                errlen);
}

/* The instance of every operation, in at_op order. */
template <typename T, bool LOCAL>
static const void *integer_kernel(at_op op)
{
    static_assert(AT_ADD == 0 && AT_INC == 1 && AT_XCHG == 2 && AT_CAS == 3 && AT_MIN == 4 && AT_MAX == 5 &&
                      AT_READ == 6 && AT_NOPS == 7,
                  "the table follows at_op");
    static const void *const kernels[AT_NOPS] = {
        (const void *)at_kernel<AT_ADD, T, LOCAL>, (const void *)at_kernel<AT_INC, T, LOCAL>,
        (const void *)at_kernel<AT_XCHG, T, LOCAL>, (const void *)at_kernel<AT_CAS, T, LOCAL>,
        (const void *)at_kernel<AT_MIN, T, LOCAL>, (const void *)at_kernel<AT_MAX, T, LOCAL>,
        (const void *)at_kernel<AT_READ, T, LOCAL>,
    };
    return (unsigned)op < AT_NOPS ? kernels[op] : NULL;
}

template <bool LOCAL>
static const void *kernel_in_space(at_op op, at_type type)
{
    switch (type) {
    case AT_TYPE_U32:
        return integer_kernel<unsigned int, LOCAL>(op);
    case AT_TYPE_U64:
        return integer_kernel<unsigned long long, LOCAL>(op);
    case AT_TYPE_F32:
        return op == AT_ADD ? (const void *)at_kernel<AT_ADD, float, LOCAL> : NULL;
    default:
        return NULL;
    }
}

static const void *kernel_for(at_op op, at_type type, at_space space)
{
    return space == AT_LOCAL ? kernel_in_space<true>(op, type) : kernel_in_space<false>(op, type);
}

/* Counters the run touches: global, the highest slot's element plus one;
 * local, every group's slots written back side by side. Refuses sizes whose
 * arithmetic would overflow rather than wrapping into a small buffer. */
static cr_status counters_needed(const at_run *r, uint64_t *need, char *err, size_t errlen)
{
    if (r->space == AT_LOCAL) {
        const uint64_t slots = (r->work_group - 1) / r->degree + 1;
        const uint64_t groups = r->work_items / r->work_group;
        if (slots && groups > UINT64_MAX / slots)
            goto overflow;
        *need = groups * slots;
    } else {
        const uint64_t last = AT_SLOT(r->work_items - 1, r->degree);
        if (last > (UINT64_MAX - 1) / r->stride)
            goto overflow;
        *need = AT_INDEX(last, r->stride) + 1;
    }
    return CR_OK;
overflow:
    snprintf(err, errlen, "counter index overflows 64 bits (stride %llu, degree %llu)", (unsigned long long)r->stride,
             (unsigned long long)r->degree);
    return CR_ERR;
}

static cr_status check_run(const at_run *r, char *err, size_t errlen)
{
    if (cr_cuda_check_geometry(r->work_items, r->work_group, st.cu.max_group, err, errlen) != CR_OK)
        return CR_ERR;
    if (r->stride == 0 || r->degree == 0) {
        snprintf(err, errlen, "stride and degree must be at least 1 (got %llu and %llu)",
                 (unsigned long long)r->stride, (unsigned long long)r->degree);
        return CR_ERR;
    }
    if (r->type != st.type) {
        snprintf(err, errlen, "counters prepared as %s, run asks for %s", at_type_names[st.type],
                 at_type_names[r->type]);
        return CR_ERR;
    }
    uint64_t need;
    if (counters_needed(r, &need, err, errlen) != CR_OK ||
        check_count(need, st.n_counters, "counters", err, errlen) != CR_OK)
        return CR_ERR;
    if (r->op == AT_READ && check_count(r->work_items, st.n_outs, "read sums", err, errlen) != CR_OK)
        return CR_ERR;
    return CR_OK;
}

/* Dynamic shared memory for a local run (at_local_bytes: the slots the
 * kernel touches, stride elements apart, nothing after the last); 0 for
 * global runs. */
static cr_status shared_bytes(const at_run *r, const void *fn, size_t *bytes, char *err, size_t errlen)
{
    *bytes = 0;
    if (r->space != AT_LOCAL)
        return CR_OK;
    const cr_status fits = at_local_fits(r, st.smem_optin, err, errlen);
    if (fits != CR_OK)
        return fits;
    *bytes = (size_t)at_local_bytes(r);
    if (*bytes > st.smem_default)
        CR_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*bytes),
                      "cudaFuncSetAttribute", err, errlen);
    return CR_OK;
}

static cr_status at_run_once(const at_run *r, cr_timing *t, char *err, size_t errlen)
{
    const char *how;
    cr_status s = at_supports(r->op, r->type, r->space, &how, err, errlen);
    if (s != CR_OK)
        return s;
    if (check_run(r, err, errlen) != CR_OK)
        return CR_ERR;
    const void *fn = kernel_for(r->op, r->type, r->space);
    size_t smem;
    s = shared_bytes(r, fn, &smem, err, errlen);
    if (s != CR_OK)
        return s;

    /* The kernel's init parameter has the counter's type; every member of
     * the union starts at its first byte, which is what args points at. */
    union {
        unsigned int u32;
        unsigned long long u64;
        float f32;
    } init;
    memset(&init, 0, sizeof init);
    if (r->type == AT_TYPE_U32)
        init.u32 = (unsigned int)r->init;
    else if (r->type == AT_TYPE_U64)
        init.u64 = (unsigned long long)r->init;
    else
        init.f32 = (float)r->init;
    void *counters = st.counters;
    void *out = st.out;
    unsigned long long stride = r->stride, degree = r->degree;
    unsigned iters = r->iters, inc_limit = 0xFFFFFFFFu;
    void *args[] = {&counters, &out, &stride, &degree, &iters, &init, &inc_limit};
    const dim3 grid((unsigned)(r->work_items / r->work_group)), block((unsigned)r->work_group);

    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    CR_CUDA_CHECK(cudaLaunchKernel(fn, grid, block, args, smem, 0), "kernel launch", err, errlen);
    CR_CUDA_CHECK(cudaGetLastError(), "kernel launch", err, errlen);
    /* A fault inside the kernel surfaces here, at the synchronisation. */
    return cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen);
}

/* CUDA events are timestamped when the device reaches them, not when the
 * host enqueues, so enqueue-to-start has no device-clock measurement here:
 * it comes back as NaN, which the design reports as not available, and the
 * call still succeeds with the round trip. */
static cr_status at_launch_empty(double *enqueue_to_start_s, double *round_trip_s, char *err, size_t errlen)
{
    *enqueue_to_start_s = NAN;
    /* The first launch of a kernel may also load its module; keep that out. */
    if (!st.empty_warm) {
        at_empty<<<1, 1>>>();
        CR_CUDA_CHECK(cudaGetLastError(), "kernel launch", err, errlen);
        CR_CUDA_CHECK(cudaStreamSynchronize(0), "cudaStreamSynchronize", err, errlen);
        st.empty_warm = true;
    }
    const uint64_t t0 = cr_now_ns();
    at_empty<<<1, 1>>>();
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t synced = cudaStreamSynchronize(0);
    const uint64_t t1 = cr_now_ns();
    CR_CUDA_CHECK(launched, "kernel launch", err, errlen);
    CR_CUDA_CHECK(synced, "cudaStreamSynchronize", err, errlen);
    *round_trip_s = (double)(t1 - t0) * 1e-9;
    return CR_OK;
}

static cr_status at_run_lock(at_lock kind, uint64_t groups, uint32_t iters, cr_timing *t, uint64_t *counter, char *err,
                             size_t errlen)
{
    if ((unsigned)kind >= AT_NLOCKS) {
        snprintf(err, errlen, "unknown lock kind %d", (int)kind);
        return CR_ERR;
    }
    if (groups == 0 || groups > INT_MAX) {
        snprintf(err, errlen, "invalid number of work-groups %llu", (unsigned long long)groups);
        return CR_ERR;
    }
    if (st.locks == NULL)
        CR_CUDA_CHECK(cudaMalloc(&st.locks, sizeof(at_lock_words)), "cudaMalloc", err, errlen);
    at_lock_words *w = static_cast<at_lock_words *>(st.locks);
    CR_CUDA_CHECK(cudaMemset(w, 0, sizeof *w), "cudaMemset", err, errlen);
    CR_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, errlen);

    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    if (kind == AT_SPIN_LOCK)
        at_spin_lock<<<(unsigned)groups, 1>>>(w, iters);
    else
        at_ticket_lock<<<(unsigned)groups, 1>>>(w, iters);
    CR_CUDA_CHECK(cudaGetLastError(), "kernel launch", err, errlen);
    if (cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen) != CR_OK)
        return CR_ERR;

    unsigned long long c = 0;
    CR_CUDA_CHECK(cudaMemcpy(&c, &w->counter, sizeof c, cudaMemcpyDeviceToHost), "cudaMemcpy", err, errlen);
    *counter = c;
    return CR_OK;
}

/* Full residency on every SM: the most work-items the device runs at once. */
static void at_geometry(uint64_t *work_items, uint64_t *work_group, uint64_t *max_work_group)
{
    const uint64_t full = st.cu.sms * st.cu.threads_per_sm;
    const uint64_t items = (full + WORK_GROUP - 1) / WORK_GROUP * WORK_GROUP;
    *work_group = WORK_GROUP;
    *work_items = items ? items : WORK_GROUP;
    *max_work_group = st.cu.max_group ? st.cu.max_group : 1024;
}

extern "C" {
extern const at_backend atomics_cuda_backend;
const at_backend atomics_cuda_backend = {
    {"cuda", cr_cuda_list, at_open, at_close}, at_supports, at_prepare, at_upload, at_download, at_download_out,
    at_run_once, at_launch_empty, at_run_lock, at_geometry,
};
}
