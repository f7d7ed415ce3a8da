/* Options that choose together what is measured (a design's --types,
 * --functions, --sweeps ...): each item of one given must be measured with
 * some choice of the others, or it would run nothing, unsaid. */
#include "options.h"

#include "error.h"

#include <stdio.h>

/* Whether some combination of the chosen items is measured, with dim held
 * at item (dim < 0: none held); the first reason one is not, in why. */
static bool some_measured(const cr_choice *dims, size_t ndims, int dim, unsigned item, cr_measured_fn measured,
                          const void *ctx, char *why, size_t len)
{
    unsigned idx[CR_MAX_CHOICES] = {0};
    for (;;) {
        bool chosen = true;
        for (size_t d = 0; d < ndims; ++d)
            chosen = chosen && ((int)d == dim ? idx[d] == item : (dims[d].chosen >> idx[d] & 1u));
        char said[CR_ERRLEN] = "";
        if (chosen && measured(ctx, idx, said, sizeof said))
            return true;
        if (chosen && why[0] == '\0')
            snprintf(why, len, "%s", said);
        size_t d = ndims; /* the next combination, the last choice fastest */
        while (d > 0 && ++idx[d - 1] == dims[d - 1].n)
            idx[--d] = 0;
        if (d == 0)
            return false;
    }
}

/* " with --functions div and --versions half": the choices given but dim. */
static void say_others(const cr_choice *dims, size_t ndims, size_t dim, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t d = 0; d < ndims && used < len; ++d) {
        if (d == dim || !dims[d].given)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s--%s ", used ? " and " : " with ", dims[d].option);
        for (unsigned i = 0, first = 1; i < dims[d].n && used < len; ++i)
            if (dims[d].chosen >> i & 1u) {
                used += (size_t)snprintf(buf + used, len - used, "%s%s", first ? "" : ",", dims[d].names[i]);
                first = 0;
            }
    }
}

int cr_check_choices(const char *program, const cr_choice *dims, size_t ndims, cr_measured_fn measured,
                     const void *ctx, const char *where)
{
    char why[CR_ERRLEN] = "", others[320];
    for (size_t d = 0; d < ndims && d < CR_MAX_CHOICES; ++d)
        for (unsigned i = 0; dims[d].given && i < dims[d].n; ++i) {
            why[0] = '\0';
            if (!(dims[d].chosen >> i & 1u) || some_measured(dims, ndims, (int)d, i, measured, ctx, why, sizeof why))
                continue;
            say_others(dims, ndims, d, others, sizeof others);
            cr_say_error(program, "--%s %s measures nothing%s%s: %s", dims[d].option, dims[d].names[i], where, others,
                         why);
            return -1;
        }
    why[0] = '\0';
    if (some_measured(dims, ndims, -1, 0, measured, ctx, why, sizeof why))
        return 0;
    say_others(dims, ndims, ndims, others, sizeof others);
    cr_say_error(program, "the options chosen measure nothing%s%s: %s", where, others, why);
    return -1;
}
