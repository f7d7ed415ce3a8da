/* What the fault decorators of the end-to-end tests share. A decorator,
 * bench/<b>/tests/fault_backend.c, wraps the real backend of a benchmark
 * in the test-only executable build/faulty/<b>-opencl (linked with
 * -Wl,--wrap=<b>_main, so that the design measures through it) and spoils
 * what the backend returns after a launch: a downloaded array, a result, a
 * timing. CROSSROOF_FAULT names the fault; the real executables know no
 * such variable. */
#ifndef CR_TESTS_PLANTED_FAULT_H
#define CR_TESTS_PLANTED_FAULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timer.h"

/* The index in names[0..n) of the fault CROSSROOF_FAULT names, or -1 where
 * it names none (the decorator then passes everything through). A name the
 * decorator does not know stops the program (exit 2), so that no test can
 * pass on a fault that was never planted. */
static inline int cr_planted_fault(const char *const *names, size_t n)
{
    const char *want = getenv("CROSSROOF_FAULT");
    if (want == NULL || want[0] == '\0')
        return -1;
    for (size_t i = 0; i < n; ++i)
        if (strcmp(names[i], want) == 0)
            return (int)i;
    fprintf(stderr, "fault decorator: CROSSROOF_FAULT=%s is not one of this benchmark's faults\n", want);
    exit(2);
}

/* Whether fault `which` is the one named and not planted yet; marks it
 * planted. A fault planted once spoils the first result it reaches. */
static inline bool cr_fault_first(int named, int which, bool *planted)
{
    if (named != which || *planted)
        return false;
    *planted = true;
    return true;
}

/* Device events that end before they start: what a broken profiler
 * reports, which the timer must refuse for the host clock. */
static inline void cr_fault_swap_events(cr_timing *t)
{
    if (!t->has_event)
        return;
    uint64_t start = t->ev_start_ns;
    t->ev_start_ns = t->ev_end_ns;
    t->ev_end_ns = start;
}

/* A decorator's state: its faults' names (CROSSROOF_FAULT's values, in the
 * order of its enum), the real backend, the copy the design gets, the fault
 * named (-1 none) and whether it has been planted. */
#define CR_FAULT_DECORATOR(BACKEND_T, ...)                                                                         \
    static const char *const fault_names[] = {__VA_ARGS__};                                                        \
    static const BACKEND_T *inner;                                                                                 \
    static BACKEND_T faulty;                                                                                       \
    static int fault = -1;                                                                                         \
    static bool planted

/* The test executable's wrapper of B_main (linked -Wl,--wrap=B_main): it
 * reads the fault named, keeps the real backend as `inner`, hands the
 * design `faulty`, a copy of it whose operations install() replaces, and
 * runs the real B_main. A decorator declares its state with
 * CR_FAULT_DECORATOR and defines install before it:
 * CR_FAULTY_MAIN(stream_main, stream_backend, install). */
#define CR_FAULTY_MAIN(MAIN, BACKEND_T, INSTALL)                                                                    \
    int __real_##MAIN(int argc, char **argv, const BACKEND_T *backend);                                           \
    int __wrap_##MAIN(int argc, char **argv, const BACKEND_T *backend);                                           \
    int __wrap_##MAIN(int argc, char **argv, const BACKEND_T *backend)                                            \
    {                                                                                                              \
        fault = cr_planted_fault(fault_names, sizeof fault_names / sizeof fault_names[0]);                         \
        inner = backend;                                                                                           \
        faulty = *backend;                                                                                         \
        INSTALL(&faulty);                                                                                          \
        return __real_##MAIN(argc, argv, &faulty);                                                                 \
    }

#endif
