/* Who touches which counter, with which operand: shared verbatim by the
 * OpenCL kernels, the CUDA kernels, the host's C11 reference and the
 * verification, so that all agree on every address and value.
 *
 * Work-items are taken in consecutive runs of `degree`; each run shares
 * one counter (slot g / degree), and slot k lives at element k * stride.
 * degree 1 is the uncontended case (every work-item its own counter),
 * degree = all work-items the single contended address; 1..32 inside a
 * warp or sub-group are Samadi's conflicts per warp. In local (shared)
 * memory the slot comes from the local id, so every work-group has its own
 * counters. The includer defines AT_U32 (its 32-bit unsigned type). */
#ifndef CR_ATOMICS_PATTERN_H
#define CR_ATOMICS_PATTERN_H

#define AT_SLOT(id, degree) ((id) / (degree))
#define AT_INDEX(slot, stride) ((slot) * (stride))

/* add, cmpxchg-loop add and float add: 1..4, so sums differ per work-item
 * and a lost update always shows. */
#define AT_ADD_VALUE(g) ((AT_U32)(((AT_U32)(g) & 3u) + 1u))
/* xchg: the work-item's own mark, never the initial 0. */
#define AT_XCHG_VALUE(g) ((AT_U32)((AT_U32)(g) + 1u))
/* min and max: a different value for every work-item and operation. */
#define AT_MINMAX_VALUE(g, j) ((AT_U32)((((AT_U32)(g) * 0x9E3779B1u) ^ ((AT_U32)(j) * 0x85EBCA77u)) >> 1))
/* The initial value of every counter: the identity of min and max, and a
 * marker for the atomic read (add 0), which must read it back unchanged. */
#define AT_INIT_MIN 0xFFFFFFFFu
#define AT_INIT_READ 0x5A5A5A5Au

#endif
