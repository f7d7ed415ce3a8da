/* The stream backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/stream-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify        the first result read back is wrong: one element in the
 *                 middle of the last launch's window, or, where a dot comes
 *                 first, every dot of the first dot launch's geometry off by 1%
 *   window-spill  the first array read back after a launch over a window
 *                 holds one element written just past the window
 *   dot-drop      the dot launched right after an upload of b (the design's
 *                 coverage check) leaves out one product
 *   events        every launch's device events end before they start
 *   inflate       every launch's times are cut to 1/1.3 of what they were:
 *                 figures 30% above what the device did */
#include "stream/backend.h"

#include "tests/planted_fault.h"

#include <stdlib.h>
#include <string.h>

enum { VERIFY, WINDOW_SPILL, DOT_DROP, EVENTS, INFLATE };
CR_FAULT_DECORATOR(stream_backend, "verify", "window-spill", "dot-drop", "events", "inflate");
static cr_dtype dtype;
static uint64_t elements;
static stream_kernel last_kernel = STREAM_NKERNELS; /* none yet */
static stream_geometry last_window;
static bool b_just_uploaded;
static bool dot_spoiled;
static stream_geometry dot_geometry; /* of the dot launches spoiled by verify */

static cr_status prepare(cr_dtype t, uint64_t n, char *err, size_t errlen)
{
    dtype = t;
    elements = n;
    last_kernel = STREAM_NKERNELS;
    return inner->prepare(t, n, err, errlen);
}

static cr_status upload(stream_array which, const void *src, char *err, size_t errlen)
{
    b_just_uploaded = which == STREAM_B;
    return inner->upload(which, src, err, errlen);
}

static double element(const void *base, uint64_t i)
{
    return dtype == CR_DOUBLE ? ((const double *)base)[i] : ((const float *)base)[i];
}

/* One product of the window, the first that is not zero from its middle
 * on: what a kernel that skipped that element would leave out. */
static cr_status dropped_product(const stream_geometry *g, double *product, char *err, size_t errlen)
{
    size_t bytes = elements * cr_dtype_size(dtype);
    void *a = malloc(bytes), *b = malloc(bytes);
    cr_status st = a && b ? CR_OK : CR_ERR;
    if (st != CR_OK)
        snprintf(err, errlen, "fault decorator: out of memory");
    if (st == CR_OK)
        st = inner->download(STREAM_A, a, err, errlen);
    if (st == CR_OK)
        st = inner->download(STREAM_B, b, err, errlen);
    *product = 0;
    for (uint64_t j = 0; st == CR_OK && j < g->count && *product == 0; ++j) {
        uint64_t i = g->first + (g->count / 2 + j) % g->count;
        *product = element(a, i) * element(b, i);
    }
    free(a);
    free(b);
    return st;
}

static cr_status spoil_dot(const stream_geometry *g, double *dot, char *err, size_t errlen)
{
    bool after_b = b_just_uploaded;
    if (fault == VERIFY && !planted) {
        planted = dot_spoiled = true;
        dot_geometry = *g;
    }
    if (dot_spoiled && g->work_items == dot_geometry.work_items && g->work_group == dot_geometry.work_group)
        *dot *= 1.01;
    double product = 0;
    cr_status st = CR_OK;
    if (after_b && cr_fault_first(fault, DOT_DROP, &planted) &&
        (st = dropped_product(g, &product, err, errlen)) == CR_OK)
        *dot -= product;
    return st;
}

static cr_status run(stream_kernel k, const stream_geometry *g, double scalar, cr_timing *t, double *dot, char *err,
                     size_t errlen)
{
    cr_status st = inner->run(k, g, scalar, t, dot, err, errlen);
    if (st != CR_OK)
        return st;
    if (fault == EVENTS)
        cr_fault_swap_events(t);
    if (fault == INFLATE) {
        t->host_ns = (uint64_t)((double)t->host_ns / 1.3);
        if (t->has_event)
            t->ev_end_ns = t->ev_start_ns + (uint64_t)((double)(t->ev_end_ns - t->ev_start_ns) / 1.3);
    }
    last_kernel = k;
    last_window = *g;
    st = k == STREAM_DOT ? spoil_dot(g, dot, err, errlen) : CR_OK;
    b_just_uploaded = false;
    return st;
}

static cr_status download(stream_array which, void *dst, char *err, size_t errlen)
{
    cr_status st = inner->download(which, dst, err, errlen);
    if (st != CR_OK)
        return st;
    size_t es = cr_dtype_size(dtype);
    bool written = last_kernel != STREAM_NKERNELS && stream_kernels[last_kernel].output == which;
    stream_geometry w = written ? last_window : (stream_geometry){.first = 0, .count = elements};
    if (cr_fault_first(fault, VERIFY, &planted))
        memset((char *)dst + (w.first + w.count / 2) * es, 0x7f, es);
    if (written && w.count < elements && cr_fault_first(fault, WINDOW_SPILL, &planted)) {
        /* As a kernel that writes one element past its window would. */
        uint64_t past = w.first + w.count < elements ? w.first + w.count : w.first - 1;
        uint64_t inside = past > w.first ? past - 1 : past + 1;
        memcpy((char *)dst + past * es, (char *)dst + inside * es, es);
    }
    return CR_OK;
}

static void install(stream_backend *f)
{
    f->prepare = prepare;
    f->upload = upload;
    f->download = download;
    f->run = run;
}

CR_FAULTY_MAIN(stream_main, stream_backend, install)
