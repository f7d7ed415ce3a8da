/* One row of Polybench's gesummv, written once for the OpenCL C and CUDA
 * kernels and the host's check of them (the OpenCL program gets this file
 * as source): y[i] = alpha * sum_j A[i][j] x[j] + beta * sum_j B[i][j] x[j],
 * A and B n x n, row-major. T is the element type, IDX an unsigned 64-bit
 * index type of the language. The two sums run over j in order, each
 * product added as it comes: on a GPU the rows a warp reads at one j are n
 * elements apart, and each work-item uses its own cache lines of A and B
 * again over the next iterations (the reuse a cache holds or thrashes). */
#ifndef CR_GESUMMV_ROW_H
#define CR_GESUMMV_ROW_H

#define GESUMMV_ROW(T, IDX, A, B, x, y, n, i, alpha, beta)                                                           \
    do {                                                                                                             \
        T tmp_ = 0, acc_ = 0;                                                                                        \
        for (IDX j_ = 0; j_ < (n); ++j_) {                                                                           \
            tmp_ += (A)[(i) * (n) + j_] * (x)[j_];                                                                   \
            acc_ += (B)[(i) * (n) + j_] * (x)[j_];                                                                   \
        }                                                                                                            \
        (y)[i] = (alpha) * tmp_ + (beta) * acc_;                                                                     \
    } while (0)

#endif
