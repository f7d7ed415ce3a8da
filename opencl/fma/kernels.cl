/* FMA chains (bench/fma/backend.h), after bench/fma/chain.h: kernels
 * fma_chains_1 .. fma_chains_8, one per chain count E, built once per
 * type with
 *   -DFMA_DOUBLE=0|1   float, or double (needs cl_khr_fp64)
 *   -DFMA_LANES=L      copies per work-item as one vector (1, 2, 4, 8, 16)
 *   -DFMA_SYNC=0|1     a work-group barrier before every segment of steps
 *
 * Work-item g of n runs E chains; chain j starts from the L values at
 * vector index j * n + g of seeds, takes `iters` steps x = fma(x, a, b) and
 * is stored at the same index of out.
 *
 * The chains are separate variables, each with its own step, so each is a
 * dependency chain that neither the compiler nor the hardware can shorten
 * (a and b are run-time arguments, the seeds come from memory): E of them
 * are the instruction-level parallelism a work-item offers.
 *
 * CPU devices (PoCL) need the other two options. PoCL runs the work-items
 * of a group one after another on one thread, and it does not spread them
 * over SIMD lanes when the kernel has a loop of its own; instead its
 * vectoriser packs the E scalar chains of one work-item into one vector,
 * which turns E independent chains into a single one. A vector per chain
 * (L lanes) keeps every chain a chain and fills the SIMD unit; a barrier
 * per segment makes the compiler run each segment for every work-item of
 * the group before the next one, so the work-items of a group are in
 * flight together, as warps are on a GPU, and more of them per compute unit
 * means more independent chains for the out-of-order core to overlap. The
 * price is a load and a store of every chain per work-item and segment, as
 * the runtime keeps each work-item's values in memory between segments.
 * A segment is 32·E steps: with one chain, 32 dependent steps per
 * work-item are few enough for the core to overlap the segments of several
 * work-items (which is what makes concurrency hide latency here); with
 * more chains, each work-item has parallelism of its own, and the longer
 * segment makes the load and store a smaller part of it. */
#if FMA_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define FMA_S double
#else
#define FMA_S float
#endif

#define FMA_PASTE_(a, b) a##b
#define FMA_PASTE(a, b) FMA_PASTE_(a, b)
#if FMA_LANES == 1
typedef FMA_S T;
#define FMA_LOAD_AT(i) seeds[i]
#define FMA_STORE_AT(v, i) out[i] = (v)
#else
typedef FMA_PASTE(FMA_S, FMA_LANES) T;
#define FMA_LOAD_AT(i) FMA_PASTE(vload, FMA_LANES)((i), seeds)
#define FMA_STORE_AT(v, i) FMA_PASTE(vstore, FMA_LANES)((v), (i), out)
#endif

#if FMA_SYNC
#define FMA_SEGMENT_START barrier(CLK_LOCAL_MEM_FENCE);
#else
#define FMA_SEGMENT_START
#endif

#define FMA_FUSED fma
#define FMA_LOAD(j) T x##j = FMA_LOAD_AT(FMA_CHAIN_AT(j, g, n));
#define FMA_STEP(j) FMA_CHAIN_STEP(x##j, av, bv);
#define FMA_STORE(j) FMA_STORE_AT(x##j, FMA_CHAIN_AT(j, g, n));

/* The chains of E = 1..8 as lists of chain indices. */
#define FMA_EACH_1(M) M(0)
#define FMA_EACH_2(M) FMA_EACH_1(M) M(1)
#define FMA_EACH_3(M) FMA_EACH_2(M) M(2)
#define FMA_EACH_4(M) FMA_EACH_3(M) M(3)
#define FMA_EACH_5(M) FMA_EACH_4(M) M(4)
#define FMA_EACH_6(M) FMA_EACH_5(M) M(5)
#define FMA_EACH_7(M) FMA_EACH_6(M) M(6)
#define FMA_EACH_8(M) FMA_EACH_7(M) M(7)

/* A segment is E blocks of 32 steps of every chain, each block written out
 * so that the loop's counter and branch are a small part of it whatever the
 * compiler unrolls; the last iters % (32·E) steps run one at a time. */
#define FMA_SEGMENT_STEPS 32u
#define FMA_STEPS_4(E) FMA_EACH_##E(FMA_STEP) FMA_EACH_##E(FMA_STEP) FMA_EACH_##E(FMA_STEP) FMA_EACH_##E(FMA_STEP)
#define FMA_STEPS_32(E)                                                                                       \
    FMA_STEPS_4(E) FMA_STEPS_4(E) FMA_STEPS_4(E) FMA_STEPS_4(E) FMA_STEPS_4(E) FMA_STEPS_4(E) FMA_STEPS_4(E) \
        FMA_STEPS_4(E)

#define FMA_KERNEL(E)                                                                                         \
    __kernel void fma_chains_##E(__global const FMA_S *restrict seeds, __global FMA_S *restrict out, FMA_S a, \
                                 FMA_S b, uint iters)                                                        \
    {                                                                                                       \
        const size_t g = get_global_id(0), n = get_global_size(0);                                          \
        const T av = (T)a, bv = (T)b;                                                                       \
        FMA_EACH_##E(FMA_LOAD)                                                                              \
        const uint segments = iters / (E * FMA_SEGMENT_STEPS);                                              \
        for (uint s = 0; s < segments; ++s) {                                                               \
            FMA_SEGMENT_START                                                                               \
            for (uint r = 0; r < E; ++r) {                                                                  \
                FMA_STEPS_32(E)                                                                             \
            }                                                                                               \
        }                                                                                                   \
        for (uint i = segments * E * FMA_SEGMENT_STEPS; i < iters; ++i) {                                   \
            FMA_EACH_##E(FMA_STEP)                                                                          \
        }                                                                                                   \
        FMA_EACH_##E(FMA_STORE)                                                                             \
    }

FMA_KERNEL(1)
FMA_KERNEL(2)
FMA_KERNEL(3)
FMA_KERNEL(4)
FMA_KERNEL(5)
FMA_KERNEL(6)
FMA_KERNEL(7)
FMA_KERNEL(8)
