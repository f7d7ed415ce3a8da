#include "atomics/calibrate.h"

#include <math.h>

uint32_t at_iters_for(uint64_t pilot_iters, double pilot_s, double target_s, uint32_t cap)
{
    if (cap == 0)
        cap = 1;
    if (pilot_s == 0)
        return cap;
    if (!(pilot_s > 0) || !(target_s > 0) || pilot_iters == 0)
        return 1;
    /* In double: the product may exceed any integer type, and is clamped
     * before it is converted. The last bit of rounding must not take an
     * exact ratio one below itself. */
    double exact = (double)pilot_iters * target_s / pilot_s, want = floor(exact * (1 + 1e-12));
    if (!(want >= 1))
        return 1;
    return want >= (double)cap ? cap : (uint32_t)want;
}

cr_status at_calibrate(at_pilot_fn pilot, void *ctx, double target_s, double budget_s, uint32_t cap,
                       at_calibration *out, char *err, size_t errlen)
{
    *out = (at_calibration){.iters = 1, .pilot_iters = 1};
    double t;
    cr_status st = pilot(ctx, 1, &t, err, errlen);
    out->pilots = 1;
    if (st == CR_OK && t >= target_s / 2 && !(t > budget_s)) {
        double again;
        st = pilot(ctx, 1, &again, err, errlen);
        out->pilots++;
        t = again < t ? again : t;
    }
    if (st != CR_OK)
        return st;
    out->one_op_s = out->pilot_s = t;
    for (unsigned k = 0; k < AT_MAX_PILOTS && out->pilot_s < target_s / 2 && out->pilot_iters < cap; ++k) {
        uint32_t next = at_iters_for(out->pilot_iters, out->pilot_s, target_s, cap);
        if (next <= out->pilot_iters)
            break;
        if ((st = pilot(ctx, next, &t, err, errlen)) != CR_OK)
            return st;
        out->pilots++;
        out->pilot_iters = next;
        out->pilot_s = t;
    }
    out->iters = at_iters_for(out->pilot_iters, out->pilot_s, target_s, cap);
    return CR_OK;
}
