/* The steps of the SFU benchmark's design that its parts share. */
#include "sfu/state.h"

#include "random.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* The half_ functions' bound in the OpenCL specification (section 7.4). */
#define HALF_BOUND_ULP 8192

void sfu_init_row(const sfu_state *s, cr_result *r, const char *variant, const char *sweep)
{
    cr_result_begin(r, "sfu", s->be->base.name, s->ses.info.name, variant, cr_dtype_name(s->t), sweep, NULL);
}

void sfu_init_version_row(const sfu_state *s, cr_result *r, sfu_version v, const char *sweep)
{
    char variant[48];
    snprintf(variant, sizeof variant, "%s/%s", sfu_functions[s->f].name, sfu_version_names[v]);
    sfu_init_row(s, r, variant, sweep);
}

sfu_kernel sfu_plain_kernel(const sfu_state *s, sfu_version v)
{
    return (sfu_kernel){s->f, s->t, v, s->be->partition_fast, 0};
}

double sfu_bound_ulp(sfu_func f, cr_dtype t, sfu_version v)
{
    if (v == SFU_PRECISE)
        return sfu_functions[f].ulp_bound[t];
    if (v == SFU_HALF)
        return HALF_BOUND_ULP;
    return NAN;
}

sfu_chain sfu_accuracy_chain(const sfu_state *s, sfu_version v)
{
    if (s->timed[v].work_group)
        return s->timed[v];
    return (sfu_chain){s->cfg.ilp, 0, s->lane_work_items, s->work_group, 0, 0};
}

const char *sfu_kernel_name(const sfu_state *s, const sfu_kernel *k, const sfu_chain *c, char *buf, size_t len)
{
    unsigned width = s->be->chain_width(k, c);
    if (width <= 1)
        snprintf(buf, len, "scalar");
    else
        snprintf(buf, len, "vector%u", width);
    return buf;
}

/* The inputs in the kernel's type, in io_x and io_y, padded to `padded`
 * with copies of the first. */
static void to_kernel_type(sfu_state *s, cr_dtype t, const double *x, const double *y, size_t n, size_t padded)
{
    for (size_t i = 0; i < padded; ++i) {
        size_t j = i < n ? i : 0;
        double yv = y ? y[j] : 0;
        if (t == CR_FLOAT) {
            ((float *)s->io_x)[i] = (float)x[j];
            ((float *)s->io_y)[i] = (float)yv;
        } else {
            ((double *)s->io_x)[i] = x[j];
            ((double *)s->io_y)[i] = yv;
        }
    }
}

cr_status sfu_eval_doubles(sfu_state *s, const sfu_kernel *k, const sfu_chain *like, const double *x,
                           const double *y, size_t n, double *out, char *err, size_t errlen)
{
    if (n == 0)
        return CR_OK;
    uint64_t per_group = (uint64_t)like->ilp * like->work_group;
    size_t padded = (size_t)((n + per_group - 1) / per_group * per_group);
    if (per_group == 0 || padded > s->io_cap) {
        snprintf(err, errlen, "internal: %zu inputs in chains of %" PRIu64 ", room for %zu", n, per_group, s->io_cap);
        return CR_ERR;
    }
    to_kernel_type(s, k->dtype, x, y, n, padded);
    sfu_chain c = {like->ilp, 1, padded / like->ilp, like->work_group, 1.0, -0.0};
    cr_timing t = {0};
    cr_status st = s->be->chain_prepare(k, &c, s->io_x, s->io_y, err, errlen);
    if (st == CR_OK)
        st = s->be->chain_run(k, &c, &t, err, errlen);
    if (st == CR_OK)
        st = s->be->chain_download(s->io_out, s->io_sum, n, err, errlen);
    if (st != CR_OK)
        return st;
    for (size_t i = 0; i < n; ++i)
        out[i] = k->dtype == CR_FLOAT ? (double)((const float *)s->io_out)[i] : ((const double *)s->io_out)[i];
    return CR_OK;
}

void sfu_chain_seed(const sfu_state *s, uint64_t *rng, double *x, double *y)
{
    const sfu_function *fn = &sfu_functions[s->f];
    /* Two draws for unary functions too: the seeds stay those that earlier
     * results were measured with. */
    double ux = (double)(cr_splitmix64(rng) >> 11) * 0x1p-53;
    double uy = (double)(cr_splitmix64(rng) >> 11) * 0x1p-53;
    double xv = fn->chain_x_lo + ux * (fn->chain_x_hi - fn->chain_x_lo);
    double yv = fn->arity == 2 ? fn->chain_y_lo + uy * (fn->chain_y_hi - fn->chain_y_lo) : 0;
    *x = s->t == CR_FLOAT ? (double)(float)xv : xv;
    *y = s->t == CR_FLOAT ? (double)(float)yv : yv;
}
