/* How work-items share n elements, for every kernel of the suite. Built with
 * -DCONTIGUOUS=0|1. CONTIGUOUS=1 gives each work-item one contiguous slice
 * (CPU devices: one hardware thread streams through memory); CONTIGUOUS=0
 * makes neighbouring work-items touch neighbouring elements (GPUs:
 * coalescing). Either way exactly get_global_size(0) work-items cover all n
 * elements. */
#if CONTIGUOUS
#define FOR_EACH(i, n)                                                                  \
    const ulong per_ = ((n) + get_global_size(0) - 1) / get_global_size(0);             \
    const ulong beg_ = min((ulong)get_global_id(0) * per_, (ulong)(n));                 \
    const ulong end_ = min(beg_ + per_, (ulong)(n));                                    \
    for (ulong i = beg_; i < end_; ++i)
#else
#define FOR_EACH(i, n) for (ulong i = get_global_id(0); i < (n); i += get_global_size(0))
#endif

/* Sums value over the work-group through local scratch (one element per
 * work-item; any group size, not only powers of two) and has work-item 0
 * store the sum in out. Every work-item must reach it: it has barriers. */
#define GROUP_SUM_TO(scratch, value, out)                                               \
    do {                                                                                \
        const uint lid_ = get_local_id(0), lsize_ = get_local_size(0);                  \
        scratch[lid_] = (value);                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        for (uint stride_ = 1; stride_ < lsize_; stride_ *= 2) {                        \
            if (lid_ % (2 * stride_) == 0 && lid_ + stride_ < lsize_)                   \
                scratch[lid_] += scratch[lid_ + stride_];                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                               \
        }                                                                               \
        if (lid_ == 0)                                                                  \
            (out) = scratch[0];                                                         \
    } while (0)
