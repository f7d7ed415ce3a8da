/* The pointer chase, shared verbatim by the OpenCL kernel, the CUDA kernel
 * and the host's walk, so that all three walk alike: idx follows next
 * steps times, every load's address being the value of the load before, so
 * that nothing overlaps and each step costs one full load latency. The
 * includer defines LT_U64 (its 64-bit unsigned type). */
#ifndef CR_LATENCY_CHASE_H
#define CR_LATENCY_CHASE_H

#define LT_CHASE(next, idx, steps)                                                                 \
    for (LT_U64 lt_step_ = 0; lt_step_ < (steps); ++lt_step_)                                      \
    (idx) = (next)[(idx)]

#endif
