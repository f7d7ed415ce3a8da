/* The gesummv backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/gesummv-opencl.
 * CROSSROOF_FAULT names the fault; each spoils the first y read back, at
 * its middle row:
 *   verify     the row holds the row before it (a work-item that wrote
 *              the wrong row)
 *   unwritten  the row holds what y held there before the launch: what
 *              the design last uploaded into y, else the earlier launches'
 *              output (a row no work-item wrote; only a y filled before
 *              the checked launch tells it from a row written right) */
#include "gesummv/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY, UNWRITTEN };
CR_FAULT_DECORATOR(gesummv_backend, "verify", "unwritten");
static cr_dtype dtype;
static uint64_t rows;
static bool y_uploaded;  /* since the last read of y */
static double y_mid;     /* the middle row as uploaded */

static cr_status prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    dtype = t;
    rows = n;
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

static cr_status upload(gesummv_array which, const void *src, char *err, size_t errlen)
{
    if (which == GESUMMV_Y && rows >= 2) {
        y_uploaded = true;
        y_mid = row(src, rows / 2);
    }
    return inner->upload(which, src, err, errlen);
}

static cr_status download(gesummv_array which, void *dst, char *err, size_t errlen)
{
    cr_status st = inner->download(which, dst, err, errlen);
    if (st != CR_OK || which != GESUMMV_Y || rows < 2)
        return st;
    uint64_t mid = rows / 2;
    if (cr_fault_first(fault, VERIFY, &planted))
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
