/* The partition kernels of the SFU benchmark (Li's fast/precise
 * partition): the precise and the inline-PTX version of a function in one
 * kernel, compiled with -ftz=false as those are (see kernel_list.h); their
 * functions in funcs.cuh. */
#include "sfu/funcs.cuh"

#define SFU_FUNC_PARTITION(e, func, T, precise_expr, ptx_expr)                                                     \
    SFU_PARTITION_KERNELS(func, T)                                                                                 \
    SFU_LIST_ENTRY(partition, func, T)
SFU_CUDA_FUNCS(SFU_FUNC_PARTITION)

#define SFU_PARTITION_CASE(e, func, T, p, q) SFU_LIST_CASE(e, partition, func, T)

extern "C" const sfu_kernel_list_entry *sfu_kernel_list_partition(sfu_func f, cr_dtype t)
{
    SFU_CUDA_FUNCS(SFU_PARTITION_CASE)
    return NULL;
}
