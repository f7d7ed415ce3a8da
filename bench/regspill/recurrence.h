/* The register-pressure kernel's arithmetic, shared verbatim by the OpenCL
 * kernel, the CUDA kernel and the host's verification so that all three
 * compute bit-identical results.
 *
 * A work-item holds RS_LIVE 32-bit values. Every round updates each value
 * from itself and its neighbour (the last one from the already-updated
 * first), so all RS_LIVE values stay live across the whole loop: none can be
 * dropped, merged or recomputed cheaply, and a compiler that runs out of
 * registers has to spill. Unsigned arithmetic wraps, so the result is exact
 * on every device and the host can check every work-item bit for bit.
 *
 * The includer defines RS_UINT (its 32-bit unsigned type). */
#ifndef CR_REGSPILL_RECURRENCE_H
#define CR_REGSPILL_RECURRENCE_H

/* The seeds use odd multipliers, a bijection modulo 2^32, so no two
 * values start equal. A step is three cheap integer operations (xor,
 * rotate, add): cheap enough that reloading a spilled value costs more than
 * updating it, so spills show in the throughput, and mixed enough (add
 * against xor) that no compiler can fold rounds together. */
#define RS_SEED_GID 0x9E3779B9u
#define RS_SEED_IDX 0x85EBCA6Bu
#define RS_ADD 0x2545F491u
#define RS_FOLD 31u

#define RS_SEED(gid, i) ((((RS_UINT)(gid)) * RS_SEED_GID) ^ (((RS_UINT)(i) + 1u) * RS_SEED_IDX))
#define RS_ROTL7(x) (((x) << 7) | ((x) >> 25))
#define RS_STEP(self, next) (RS_ROTL7((self) ^ (next)) + RS_ADD)

/* Operations counted per value update: xor, rotate, add. */
#define RS_OPS_PER_UPDATE 3

#endif
