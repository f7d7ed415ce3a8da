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

/* The local-memory stream (the kernel-local-memory path). A work-group of
 * BW_LOCAL_GROUP work-items holds a tile of BW_LOCAL_TILE_BYTES of the
 * buffer in each of two halves of its local memory, as elements of a
 * vector of v 32-bit words: BW_LOCAL_LOADS(v) rows of BW_LOCAL_GROUP
 * elements. It loads its tile into one half, then runs BW_LOCAL_ROUNDS
 * rounds, each a barrier apart: in a round work-item l loads the element
 * of column l of every row of one half and stores it into the other half
 * at BW_LOCAL_TO, the next row and the mirrored column, so that every
 * value crosses to another work-item each round and no compiler can keep
 * it in registers across the barrier. It stores the last half it wrote.
 * Per barrier a work-item so makes BW_LOCAL_LOADS(v) loads and as many
 * stores of v words, BW_LOCAL_ITEM_BYTES each way whatever the width:
 * enough to keep the local memory busy while the barrier drains. Within
 * one access, neighbouring work-items touch neighbouring elements, the
 * mirrored columns too: a contiguous run of words, which no bank serves
 * twice for accesses up to 16 bytes (4 words), the widest a GPU's local
 * memory serves at once. After n rounds an element has moved n rows on
 * and, n odd, to the mirrored column: the 255 rounds leave none where it
 * started (the group's columns are even in number, none is its own
 * mirror), and they make the tile's global load and store 1/255 of its
 * local traffic. */
#define BW_LOCAL_GROUP 64u
#define BW_LOCAL_ITEM_BYTES 128u
#define BW_LOCAL_TILE_BYTES (BW_LOCAL_GROUP * BW_LOCAL_ITEM_BYTES)
#define BW_LOCAL_ROUNDS 255u
#define BW_LOCAL_LOADS(v) (BW_LOCAL_ITEM_BYTES / 4u / (v))
/* Where a round stores the element it loaded from row k, column l, of a
 * half of loads rows: an element index within the other half. */
#define BW_LOCAL_TO(k, l, loads) ((((k) + 1u) % (loads)) * BW_LOCAL_GROUP + (BW_LOCAL_GROUP - 1u - (l)))

#endif
