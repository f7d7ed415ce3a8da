/* A chain whose words hold the addresses of their targets rather than
 * word indices: a backend with pointers to global memory (CUDA) chases
 * them, each load's address being the value the load before returned, with
 * no index arithmetic on the dependent path (an index costs a multiply or
 * shift and an add per step, which would count as latency). The design
 * speaks in words; these convert at the edges, outside the timed walk. */
#ifndef CR_LATENCY_ADDRESS_H
#define CR_LATENCY_ADDRESS_H

#include <stdbool.h>
#include <stdint.h>

/* The address of word `word` of a chain of 64-bit words at address `base`.
 * A macro, so that device code that turns indices into addresses computes
 * exactly what the host expects. */
#define LT_WORD_ADDRESS(base, word) ((base) + (word) * 8u)

/* The word at `address` of a chain of `words` 64-bit words at `base`:
 * true, *word set, where address is the start of one of its words; false
 * for any other address (outside the chain, or inside a word), where no
 * correct walk can end. */
static inline bool lt_word_of_address(uint64_t address, uint64_t base, uint64_t words, uint64_t *word)
{
    if (address < base || (address - base) % 8 != 0 || (address - base) / 8 >= words)
        return false;
    *word = (address - base) / 8;
    return true;
}

#endif
