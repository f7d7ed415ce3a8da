/* The element operations of the stream kernels, written once for the host
 * truth, the host reference and the OpenCL C and CUDA kernels (the OpenCL
 * program gets this file as source). Arrays a, b, c; scalar s; element i. */
#ifndef CR_STREAM_ELEMENTS_H
#define CR_STREAM_ELEMENTS_H

#define STREAM_COPY_AT(a, b, c, s, i) ((c)[i] = (a)[i])
#define STREAM_MUL_AT(a, b, c, s, i) ((b)[i] = (s) * (c)[i])
#define STREAM_ADD_AT(a, b, c, s, i) ((c)[i] = (a)[i] + (b)[i])
#define STREAM_TRIAD_AT(a, b, c, s, i) ((a)[i] = (b)[i] + (s) * (c)[i])
/* One product of dot; how products are summed is each backend's own (see
 * the dot contract in backend.h). */
#define STREAM_DOT_AT(a, b, i) ((a)[i] * (b)[i])

#endif
