/* The step of the SFU benchmark's chains (sfu/backend.h), shared verbatim by
 * the OpenCL kernels, the CUDA kernels and the host's replay (truth.c), so
 * that all three iterate the same map: x <- a*f(x, y) + b, then s += x.
 * fx is f of the chain's current x; it is evaluated once. Plain C
 * expressions only: OpenCL C, CUDA C++ and C include it alike. */
#ifndef CR_SFU_CHAIN_H
#define CR_SFU_CHAIN_H

#define SFU_CHAIN_STEP(x, s, fx, a, b) ((x) = (a) * (fx) + (b), (s) += (x))

/* The bits of the y that the kernels hand f in iteration i: y's own bits
 * (ybits, an unsigned integer of y's width, UWORD) with those of
 * (i & zero) set from bit `shift` on. zero is a kernel argument that the
 * host always sets to 0, so the value is y itself, bit for bit, and the
 * host replays the map with y fixed; but a compiler, which cannot know
 * zero, must take y as new in every iteration, and cannot compute what
 * depends on y alone (the reciprocal of x/y, the checks of pow's
 * exponent) once before the loop and time a multiply instead. shift puts
 * the mask into the word the SFU reads: 0 for a float, 32 for a double,
 * whose SFU reciprocal and reciprocal square root read only the high word.
 * The mask is off the chain's dependence path (it depends on i, not x),
 * so latency is unchanged; it costs one logic instruction per binary call
 * (with the iteration's own i + k where the loop is unrolled, shared by
 * the ILP chains), and nothing for unary functions, whose f ignores y. */
#define SFU_CHAIN_FRESH_BITS(ybits, UWORD, i, zero, shift) ((ybits) | ((UWORD)((i) & (zero)) << (shift)))

#endif
