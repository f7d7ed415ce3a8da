#define _GNU_SOURCE
#include "perf_counters.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long perf_event_open_syscall(void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
    return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

cr_perf_open_fn cr_perf_open_call = perf_event_open_syscall;

int cr_perf_paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = -99;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -99;
        fclose(f);
    }
    return v;
}

void cr_perf_reason(int err, int paranoid, char *out, size_t size)
{
    switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
        snprintf(out, size, "unavailable: the CPU or hypervisor exposes no such hardware event (%s)",
                 err == ENOENT ? "ENOENT" : "EOPNOTSUPP");
        break;
    case ENODEV:
        snprintf(out, size, "unavailable: no PMU for this event (ENODEV)");
        break;
    case ENOSYS:
        snprintf(out, size, "unavailable: the kernel has no perf_event_open (ENOSYS)");
        break;
    case EACCES:
    case EPERM:
        if (paranoid > 2)
            snprintf(out, size, "unavailable: perf_event_paranoid is %d, which forbids counters to users (%s)",
                     paranoid, err == EACCES ? "EACCES" : "EPERM");
        else if (paranoid != -99)
            snprintf(out, size, "unavailable: not permitted (%s; perf_event_paranoid %d)",
                     err == EACCES ? "EACCES" : "EPERM", paranoid);
        else
            snprintf(out, size, "unavailable: not permitted (%s)", err == EACCES ? "EACCES" : "EPERM");
        break;
    case EMFILE:
        snprintf(out, size, "unavailable: out of file descriptors (EMFILE)");
        break;
    default:
        snprintf(out, size, "unavailable: perf_event_open: %s", strerror(err));
        break;
    }
}

static const uint64_t event_config[CR_PERF_EVENTS] = {
    PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
    PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
};

static int open_one(int tid, cr_perf_event e)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HW_CACHE;
    attr.config = event_config[e];
    attr.inherit = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return (int)cr_perf_open_call(&attr, tid, -1, -1, 0);
}

int cr_perf_open(cr_perf *p)
{
    memset(p, 0, sizeof *p);
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) {
        snprintf(p->why, sizeof p->why, "unavailable: cannot list the process's threads: %s", strerror(errno));
        return -1;
    }
    int failure = 0;
    for (struct dirent *e; failure == 0 && (e = readdir(d)) != NULL;) {
        int tid = atoi(e->d_name);
        if (tid <= 0)
            continue;
        if (p->threads == CR_PERF_MAX_THREADS) {
            failure = EMFILE;
            break;
        }
        size_t t = p->threads++;
        for (int k = 0; k < CR_PERF_EVENTS; ++k)
            p->fd[t][k] = -1;
        for (int k = 0; k < CR_PERF_EVENTS && failure == 0; ++k) {
            p->fd[t][k] = open_one(tid, (cr_perf_event)k);
            /* A thread that ended since the listing has nothing to count. */
            if (p->fd[t][k] < 0 && errno != ESRCH)
                failure = errno ? errno : EINVAL;
        }
    }
    closedir(d);
    if (failure == 0 && p->threads == 0)
        failure = ESRCH;
    if (failure) {
        cr_perf_close(p);
        cr_perf_reason(failure, cr_perf_paranoid(), p->why, sizeof p->why);
        return -1;
    }
    return 0;
}

int cr_perf_read(cr_perf *p, uint64_t counts[CR_PERF_EVENTS])
{
    memset(counts, 0, CR_PERF_EVENTS * sizeof *counts);
    for (size_t t = 0; t < p->threads; ++t)
        for (int k = 0; k < CR_PERF_EVENTS; ++k) {
            uint64_t v = 0;
            if (p->fd[t][k] < 0)
                continue;
            if (read(p->fd[t][k], &v, sizeof v) != (ssize_t)sizeof v) {
                snprintf(p->why, sizeof p->why, "unavailable: reading a counter failed: %s", strerror(errno));
                return -1;
            }
            counts[k] += v;
        }
    return 0;
}

void cr_perf_close(cr_perf *p)
{
    for (size_t t = 0; t < p->threads; ++t)
        for (int k = 0; k < CR_PERF_EVENTS; ++k)
            if (p->fd[t][k] >= 0)
                close(p->fd[t][k]);
    p->threads = 0;
}
