#include "stream/window.h"

#include "stream/backend.h"

/* Windows are whole multiples of this many elements. */
static uint64_t unit_of(uint64_t work_items) { return work_items * STREAM_WINDOW_PER_ITEM; }

/* Whether a whole unit fits in n, without overflowing. */
static bool unit_fits(uint64_t n, uint64_t work_items)
{
    return work_items != 0 && work_items <= n / STREAM_WINDOW_PER_ITEM;
}

/* The largest window of at most `want` elements (a real number), at least
 * one unit; the whole array from n on. */
static uint64_t window_at_most(uint64_t n, uint64_t work_items, double want)
{
    if (!unit_fits(n, work_items) || want >= (double)n)
        return n;
    uint64_t unit = unit_of(work_items);
    uint64_t units = want >= (double)unit ? (uint64_t)(want / (double)unit) : 1;
    return units * unit; /* at most want < n */
}

uint64_t stream_window_first(uint64_t n, uint64_t work_items)
{
    return unit_fits(n, work_items) ? unit_of(work_items) : n;
}

uint64_t stream_window_next(uint64_t n, uint64_t work_items, uint64_t m, double seconds, double target,
                            bool *done)
{
    *done = true;
    /* Scaled down without another run: a long run's rate is reliable. */
    if (seconds > STREAM_WINDOW_LONG_FACTOR * target)
        return window_at_most(n, work_items, (double)m * (target / seconds));
    if (m >= n || seconds >= target / 2)
        return m;
    /* The whole array, without running it, where even a linear scaling of
     * this run (launch included: an overestimate) keeps it short. */
    if (seconds * ((double)n / (double)m) <= STREAM_WINDOW_LONG_FACTOR * target)
        return n;
    double factor = seconds > 0 ? target / seconds : 1024;
    factor = factor < 2 ? 2 : factor > 1024 ? 1024 : factor;
    uint64_t next = window_at_most(n, work_items, (double)m * factor);
    *done = next == m; /* cannot happen with m a whole number of units below n; guards the loop */
    return next;
}

uint64_t stream_window_place(uint64_t n, uint64_t m, uint64_t *cursor)
{
    if (m >= n || *cursor > n - m)
        *cursor = 0;
    uint64_t first = *cursor;
    *cursor = first + m;
    return first;
}

uint64_t stream_window_span(uint64_t n, uint64_t m)
{
    return m == 0 || m >= n ? n : n / m * m;
}

cr_status stream_check_window(const stream_geometry *g, uint64_t n, char *err, size_t errlen)
{
    if (g->count == 0 || g->count > n || g->first > n - g->count) {
        snprintf(err, errlen, "window of %llu elements at %llu is not inside the %llu of the arrays",
                 (unsigned long long)g->count, (unsigned long long)g->first, (unsigned long long)n);
        return CR_ERR;
    }
    return CR_OK;
}
