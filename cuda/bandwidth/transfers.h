/* The bandwidth paths that run one or more transfers at once, each on its
 * own stream of the device that runs it (transfer_plan.h): host<->device
 * by copy kernels, duplex, peer-to-peer, all-to-one, one-to-all,
 * all-to-host and host-to-all, by copy engines or by copy kernels. One
 * plan is prepared at a time. */
#ifndef CR_CUDA_BW_TRANSFERS_H
#define CR_CUDA_BW_TRANSFERS_H

#include "cuda_device.h"

extern "C" {
#include "transfer_plan.h"
}

/* Allocates each transfer's source (filled with src, bytes long) and
 * destination (zeroed), a stream and an event on its runner, and enables
 * the peer access the plan can use. On failure what was made is left for
 * bw_transfers_release. */
cr_status bw_transfers_prepare(const bw_cuda_transfer *plan, unsigned n, bool kernel, const bw_cuda_topology *t,
                               uint64_t bytes, const void *src, char *err, size_t errlen);

/* One repetition: every transfer at once, timed on the timer's stream
 * `timed` of the benchmark's device from before the first to after the
 * last. */
cr_status bw_transfers_run(cr_cuda_timer *timer, cudaStream_t timed, cr_timing *t, char *err, size_t errlen);

/* Every transfer's destination, one after another, into dst. */
cr_status bw_transfers_result(void *dst, char *err, size_t errlen);

/* Waits for the streams, frees, and disables the peer access prepare
 * enabled; the benchmark's device is current again after. */
void bw_transfers_release(void);

#endif
