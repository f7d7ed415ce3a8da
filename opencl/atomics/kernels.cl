/* Atomics kernels (bench/atomics/backend.h): one kernel per operation and
 * memory space, built once per counter type after bench/atomics/pattern.h
 * (every address and operand, shared with the CUDA kernels and the host)
 * with -DAT_TYPE=0 (uint), 1 (ulong) or 2 (float, add only). OpenCL 1.2
 * atomics, relaxed, as every OpenCL 1.2 device has them; 64-bit ones from
 * cl_khr_int64_base_atomics and _extended_atomics. The operations differ
 * from the CUDA kernels' on purpose, each API's own instruction being what
 * is measured: inc is atomic_inc here, CUDA's atomicInc there, and float
 * add a compare-and-swap loop here (OpenCL 1.2 has no float atomic) where
 * CUDA adds natively. */
#define AT_U32 uint
/* Some runtimes (PoCL) define min and max as object-like macros, which
 * would rename the at_min_* and at_max_* kernels; these kernels call
 * neither built-in. */
#undef min
#undef max

#if AT_TYPE == 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
typedef ulong T;
#define A_ADD atom_add
#define A_INC atom_inc
#define A_XCHG atom_xchg
#define A_CMPXCHG atom_cmpxchg
#define A_MIN atom_min
#define A_MAX atom_max
#else
typedef uint T;
#define A_ADD atomic_add
#define A_INC atomic_inc
#define A_XCHG atomic_xchg
#define A_CMPXCHG atomic_cmpxchg
#define A_MIN atomic_min
#define A_MAX atomic_max
#endif

/* The operations on a counter p, by work-item g at step j; acc collects
 * what the atomic read returns. */
#define OP_add A_ADD(p, (T)AT_ADD_VALUE(g))
#define OP_inc A_INC(p)
#define OP_xchg A_XCHG(p, (T)AT_XCHG_VALUE(g))
#define OP_cas                                                                                     \
    {                                                                                              \
        const T v = AT_ADD_VALUE(g);                                                               \
        T old = *p; T seen;                                                                        \
        while ((seen = A_CMPXCHG(p, old, old + v)) != old)                                         \
            old = seen;                                                                            \
    }
#define OP_min A_MIN(p, (T)AT_MINMAX_VALUE(g, j))
#define OP_max A_MAX(p, (T)AT_MINMAX_VALUE(g, j))
/* The 0 comes from an argument: a literal 0 lets a compiler prove the add
 * idempotent and replace it by a fenced plain load (LLVM does on x86),
 * which is not the atomic read being measured. */
#define OP_read acc += A_ADD(p, zero)
/* Float add without a float atomic: a compare-and-swap loop on the bits. */
#define OP_fadd                                                                                    \
    {                                                                                              \
        const float v = (float)AT_ADD_VALUE(g);                                                    \
        uint old = *p; uint seen;                                                                  \
        while ((seen = atomic_cmpxchg(p, old, as_uint(as_float(old) + v))) != old)                 \
            old = seen;                                                                            \
    }

#define GLOBAL_KERNEL(NAME, OP)                                                                    \
    __kernel void at_##NAME##_global(__global T *counters, __global ulong *out, ulong stride,      \
                                     ulong degree, uint iters, T init, T zero)                     \
    {                                                                                              \
        const ulong g = get_global_id(0);                                                          \
        volatile __global T *p = counters + AT_INDEX(AT_SLOT(g, degree), stride);                  \
        T acc = 0;                                                                                 \
        for (uint j = 0; j < iters; ++j)                                                           \
            OP;                                                                                    \
        out[g] = acc;                                                                              \
        (void)init, (void)zero;                                                                    \
    }

/* Local counters start at init, and each slot's first work-item writes the
 * result out, packed per group. */
#define LOCAL_KERNEL(NAME, OP)                                                                     \
    __kernel void at_##NAME##_local(__global T *counters, __global ulong *out, ulong stride,       \
                                    ulong degree, uint iters, T init, T zero,                      \
                                    __local T *local_counters)                                     \
    {                                                                                              \
        const ulong g = get_global_id(0), lid = get_local_id(0), wg = get_local_size(0);           \
        const ulong slots = (wg + degree - 1) / degree, span = (slots - 1) * stride + 1;           \
        for (ulong e = lid; e < span; e += wg)                                                     \
            local_counters[e] = init;                                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        volatile __local T *p = local_counters + AT_INDEX(AT_SLOT(lid, degree), stride);           \
        T acc = 0;                                                                                 \
        for (uint j = 0; j < iters; ++j)                                                           \
            OP;                                                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        if (lid % degree == 0)                                                                     \
            counters[get_group_id(0) * slots + lid / degree] = *p;                                 \
        out[g] = acc;                                                                              \
        (void)zero;                                                                                \
    }

#define BOTH(NAME, OP) GLOBAL_KERNEL(NAME, OP) LOCAL_KERNEL(NAME, OP)

#if AT_TYPE == 2
BOTH(add, OP_fadd) /* float counters, handled as their bits (T is uint) */
#else
BOTH(add, OP_add)
BOTH(inc, OP_inc)
BOTH(xchg, OP_xchg)
BOTH(cas, OP_cas)
BOTH(min, OP_min)
BOTH(max, OP_max)
BOTH(read, OP_read)
#endif

#if AT_TYPE == 0
__kernel void at_empty(void) {}

/* Lee's spin lock and fetch-and-add (ticket) lock, taken by the one
 * work-item of each group; the fences keep the plain counter's update
 * inside the critical section. */
__kernel void at_spin_lock(volatile __global uint *lock, volatile __global uint *unused,
                           volatile __global ulong *counter, uint iters)
{
    (void)unused;
    for (uint j = 0; j < iters; ++j) {
        while (atomic_xchg(lock, 1u) != 0u)
            ;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *counter += 1;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_xchg(lock, 0u);
    }
}

__kernel void at_ticket_lock(volatile __global uint *next, volatile __global uint *serving,
                             volatile __global ulong *counter, uint iters)
{
    for (uint j = 0; j < iters; ++j) {
        const uint mine = atomic_inc(next);
        while (atomic_add(serving, 0u) != mine)
            ;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *counter += 1;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_inc(serving);
    }
}
#endif
