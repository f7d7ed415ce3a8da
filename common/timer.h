/* Clocks and the sanity rules applied to device timestamps. Device work is
 * timed by API events; when events are absent or insane the host monotonic
 * clock around a synchronising call is used instead, and the row says so. */
#ifndef CR_TIMER_H
#define CR_TIMER_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t cr_now_ns(void);

/* Smallest observable step of the host clock, measured (not the advertised
 * resolution): the minimum non-zero difference of back-to-back reads. */
uint64_t cr_host_granularity_ns(void);

/* A host loop is timed for at least this long, and for at least 100 of
 * the clock's steps: a call of a small kernel (a microsecond) is then a
 * hundredth of it, and the clock's step a hundredth at most. */
#define CR_HOST_LOOP_MIN_NS 100000u
#define CR_HOST_LOOP_STEPS 100u

/* The host time of one call of fn(ctx): from *calls calls (at least 1:
 * what the last repetition of the same work needed), the calls are doubled
 * until a loop of them lasts the longer of CR_HOST_LOOP_MIN_NS and
 * CR_HOST_LOOP_STEPS steps of the clock (granularity_ns, from
 * cr_host_granularity_ns()); the last loop's time divided by its calls,
 * which go back to *calls. fn must give the same result every call (a
 * kernel that does not read what it writes). */
uint64_t cr_host_loop_ns(void (*fn)(void *), void *ctx, uint64_t granularity_ns, uint64_t *calls);

/* A call shorter than this is timed after one untimed call: OpenMP threads
 * sleep while a device runs, and waking them (half a millisecond on a
 * shared 2-core VM) dwarfs a small kernel, which the loop alone would
 * amortise only over many milliseconds. A longer call pays the waking
 * once, a small share, and no second call. */
#define CR_HOST_WARM_BELOW_NS 5000000u

/* cr_host_loop_ns() at the host clock's granularity (measured once), after
 * one untimed call where the last one's time, *call_ns (0: none yet), was
 * under CR_HOST_WARM_BELOW_NS; *call_ns and *calls are kept for the next
 * repetition of the same work. */
uint64_t cr_host_timed_call(void (*fn)(void *), void *ctx, uint64_t *calls, uint64_t *call_ns);

/* One timed repetition as a backend reports it. */
typedef struct {
    bool has_event;       /* event timestamps are present */
    uint64_t ev_start_ns; /* device clock */
    uint64_t ev_end_ns;
    uint64_t host_ns;     /* host monotonic time from before submit to after completion */
} cr_timing;

typedef enum {
    CR_EVENT_OK = 0,
    CR_EVENT_MISSING,
    CR_EVENT_END_BEFORE_START,
    CR_EVENT_ZERO,
    CR_EVENT_LONGER_THAN_HOST, /* device interval exceeds the host interval that contains it */
} cr_event_verdict;

/* Judges one event interval against the host interval that brackets it.
 * slack_ns absorbs clock-domain rounding (a few device timer ticks). */
cr_event_verdict cr_check_event(const cr_timing *t, uint64_t slack_ns);

const char *cr_event_verdict_text(cr_event_verdict v);

/* Per-device timer policy: events until the first insane one, host clock
 * from then on (a driver that produced one bad event is not trusted again).
 * A repetition without events (host work, by design) changes nothing. */
typedef struct {
    bool fell_back;
    cr_event_verdict why;
    uint64_t slack_ns;
} cr_timer_state;

typedef enum {
    CR_TIMER_EVENT,         /* device events */
    CR_TIMER_HOST,          /* host clock: the repetition had no events */
    CR_TIMER_HOST_FALLBACK, /* host clock: events were there but are not trusted */
} cr_timer_kind;

/* Returns the duration in seconds to record and the timer that produced it.
 * *first_fallback is set true on the call that stops trusting events. */
double cr_timer_pick(cr_timer_state *st, const cr_timing *t, cr_timer_kind *kind, bool *first_fallback);

const char *cr_timer_kind_name(cr_timer_kind k);

#endif
