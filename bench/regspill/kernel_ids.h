/* How many work-items the CUDA kernel can tell apart. Its id is 32-bit
 * (cuda/regspill/kernels.cu): a 64-bit one, for the slot in out, holds two
 * more registers across the measured loop (ptxas: 8 -> 10 at 2 live
 * values, 133 -> 135 at 128), which is the very thing the benchmark
 * measures. So launches are held to the ids it has instead: beyond 2^32
 * threads two of them would share a slot. */
#ifndef CR_REGSPILL_KERNEL_IDS_H
#define CR_REGSPILL_KERNEL_IDS_H

#include "cr.h"

#include <stddef.h>
#include <stdint.h>

#define REGSPILL_CUDA_MAX_WORK_ITEMS (UINT64_C(1) << 32)

/* CR_OK when every one of work_items threads has an id of its own;
 * otherwise CR_ERR with a one-line reason. */
cr_status regspill_check_cuda_ids(uint64_t work_items, char *err, size_t errlen);

#endif
