/* The index chase, shared verbatim by the OpenCL kernel and the host's
 * walk, so that both walk alike: idx follows next steps times, every load's
 * address computed from the value of the load before, so that nothing
 * overlaps and each step costs one full load latency, plus the address
 * computation: a CPU folds it into the load's scaled-index addressing; in
 * OpenCL 1.2 it stays, because a buffer may move between launches, so no
 * address kept inside one is valid in the next. The CUDA kernel chases
 * addresses instead (address.h). The includer defines LT_U64 (its 64-bit
 * unsigned type). */
#ifndef CR_LATENCY_CHASE_H
#define CR_LATENCY_CHASE_H

#define LT_CHASE(next, idx, steps)                                                                 \
    for (LT_U64 lt_step_ = 0; lt_step_ < (steps); ++lt_step_)                                      \
    (idx) = (next)[(idx)]

/* The most pieces (separate buffers) one chain may be split into: the
 * OpenCL kernel over pieces takes this many buffer arguments. */
#define LT_MAX_PIECES 32

/* The same chase over a chain split into pieces (pieces.h): word idx lies
 * in piece idx >> shift at offset idx & mask, and base(p) is piece p's
 * buffer. The shift, the choice of buffer and the mask lie on the chain of
 * dependent loads, so their cost adds to every step: the design measures
 * it beside the one-buffer walk. */
#define LT_CHASE_PIECES(base, idx, steps, shift, mask)                                             \
    for (LT_U64 lt_step_ = 0; lt_step_ < (steps); ++lt_step_)                                      \
    (idx) = base((idx) >> (shift))[(idx) & (mask)]

#endif
