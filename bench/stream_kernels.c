#include "stream.h"

/* Bytes moved per kernel follow STREAM's convention: every array read or
 * written counts once; write-allocate traffic is not counted. */
const stream_kernel_desc stream_kernels[STREAM_NKERNELS] = {
    [STREAM_COPY] = {"copy", 2, STREAM_C},
    [STREAM_MUL] = {"mul", 2, STREAM_B},
    [STREAM_ADD] = {"add", 3, STREAM_C},
    [STREAM_TRIAD] = {"triad", 3, STREAM_A},
    [STREAM_DOT] = {"dot", 2, STREAM_A},
};
