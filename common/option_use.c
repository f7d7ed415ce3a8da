/* Which sweeps read an option, and the refusal of an option given that no
 * sweep chosen reads: it would change nothing, unsaid. */
#include "options.h"

#include "error.h"

#include <stdio.h>
#include <string.h>

/* " (only the fixed and concurrency sweeps read it)": the sweeps in bits. */
static void say_readers(unsigned bits, const char *const *names, unsigned n, char *buf, size_t len)
{
    unsigned count = 0;
    for (unsigned i = 0; i < n; ++i)
        count += bits >> i & 1u;
    size_t used = (size_t)snprintf(buf, len, " (only the ");
    for (unsigned i = 0, left = count; i < n && used < len; ++i)
        if (bits >> i & 1u) {
            --left;
            used += (size_t)snprintf(buf + used, len - used, "%s%s", names[i],
                                     left == 0 ? "" : left == 1 ? " and " : ", ");
        }
    if (used < len)
        snprintf(buf + used, len - used, count == 1 ? " sweep reads it)" : " sweeps read it)");
}

/* The sweeps the selector sel leaves to run. */
static unsigned sweeps_left(const cr_extra_option *sel, const void *ctx)
{
    if (sel->kind == CR_OPT_NAMES)
        return *(const unsigned *)((const char *)ctx + sel->offset);
    return sel->sweeps;
}

/* The first option given, but for the selector, that only sweeps outside
 * run read; NULL when there is none. */
static const cr_extra_option *first_unread(const cr_options *o, const cr_extra_option *extra, size_t n_extra,
                                           unsigned run)
{
    for (size_t i = 0; i < n_extra && i < 64; ++i) {
        const cr_extra_option *x = &extra[i];
        if ((o->extra_given >> i & 1u) && !x->selects && x->sweeps != 0 && (x->sweeps & run) == 0)
            return x;
    }
    return NULL;
}

int cr_check_option_use(const cr_options *o, const cr_extra_option *extra, size_t n_extra, const void *ctx,
                        const char *selector_arg)
{
    const cr_extra_option *sel = NULL;
    for (size_t i = 0; i < n_extra && i < 64; ++i)
        if (extra[i].selects && (o->extra_given >> i & 1u))
            sel = &extra[i];
    const cr_extra_option *x = sel ? first_unread(o, extra, n_extra, sweeps_left(sel, ctx)) : NULL;
    if (x == NULL)
        return 0;
    char readers[192] = "";
    if (sel->kind == CR_OPT_NAMES)
        say_readers(x->sweeps, sel->names, sel->n_names, readers, sizeof readers);
    cr_say_error(o->program, "--%s has no effect with --%s%s%s%s", x->name, sel->name, selector_arg ? " " : "",
                 selector_arg ? selector_arg : "", readers);
    return -1;
}

bool cr_option_given(const cr_options *o, const cr_extra_option *extra, size_t n_extra, const char *name)
{
    for (size_t i = 0; i < n_extra && i < 64; ++i)
        if (strcmp(extra[i].name, name) == 0)
            return (o->extra_given & ~o->extra_all) >> i & 1u;
    return false;
}

int cr_check_options_read(const cr_options *o, const cr_extra_option *extra, size_t n_extra, unsigned runnable,
                          const char *why)
{
    const cr_extra_option *x = first_unread(o, extra, n_extra, runnable);
    if (x == NULL)
        return 0;
    cr_say_error(o->program, "--%s has no effect here: %s", x->name, why);
    return -1;
}
