/* The sfu backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/sfu-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify    the first end values read back are wrong: chain 0's moved
 *             across the whole chain domain
 *   accuracy  the first evaluation of the precise version on inputs
 *             outside the chain domain (the accuracy samples; the contract's
 *             evaluation: one iteration, a = 1, b = -0) returns its first
 *             result 1000 ulps off
 *   cos-for-sin every evaluation of sin by a version other than precise
 *             (the accuracy samples, and those that bound a chain's error)
 *             gives cos instead: an approximation of the wrong function */
#include "sfu/backend.h"

#include "error.h"
#include "tests/planted_fault.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { VERIFY, ACCURACY, COS_FOR_SIN };
CR_FAULT_DECORATOR(sfu_backend, "verify", "accuracy", "cos-for-sin");
static sfu_kernel prepared;      /* the kernel of the chains prepared last */
static bool precise_evaluation; /* they are an evaluation of the precise version, not all from the chain domain */
static bool sin_evaluation;     /* an evaluation of sin by another version */
static double *inputs;          /* the x of the chains prepared last, as doubles */
static uint64_t ninputs;

static double value(cr_dtype t, const void *base, uint64_t i)
{
    return t == CR_FLOAT ? (double)((const float *)base)[i] : ((const double *)base)[i];
}

static bool outside_chain_domain(const sfu_kernel *k, const void *x0, const void *y0, uint64_t n)
{
    const sfu_function *fn = &sfu_functions[k->func];
    for (uint64_t i = 0; i < n; ++i) {
        double x = value(k->dtype, x0, i), y = value(k->dtype, y0, i);
        if (!(x >= fn->chain_x_lo && x <= fn->chain_x_hi) ||
            (fn->arity == 2 && !(y >= fn->chain_y_lo && y <= fn->chain_y_hi)))
            return true;
    }
    return false;
}

static cr_status chain_prepare(const sfu_kernel *k, const sfu_chain *c, const void *x0, const void *y0, char *err,
                               size_t errlen)
{
    prepared = *k;
    bool evaluation = c->iters == 1 && c->a == 1.0 && c->b == 0.0 && signbit(c->b);
    precise_evaluation = evaluation && k->version == SFU_PRECISE && k->fast_units == 0 &&
                         outside_chain_domain(k, x0, y0, c->work_items * c->ilp);
    uint64_t n = c->work_items * c->ilp;
    sin_evaluation = evaluation && k->version != SFU_PRECISE && strcmp(sfu_functions[k->func].name, "sin") == 0;
    if (sin_evaluation) {
        double *more = realloc(inputs, n * sizeof *more);
        if (more == NULL)
            return cr_errf(err, errlen, "out of memory");
        inputs = more;
        ninputs = n;
        for (uint64_t i = 0; i < n; ++i)
            inputs[i] = value(k->dtype, x0, i);
    }
    return inner->chain_prepare(k, c, x0, y0, err, errlen);
}

/* x moved n ulps away from zero: its bits as an integer, n higher. */
static void add_ulps(cr_dtype t, void *x, unsigned n)
{
    if (t == CR_FLOAT) {
        uint32_t bits;
        memcpy(&bits, x, sizeof bits);
        bits += n;
        memcpy(x, &bits, sizeof bits);
    } else {
        uint64_t bits;
        memcpy(&bits, x, sizeof bits);
        bits += n;
        memcpy(x, &bits, sizeof bits);
    }
}

static cr_status chain_download(void *xout, void *sout, uint64_t n, char *err, size_t errlen)
{
    cr_status st = inner->chain_download(xout, sout, n, err, errlen);
    if (st != CR_OK || n == 0)
        return st;
    if (cr_fault_first(fault, VERIFY, &planted)) {
        const sfu_function *fn = &sfu_functions[prepared.func];
        double moved = value(prepared.dtype, xout, 0) + (fn->chain_x_hi - fn->chain_x_lo);
        if (prepared.dtype == CR_FLOAT)
            ((float *)xout)[0] = (float)moved;
        else
            ((double *)xout)[0] = moved;
    }
    if (precise_evaluation && cr_fault_first(fault, ACCURACY, &planted))
        add_ulps(prepared.dtype, xout, 1000);
    if (sin_evaluation && fault == COS_FOR_SIN)
        for (uint64_t i = 0; i < n && i < ninputs; ++i) {
            if (prepared.dtype == CR_FLOAT)
                ((float *)xout)[i] = cosf((float)inputs[i]);
            else
                ((double *)xout)[i] = cos(inputs[i]);
        }
    return CR_OK;
}

static void install(sfu_backend *f)
{
    f->chain_prepare = chain_prepare;
    f->chain_download = chain_download;
}

CR_FAULTY_MAIN(sfu_main, sfu_backend, install)
