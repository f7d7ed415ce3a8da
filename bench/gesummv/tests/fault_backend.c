/* The gesummv backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/gesummv-opencl.
 * CROSSROOF_FAULT names the fault; each spoils a y read back at its middle
 * row, verify and unwritten the first, drop every one:
 *   verify     the row holds the row before it (a work-item that wrote
 *              the wrong row)
 *   unwritten  the row holds what y held there before the launch: what
 *              the design last uploaded into y, else the earlier launches'
 *              output (a row no work-item wrote; only a y filled before
 *              the checked launch tells it from a row written right)
 *   drop       every launch leaves out one product of the middle row's
 *              sum over A, the column of the smallest product when y is
 *              first read back (on the random contents; in a long float
 *              row below the rounding bound): a kernel that skips that one
 *              product of A times x, alpha the design's (backend.h),
 *              whatever A and x hold */
#include "gesummv/backend.h"

#include "tests/planted_fault.h"

#include <math.h>
#include <stdlib.h>

enum { VERIFY, UNWRITTEN, DROP };
CR_FAULT_DECORATOR(gesummv_backend, "verify", "unwritten", "drop");
static cr_dtype dtype;
static uint64_t rows;
static bool y_uploaded;  /* since the last read of y */
static double y_mid;     /* the middle row as uploaded */
static double *a_mid, *x_now; /* A's middle row and x as last uploaded (drop) */
static uint64_t drop_j;       /* the column left out */

static cr_status prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    dtype = t;
    rows = n;
    free(a_mid), free(x_now);
    a_mid = calloc(n, sizeof *a_mid);
    x_now = calloc(n, sizeof *x_now);
    if (!a_mid || !x_now) {
        snprintf(err, errlen, "fault decorator: out of memory");
        return CR_ERR;
    }
    return inner->prepare(t, n, err, errlen);
}

static void set_row(void *y, uint64_t i, double v)
{
    if (dtype == CR_DOUBLE)
        ((double *)y)[i] = v;
    else
        ((float *)y)[i] = (float)v;
}

static double row(const void *y, uint64_t i)
{
    return dtype == CR_DOUBLE ? ((const double *)y)[i] : ((const float *)y)[i];
}

static void keep(double *dst, const void *src, uint64_t first)
{
    for (uint64_t j = 0; j < rows; ++j)
        dst[j] = row(src, first + j);
}

static cr_status upload(gesummv_array which, const void *src, char *err, size_t errlen)
{
    if (which == GESUMMV_A)
        keep(a_mid, src, rows / 2 * rows);
    else if (which == GESUMMV_X)
        keep(x_now, src, 0);
    if (which == GESUMMV_Y && rows >= 2) {
        y_uploaded = true;
        y_mid = row(src, rows / 2);
    }
    return inner->upload(which, src, err, errlen);
}

/* The column of the smallest product of A's middle row. */
static uint64_t smallest_product(void)
{
    uint64_t best = 0;
    for (uint64_t j = 1; j < rows; ++j)
        if (fabs(a_mid[j] * x_now[j]) < fabs(a_mid[best] * x_now[best]))
            best = j;
    return best;
}

static cr_status download(gesummv_array which, void *dst, char *err, size_t errlen)
{
    cr_status st = inner->download(which, dst, err, errlen);
    if (st != CR_OK || which != GESUMMV_Y || rows < 2)
        return st;
    uint64_t mid = rows / 2;
    if (cr_fault_first(fault, DROP, &planted))
        drop_j = smallest_product();
    if (fault == DROP)
        set_row(dst, mid, row(dst, mid) - GESUMMV_ALPHA * a_mid[drop_j] * x_now[drop_j]);
    else if (cr_fault_first(fault, VERIFY, &planted))
        set_row(dst, mid, row(dst, mid - 1));
    else if (cr_fault_first(fault, UNWRITTEN, &planted) && y_uploaded)
        set_row(dst, mid, y_mid);
    y_uploaded = false;
    return CR_OK;
}

static void install(gesummv_backend *f)
{
    f->prepare = prepare;
    f->upload = upload;
    f->download = download;
}

CR_FAULTY_MAIN(gesummv_main, gesummv_backend, install)
