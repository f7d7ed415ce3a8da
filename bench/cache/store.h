/* The store pass, one loop shared by the OpenCL C and the CUDA kernel: one
 * work-item writes value to word first + i * stride of buf, i < count,
 * passes times over. buf is a pointer to volatile words, so that no pass
 * is dropped as overwritten by the next: the point is the stores' cost.
 * The includer defines CC_U64 (its 64-bit unsigned type). */
#ifndef CR_CACHE_STORE_H
#define CR_CACHE_STORE_H

#define CC_STORE_LOOP(buf, first, count, stride, passes, value)                                    \
    for (CC_U64 cc_pass_ = 0; cc_pass_ < (passes); ++cc_pass_)                                     \
        for (CC_U64 cc_i_ = 0; cc_i_ < (count); ++cc_i_)                                           \
    (buf)[(first) + cc_i_ * (stride)] = (value)

#endif
