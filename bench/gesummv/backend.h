/* The gesummv benchmark's backend contract. The experiment design
 * (design.c) owns what is swept, verified and written; a backend only
 * allocates the arrays, launches the kernel with the work-items it is given
 * and reports its timing. The kernel is blocking: run() returns after
 * completion.
 *
 * Kernel (Polybench gesummv, row.h): y = alpha*A*x + beta*B*x, A and B
 * n x n row-major, x and y n elements, of one type. Exactly work_items
 * work-items run, in groups of work_group; work-item g computes the rows
 * g, g + work_items, g + 2*work_items, ... below n, each in full, its two
 * sums over j in order (row.h). Every element of y is written, and nothing
 * else. */
#ifndef CR_GESUMMV_BACKEND_H
#define CR_GESUMMV_BACKEND_H

#include "bench_main.h"
#include "cr.h"
#include "device.h"
#include "gesummv/row.h" /* the kernel's row */
#include "timer.h"

#include <stdint.h>

typedef enum { GESUMMV_A, GESUMMV_B, GESUMMV_X, GESUMMV_Y, GESUMMV_NARRAYS } gesummv_array;

/* Polybench's scalars, 1.5 and 1.2, the second taken as 1.25 so that float
 * and double hold both exactly and the host checks with the kernel's own. */
#define GESUMMV_ALPHA 1.5
#define GESUMMV_BETA 1.25

typedef struct {
    cr_backend_base base;
    /* Allocates A, B (n*n elements) and x, y (n) of type t, replacing earlier ones. */
    cr_status (*prepare)(cr_dtype t, uint64_t n, char *err, size_t errlen);
    /* Copies a whole array from the host, or (download) to it. */
    cr_status (*upload)(gesummv_array which, const void *src, char *err, size_t errlen);
    cr_status (*download)(gesummv_array which, void *dst, char *err, size_t errlen);
    /* Runs the kernel with exactly work_items work-items in groups of work_group. */
    cr_status (*run)(uint64_t work_items, uint64_t work_group, double alpha, double beta, cr_timing *t, char *err,
                     size_t errlen);
    /* The work-group size for a launch of work_items (one dividing it). */
    uint64_t (*work_group_for)(uint64_t work_items);
} gesummv_backend;

/* The elements of array which at order n. */
static inline uint64_t gesummv_elements(gesummv_array which, uint64_t n)
{
    return which == GESUMMV_A || which == GESUMMV_B ? n * n : n;
}

/* Entry point shared by every gesummv executable. */
int gesummv_main(int argc, char **argv, const gesummv_backend *device_backend);

#endif
