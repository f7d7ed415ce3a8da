/* The precise and the inline-PTX kernels of the SFU benchmark, compiled
 * with -ftz=false (see kernel_list.h); their functions in funcs.cuh. */
#include "sfu/funcs.cuh"

/* The kernels of both versions of a function and their list entries. */
#define SFU_FUNC_KERNELS(e, func, T, precise_expr, ptx_expr)                                                       \
    SFU_KERNELS(precise, func, T)                                                                                  \
    SFU_KERNELS(ptx, func, T)                                                                                      \
    SFU_LIST_ENTRY(precise, func, T)                                                                               \
    SFU_LIST_ENTRY(ptx, func, T)
SFU_CUDA_FUNCS(SFU_FUNC_KERNELS)

#define SFU_PRECISE_CASE(e, func, T, p, q) SFU_LIST_CASE(e, precise, func, T)
#define SFU_PTX_CASE(e, func, T, p, q) SFU_LIST_CASE(e, ptx, func, T)

extern "C" const sfu_kernel_list_entry *sfu_kernel_list_plain(sfu_func f, cr_dtype t, sfu_version v)
{
    if (v == SFU_PRECISE) {
        SFU_CUDA_FUNCS(SFU_PRECISE_CASE)
    } else if (v == SFU_PTX_APPROX) {
        SFU_CUDA_FUNCS(SFU_PTX_CASE)
    }
    return NULL;
}
