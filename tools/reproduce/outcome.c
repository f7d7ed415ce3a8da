#define _GNU_SOURCE
#include "reproduce/reproduce.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *rr_verdict_name(rr_verdict v)
{
    static const char *const names[] = {"reproduced", "holds qualitatively", "differs", "not measurable here"};
    return v < RR_NVERDICTS ? names[v] : "?";
}

void rr_say(char *field, size_t len, const char *fmt, ...)
{
    size_t used = strnlen(field, len);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(field + used, len - used, fmt, ap);
    va_end(ap);
}

void rr_add_pair(rr_outcome *o, const char *quantity, const char *key, const char *unit, double thesis, double run,
                 const char *basis, const char *source)
{
    if (o->npairs == RR_MAX_PAIRS)
        return;
    rr_pair *p = &o->pairs[o->npairs++];
    snprintf(p->quantity, sizeof p->quantity, "%s", quantity);
    snprintf(p->key, sizeof p->key, "%s", key);
    snprintf(p->unit, sizeof p->unit, "%s", unit);
    snprintf(p->basis, sizeof p->basis, "%s", basis);
    snprintf(p->source, sizeof p->source, "%s", source ? source : "");
    p->thesis = thesis;
    p->run = run;
}

void rr_add_flags(rr_outcome *o, const char *flags)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", flags);
    for (char *save = NULL, *f = strtok_r(copy, ";", &save); f; f = strtok_r(NULL, ";", &save)) {
        size_t n = strlen(f);
        bool seen = false;
        for (const char *p = o->flags; (p = strstr(p, f)) != NULL; p += n)
            if ((p == o->flags || p[-1] == ';') && (p[n] == ';' || p[n] == '\0'))
                seen = true;
        if (!seen)
            rr_say(o->flags, sizeof o->flags, "%s%s", *o->flags ? ";" : "", f);
    }
}

void rr_not_measurable(rr_outcome *o, const char *fmt, ...)
{
    o->verdict = RR_NOT_MEASURABLE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->reason, sizeof o->reason, fmt, ap);
    va_end(ap);
}
