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
