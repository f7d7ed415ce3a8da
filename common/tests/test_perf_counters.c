/* The hardware counters (perf_counters.c): each errno perf_event_open can
 * give becomes its reason in words, and a failed open, played through the
 * system call's seam, leaves nothing open and says why. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "perf_counters.h"
#include "tests/test_main.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void expect_reason(int err, int paranoid, const char *want)
{
    char why[200];
    cr_perf_reason(err, paranoid, why, sizeof why);
    assert_string_equal(why, want);
}

static void test_reasons(void **state)
{
    (void)state;
    expect_reason(ENOENT, 2, "unavailable: the CPU or hypervisor exposes no such hardware event (ENOENT)");
    expect_reason(EOPNOTSUPP, 2, "unavailable: the CPU or hypervisor exposes no such hardware event (EOPNOTSUPP)");
    expect_reason(ENODEV, 2, "unavailable: no PMU for this event (ENODEV)");
    expect_reason(EACCES, 3, "unavailable: perf_event_paranoid is 3, which forbids counters to users (EACCES)");
    expect_reason(EPERM, 2, "unavailable: not permitted (EPERM; perf_event_paranoid 2)");
    expect_reason(EACCES, -99, "unavailable: not permitted (EACCES)");
    expect_reason(ENOSYS, 1, "unavailable: the kernel has no perf_event_open (ENOSYS)");
    expect_reason(EMFILE, 1, "unavailable: out of file descriptors (EMFILE)");
    char why[200], want[200];
    cr_perf_reason(EINVAL, 1, why, sizeof why);
    snprintf(want, sizeof want, "unavailable: perf_event_open: %s", strerror(EINVAL));
    assert_string_equal(why, want);
}

static int calls, fail_at, fail_errno;
static int opened[64];

/* Succeeds with a real descriptor (of /dev/null) until call fail_at. */
static long fake_open(void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
    (void)attr, (void)pid, (void)group_fd, (void)flags;
    assert_int_equal(cpu, -1);
    if (++calls == fail_at) {
        errno = fail_errno;
        return -1;
    }
    int fd = open("/dev/null", O_RDONLY);
    if (calls <= 64)
        opened[calls - 1] = fd;
    return fd;
}

static void test_failed_open_says_why_and_closes_all(void **state)
{
    (void)state;
    cr_perf_open_fn saved = cr_perf_open_call;
    cr_perf_open_call = fake_open;
    calls = 0;
    fail_at = 2; /* the second counter of the first thread */
    fail_errno = ENOENT;
    cr_perf p;
    assert_int_equal(cr_perf_open(&p), -1);
    assert_string_equal(p.why, "unavailable: the CPU or hypervisor exposes no such hardware event (ENOENT)");
    assert_int_equal(p.threads, 0);
    /* the descriptor opened before the failure was closed */
    assert_int_equal(fcntl(opened[0], F_GETFD), -1);
    cr_perf_open_call = saved;
}

/* One counter pair per thread that exists: two threads' worth of calls. */
static void test_every_thread_gets_counters(void **state)
{
    (void)state;
    cr_perf_open_fn saved = cr_perf_open_call;
    cr_perf_open_call = fake_open;
    calls = 0;
    fail_at = 0;
    cr_perf p;
    assert_int_equal(cr_perf_open(&p), 0);
    assert_true(p.threads >= 1);
    assert_int_equal((size_t)calls, p.threads * CR_PERF_EVENTS);
    uint64_t counts[CR_PERF_EVENTS];
    /* /dev/null reads nothing: a counter that cannot be read is a reason too */
    assert_int_equal(cr_perf_read(&p, counts), -1);
    assert_non_null(strstr(p.why, "unavailable: reading a counter failed"));
    cr_perf_close(&p);
    cr_perf_open_call = saved;
}

TEST_MAIN(NULL, NULL, test_reasons, test_failed_open_says_why_and_closes_all, test_every_thread_gets_counters)
