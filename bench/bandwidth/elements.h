/* The element operations of the bandwidth kernels, written once for the
 * OpenCL C and CUDA kernels, the host reference and the verification (the
 * OpenCL program gets this file as source), so that all agree on every
 * word. The includer defines BW_U32 and BW_U64 (its 32- and 64-bit
 * unsigned types). */
#ifndef CR_BANDWIDTH_ELEMENTS_H
#define CR_BANDWIDTH_ELEMENTS_H

/* The word a write kernel stores at 32-bit index i, with seed the low 32
 * bits of the transfer size: a multiplicative hash with a shift, so that
 * neighbouring words share no simple pattern a memory system could
 * compress, yet cheap enough (32-bit multiply) not to bound a write kernel. */
#define BW_PATTERN_MIX(x) ((x) ^ ((x) >> 15))
#define BW_PATTERN_WORD(i, seed) ((BW_U32)(BW_PATTERN_MIX((BW_U32)(i) * 0x9E3779B1u) ^ (BW_U32)(seed)))

/* What a read kernel adds up of one uint4: its four words, mod 2^64, so the
 * loads stay live and the host can check the sum. */
#define BW_WORD_SUM4(v) ((BW_U64)(v).x + (v).y + (v).z + (v).w)

/* The local-memory stream: a work-group of BW_LOCAL_TILE work-items loads
 * one word each into a local tile (zero past the end of the buffer), then
 * in each of BW_LOCAL_ROUNDS rounds every work-item l reads the word of
 * work-item BW_LOCAL_SOURCE(l) and, after a barrier, writes it as its own:
 * a rotation by BW_LOCAL_SHIFT per round, each a real local load and store
 * that no compiler can fold across the barriers. 64 rounds move 512 bytes
 * of local memory per word against 8 of global (its load and store): on
 * an H200 the global traffic is then about 7% of the kernel's time (16
 * rounds left it near 25%), and the default sweep still costs what a
 * kernel read's does, its time per point being the repetitions' floor.
 * After all rounds word l holds the tile's word l + ROUNDS * SHIFT (mod
 * the tile), 64 words away: an unrotated copy fails verification. */
#define BW_LOCAL_TILE 256u
#define BW_LOCAL_ROUNDS 64u
#define BW_LOCAL_SHIFT 1u
#define BW_LOCAL_SOURCE(l) (((l) + BW_LOCAL_SHIFT) % BW_LOCAL_TILE)
/* The local memory of a work-group: two tiles of 32-bit words. */
#define BW_LOCAL_TILES_BYTES (2 * BW_LOCAL_TILE * 4)

#endif
