#define _POSIX_C_SOURCE 200809L
#include "timer.h"

#include <time.h>

uint64_t cr_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cr_host_granularity_ns(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000; ++i) {
        uint64_t a = cr_now_ns(), b;
        do
            b = cr_now_ns();
        while (b == a);
        if (b - a < best)
            best = b - a;
    }
    return best;
}

uint64_t cr_host_loop_ns(void (*fn)(void *), void *ctx, uint64_t granularity_ns, uint64_t *calls)
{
    uint64_t want = CR_HOST_LOOP_STEPS * granularity_ns, n = *calls ? *calls : 1, took;
    if (want < CR_HOST_LOOP_MIN_NS)
        want = CR_HOST_LOOP_MIN_NS;
    for (;;) {
        uint64_t t0 = cr_now_ns();
        for (uint64_t i = 0; i < n; ++i)
            fn(ctx);
        took = cr_now_ns() - t0;
        if (took >= want || n >= UINT64_MAX / 2)
            break;
        n *= 2;
    }
    *calls = n;
    return (took + n / 2) / n;
}

cr_event_verdict cr_check_event(const cr_timing *t, uint64_t slack_ns)
{
    if (!t->has_event)
        return CR_EVENT_MISSING;
    if (t->ev_end_ns < t->ev_start_ns)
        return CR_EVENT_END_BEFORE_START;
    if (t->ev_end_ns == t->ev_start_ns)
        return CR_EVENT_ZERO;
    if (t->ev_end_ns - t->ev_start_ns > t->host_ns + slack_ns)
        return CR_EVENT_LONGER_THAN_HOST;
    return CR_EVENT_OK;
}

const char *cr_event_verdict_text(cr_event_verdict v)
{
    switch (v) {
    case CR_EVENT_OK: return "ok";
    case CR_EVENT_MISSING: return "no event timestamps";
    case CR_EVENT_END_BEFORE_START: return "event end before start";
    case CR_EVENT_ZERO: return "zero event duration";
    case CR_EVENT_LONGER_THAN_HOST: return "event longer than the host interval around it";
    }
    return "?";
}

double cr_timer_pick(cr_timer_state *st, const cr_timing *t, cr_timer_kind *kind, bool *first_fallback)
{
    *first_fallback = false;
    if (!t->has_event) {
        *kind = CR_TIMER_HOST;
        return (double)t->host_ns * 1e-9;
    }
    if (!st->fell_back) {
        cr_event_verdict v = cr_check_event(t, st->slack_ns);
        if (v == CR_EVENT_OK) {
            *kind = CR_TIMER_EVENT;
            return (double)(t->ev_end_ns - t->ev_start_ns) * 1e-9;
        }
        st->fell_back = true;
        st->why = v;
        *first_fallback = true;
    }
    *kind = CR_TIMER_HOST_FALLBACK;
    return (double)t->host_ns * 1e-9;
}

const char *cr_timer_kind_name(cr_timer_kind k)
{
    switch (k) {
    case CR_TIMER_EVENT: return "event";
    case CR_TIMER_HOST: return "host";
    case CR_TIMER_HOST_FALLBACK: return "host-fallback";
    }
    return "?";
}

uint64_t cr_host_timed_call(void (*fn)(void *), void *ctx, uint64_t *calls, uint64_t *call_ns)
{
    static uint64_t granularity_ns;
    if (granularity_ns == 0)
        granularity_ns = cr_host_granularity_ns();
    if (*calls == 0)
        *calls = 1;
    if (*call_ns < CR_HOST_WARM_BELOW_NS)
        fn(ctx);
    *call_ns = cr_host_loop_ns(fn, ctx, granularity_ns, calls);
    return *call_ns;
}
