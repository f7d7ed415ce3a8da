/* Several streams timed as one interval (cuda/bandwidth/fork_join.c),
 * followed without a GPU through the runtime calls it makes: the timer's
 * stream records the fork after whatever the timer put there, every
 * worker's stream waits for it on its own device before its work is
 * enqueued and records its done event after, and the timer's stream waits
 * for every done event, on its own device again, so that the stop the
 * caller records next follows the last transfer. A failure stops there,
 * names the call and gives the benchmark's device back. And the caller
 * (cuda/bandwidth/transfers.cu) stops the timer whatever happened between
 * its start and its stop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../bandwidth/fork_join.h"
#include "tests/cuda_source.h"
#include "call_log.h"

#include <stdio.h>
#include <string.h>

#ifndef BW_CUDA_TRANSFERS_SRC
#error "build with -DBW_CUDA_TRANSFERS_SRC (bench/bandwidth/build.mk)"
#endif

/* ---- the runtime as the test plays it: each call appends to a log ---- */

static struct {
    char log[1024];
    int streams[4], events[4];       /* what the fake handles point at: stream 0 is the timer's */
    const char *fail_at;             /* the call that fails, by its log word */
    unsigned fail_enqueue;           /* 1 + the worker whose enqueue fails, 0 none */
} fake;

#define say(...) call_log_append(fake.log, sizeof fake.log, __VA_ARGS__)

static cudaStream_t stream(int i) { return (cudaStream_t)(void *)&fake.streams[i]; }
static cudaEvent_t event(int i) { return (cudaEvent_t)(void *)&fake.events[i]; }
static int stream_no(cudaStream_t s) { return (int)((int *)(void *)s - fake.streams); }
/* Event 0 is the fork, event i the done event of worker i - 1. */
static void say_event(cudaEvent_t e)
{
    int i = (int)((int *)(void *)e - fake.events);
    if (i == 0)
        say("fork");
    else
        say("done%d", i - 1);
}

static cudaError_t outcome(const char *word)
{
    return fake.fail_at && strcmp(fake.fail_at, word) == 0 ? cudaErrorInvalidResourceHandle : cudaSuccess;
}

static cudaError_t fake_set_device(int d)
{
    say("dev%d ", d);
    return outcome("dev");
}

static cudaError_t fake_record(cudaEvent_t e, cudaStream_t s)
{
    say("record(");
    say_event(e);
    say(",s%d) ", stream_no(s));
    return outcome("record");
}

static cudaError_t fake_wait(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    assert_int_equal(flags, 0);
    say("wait(s%d,", stream_no(s));
    say_event(e);
    say(") ");
    return outcome("wait");
}

static cudaError_t fake_enqueue(void *ctx, unsigned i, const char **what)
{
    assert_ptr_equal(ctx, &fake);
    say("work%u ", i);
    *what = "cudaMemcpyAsync";
    return fake.fail_enqueue == i + 1 ? cudaErrorInvalidValue : cudaSuccess;
}

/* Two workers: one on the benchmark's device 1, one on device 3. */
static const bw_worker *workers(void)
{
    static bw_worker w[2];
    w[0] = (bw_worker){1, stream(1), event(1)};
    w[1] = (bw_worker){3, stream(2), event(2)};
    return w;
}

static cudaError_t fork_join(const char **what)
{
    fake.log[0] = '\0';
    return bw_fork_join(1, stream(0), event(0), workers(), 2, fake_enqueue, &fake, what);
}

static int seam(void **state)
{
    (void)state;
    static const bw_fork_join_runtime calls = {fake_set_device, fake_record, fake_wait};
    memset(&fake, 0, sizeof fake);
    bw_fork_join_set_runtime(&calls);
    return 0;
}

static int no_seam(void **state)
{
    (void)state;
    bw_fork_join_set_runtime(NULL);
    return 0;
}

static void expect_log(const char *want)
{
    if (strcmp(fake.log, want) != 0)
        fail_msg("calls: '%s'\n  want: '%s'", fake.log, want);
}

static void test_every_stream_waits_for_the_fork_and_is_joined(void **state)
{
    (void)state;
    const char *what = NULL;
    assert_int_equal(fork_join(&what), cudaSuccess);
    expect_log("dev1 record(fork,s0) "
               "dev1 wait(s1,fork) work0 record(done0,s1) "
               "dev3 wait(s2,fork) work1 record(done1,s2) "
               "dev1 wait(s0,done0) wait(s0,done1) ");
}

static void test_failed_enqueue_stops_and_gives_the_device_back(void **state)
{
    (void)state;
    const char *what = NULL;
    fake.fail_enqueue = 2;
    assert_int_equal(fork_join(&what), cudaErrorInvalidValue);
    assert_string_equal(what, "cudaMemcpyAsync");
    expect_log("dev1 record(fork,s0) dev1 wait(s1,fork) work0 record(done0,s1) dev3 wait(s2,fork) work1 dev1 ");
}

static void test_failed_join_names_the_call(void **state)
{
    (void)state;
    const char *what = NULL;
    fake.fail_at = "wait";
    assert_int_equal(fork_join(&what), cudaErrorInvalidResourceHandle);
    assert_string_equal(what, "cudaStreamWaitEvent(fork)");
    expect_log("dev1 record(fork,s0) dev1 wait(s1,fork) dev1 ");
    fake.fail_at = "record";
    assert_int_equal(fork_join(&what), cudaErrorInvalidResourceHandle);
    assert_string_equal(what, "cudaEventRecord(fork)");
    expect_log("dev1 record(fork,s0) dev1 ");
}

/* The caller's interval: the start, the fork and join, then the stop with
 * no way out between them (a gated start left without its stop would hold
 * the stream), the fork's error reported only after the stop. */
static void test_transfers_always_stop_the_timer(void **state)
{
    (void)state;
    char *src = cuda_source_must_read(BW_CUDA_TRANSFERS_SRC);
    char *run = cuda_source_span(src, "cr_status bw_transfers_run(", "\n}\n");
    assert_non_null(run);
    const char *start = strstr(run, "cr_cuda_timer_start(timer");
    const char *fork = strstr(run, "bw_fork_join(");
    const char *stop = strstr(run, "cr_cuda_timer_stop(");
    const char *report = strstr(run, "return cr_cuda_error(rc");
    assert_non_null(start);
    assert_non_null(fork);
    assert_non_null(stop);
    assert_non_null(report);
    assert_true(start < fork && fork < stop && stop < report);
    char *between = cuda_source_span(run, "bw_fork_join(", "cr_cuda_timer_stop(");
    assert_non_null(between);
    for (size_t i = 0; i < sizeof cuda_early_exits / sizeof cuda_early_exits[0]; ++i)
        if (strstr(between, cuda_early_exits[i]) != NULL)
            fail_msg("%s between the fork and the timer's stop", cuda_early_exits[i]);
    for (size_t i = 0; i < sizeof cuda_blocking_calls / sizeof cuda_blocking_calls[0]; ++i)
        if (strstr(between, cuda_blocking_calls[i]) != NULL)
            fail_msg("%s between the fork and the timer's stop", cuda_blocking_calls[i]);
    free(between);
    /* What each worker enqueues blocks in nothing either. */
    char *enqueue = cuda_source_span(src, "static cudaError_t enqueue(", "\n}\n");
    assert_non_null(enqueue);
    for (size_t i = 0; i < sizeof cuda_blocking_calls / sizeof cuda_blocking_calls[0]; ++i)
        if (strstr(enqueue, cuda_blocking_calls[i]) != NULL)
            fail_msg("enqueue() calls %s, which may block in a gated interval", cuda_blocking_calls[i]);
    free(enqueue);
    free(run);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_stream_waits_for_the_fork_and_is_joined, seam, no_seam),
        cmocka_unit_test_setup_teardown(test_failed_enqueue_stops_and_gives_the_device_back, seam, no_seam),
        cmocka_unit_test_setup_teardown(test_failed_join_names_the_call, seam, no_seam),
        cmocka_unit_test(test_transfers_always_stop_the_timer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
