/* How much of the arrays one repetition of a concurrency-sweep point
 * touches. A few work-items stream at the rate of a few memory latencies
 * per element: on a GPU one thread over a 256 MiB array takes tens of
 * seconds. So each point works on a window of the arrays, sized by
 * calibration to take about STREAM_WINDOW_TARGET_S, and its repetitions
 * take the windows in turn from a cursor shared by every point measured
 * together: consecutive repetitions touch disjoint stretches, and a
 * stretch comes back only after the whole arrays have been through, so
 * a cache holds no more of it than it would of the whole arrays.
 *
 * A window is the whole array, or a whole multiple of
 * STREAM_WINDOW_PER_ITEM elements per work-item: every work-item gets the
 * same number of elements, so all of them stay busy to the end. */
#ifndef CR_STREAM_WINDOW_H
#define CR_STREAM_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

/* Long enough that a launch's overhead (tens of microseconds on a CPU
 * device) is a fraction of a percent of it, short enough that a sweep
 * point costs milliseconds per repetition at any concurrency. Runs up to
 * STREAM_WINDOW_LONG_FACTOR times the target keep the whole array: a window is for the points
 * that would take far longer (one GPU thread over 256 MiB: a minute). */
#define STREAM_WINDOW_TARGET_S 10e-3
#define STREAM_WINDOW_LONG_FACTOR 4
#define STREAM_WINDOW_PER_ITEM UINT64_C(16)

/* The first calibration run of work_items over arrays of n elements:
 * STREAM_WINDOW_PER_ITEM elements each, or the whole array where that
 * reaches it. */
uint64_t stream_window_first(uint64_t n, uint64_t work_items);

/* A run over a window of m elements took seconds (launch included):
 * returns the window to use next and sets *done when that one is final.
 * It grows at least twofold (at most 1024-fold) per run towards target_s
 * (STREAM_WINDOW_TARGET_S but in tests) and stops from half of it on; it
 * takes the whole array at once where scaling the run up to it stays
 * below STREAM_WINDOW_LONG_FACTOR times the target; a run longer than
 * that shrinks it once, finally, to the target. */
uint64_t stream_window_next(uint64_t n, uint64_t work_items, uint64_t m, double seconds, double target_s,
                            bool *done);

/* Where the next repetition over a window of m elements starts: at
 * *cursor, or back at 0 where the window would pass the end; *cursor
 * then moves past it. */
uint64_t stream_window_place(uint64_t n, uint64_t m, uint64_t *cursor);

/* The elements a point's repetitions cycle through before touching one
 * again (the working set a cache would have to hold): the whole windows
 * that fit in n. */
uint64_t stream_window_span(uint64_t n, uint64_t m);

#endif
