#include "regspill/kernel_ids.h"

#include <stdio.h>

cr_status regspill_check_cuda_ids(uint64_t work_items, char *err, size_t errlen)
{
    if (work_items <= REGSPILL_CUDA_MAX_WORK_ITEMS)
        return CR_OK;
    snprintf(err, errlen, "%llu work-items: the CUDA kernel numbers at most %llu (a 32-bit id)",
             (unsigned long long)work_items, (unsigned long long)REGSPILL_CUDA_MAX_WORK_ITEMS);
    return CR_ERR;
}
