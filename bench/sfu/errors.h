/* The SFU benchmark's error measurements (errors.c): every version of a
 * function against the correctly rounded value over sampled inputs, special
 * values and flush-to-zero, and the error of f on the chain domain that the
 * timed runs' checks are bounded by. */
#ifndef CR_SFU_ERRORS_H
#define CR_SFU_ERRORS_H

#include "sfu/state.h"

/* Draws the typical-domain inputs of the current function and type and
 * computes their exact values; forgets what the previous one measured. */
void sfu_prepare_function(sfu_state *s);

/* The accuracy rows of version v (typical and wide domains), filling its
 * summary entry, computed by its throughput row's chain kernel
 * (sfu_accuracy_chain). Returns 0, or -1 when the CSV cannot be written. */
int sfu_accuracy_rows(sfu_state *s, sfu_version v);

/* The special-value and flush-to-zero row of version v, with the same code. */
int sfu_special_row(sfu_state *s, sfu_version v);

/* The largest |f_dev - f| of version v's chain kernel of like's ILP and
 * work-group on the chain domain, measured once per version and geometry;
 * NaN with err set when the evaluation failed. It runs a chain: the
 * prepared one and its results are gone. */
double sfu_chain_error(sfu_state *s, sfu_version v, const sfu_chain *like, char *err, size_t errlen);

#endif
