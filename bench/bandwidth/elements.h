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

#endif
