/* Hardware cache counters of the whole process through perf_event_open:
 * first-level data-cache read misses and last-level-cache misses, counted
 * in user mode on every thread, an OpenCL runtime's workers included.
 *
 * A counter opened with inherit follows only threads created after it, and
 * a runtime such as PoCL starts its workers when its context is made, long
 * before a measurement: so a counter is opened on every thread that exists
 * (/proc/self/task) as well, with inherit for those still to come. Where
 * the counters cannot be read (a virtual machine often hides them) the
 * reason is kept, in words. */
#ifndef CR_PERF_COUNTERS_H
#define CR_PERF_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CR_PERF_L1D_READ_MISSES = 0, CR_PERF_LLC_MISSES, CR_PERF_EVENTS } cr_perf_event;

#define CR_PERF_MAX_THREADS 256

typedef struct {
    int fd[CR_PERF_MAX_THREADS][CR_PERF_EVENTS];
    size_t threads;
    char why[200]; /* "unavailable: ..." where opening failed */
} cr_perf;

/* The system call, a seam for tests: perf_event_open's arguments. */
typedef long (*cr_perf_open_fn)(void *attr, int pid, int cpu, int group_fd, unsigned long flags);
extern cr_perf_open_fn cr_perf_open_call;

/* "unavailable: <reason>" for perf_event_open's errno err, given the
 * kernel's perf_event_paranoid (-99 where unknown). */
void cr_perf_reason(int err, int paranoid, char *out, size_t size);

/* Opens both counters on every thread, zeroed and counting. 0, or -1 with
 * p->why set (nothing left open). */
int cr_perf_open(cr_perf *p);

/* The counts since opening, summed over the threads. 0, or -1 with p->why. */
int cr_perf_read(cr_perf *p, uint64_t counts[CR_PERF_EVENTS]);

void cr_perf_close(cr_perf *p);

/* The kernel's /proc/sys/kernel/perf_event_paranoid, -99 where unreadable. */
int cr_perf_paranoid(void);

#endif
