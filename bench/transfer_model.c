#include "transfer_model.h"

#include <math.h>

double bw_fit_seconds(const bw_fit *f, double bytes) { return f->c_s + bytes / f->b_Bps; }

double bw_fit_rel_err(const bw_fit *f, double bytes, double seconds)
{
    /* B_fit/B_meas = (S/T_fit) / (S/T_meas) = T_meas / T_fit */
    return seconds / bw_fit_seconds(f, bytes) - 1.0;
}

int bw_fit_transfer(const double *bytes, const double *seconds, size_t n, bw_fit *out)
{
    double sw = 0, sws = 0, swss = 0, swt = 0, swst = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!(seconds[i] > 0) || !(bytes[i] > 0))
            return -1;
        double w = 1.0 / (seconds[i] * seconds[i]);
        sw += w;
        sws += w * bytes[i];
        swss += w * bytes[i] * bytes[i];
        swt += w * seconds[i];
        swst += w * bytes[i] * seconds[i];
    }
    if (n < 2)
        return -1;
    /* Normal equations of min sum w (c + S x - T)^2, x = 1/b. */
    double det = sw * swss - sws * sws;
    if (!(fabs(det) > 0))
        return -1;
    double c = (swt * swss - sws * swst) / det;
    double x = (sw * swst - sws * swt) / det;
    bool clamped = false;
    if (c < 0) { /* a negative fixed cost is unphysical: fit through the origin */
        c = 0;
        x = swst / swss;
        clamped = true;
    }
    if (!(x > 0))
        return -1;
    *out = (bw_fit){.c_s = c, .b_Bps = 1.0 / x, .intercept_clamped = clamped, .n = n};
    double sum2 = 0;
    for (size_t i = 0; i < n; ++i) {
        double e = bw_fit_rel_err(out, bytes[i], seconds[i]);
        if (fabs(e) > out->max_rel_err)
            out->max_rel_err = fabs(e);
        sum2 += e * e;
    }
    out->rms_rel_err = sqrt(sum2 / (double)n);
    return 0;
}

bool bw_moved_no_data(double bytes, double seconds, double host_copy_Bps)
{
    return host_copy_Bps > 0 && seconds > 0 && bytes / seconds > 2.0 * host_copy_Bps;
}
