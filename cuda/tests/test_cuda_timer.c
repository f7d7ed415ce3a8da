/* The event timer's steps, followed without a GPU through the runtime calls
 * it makes (cr_cuda_timer_runtime): a gated interval launches the gate
 * kernel with both its words closed, then records the start; its stop
 * records the end before it opens the gate, and waits only after; a gate
 * that gave up fails the interval in one line; an ungated interval has no
 * gate; a gate left closed by an interval that never stopped is opened and
 * waited for before the next one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuda_timer.h"
#include "call_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the runtime as the test plays it: each call appends to a log ---- */

static struct {
    char log[1024];
    unsigned gate[CR_CUDA_GATE_WORDS]; /* the mapped words, host and device alike */
    int events[2];                     /* what the fake event handles point at */
    int made;
    bool give_up; /* the gate kernel gives up during the next synchronisation */
} fake;

static cr_cuda_timer timer;

#define say(...) call_log_append(fake.log, sizeof fake.log, __VA_ARGS__)

static const char *event_name(cudaEvent_t e) { return e == timer.start ? "start" : e == timer.stop ? "stop" : "?"; }

static cudaError_t fake_event_create(cudaEvent_t *e)
{
    *e = (cudaEvent_t)(void *)&fake.events[fake.made++ % 2];
    return cudaSuccess;
}

static cudaError_t fake_event_destroy(cudaEvent_t e)
{
    say("destroy(%s) ", event_name(e));
    return cudaSuccess;
}

/* A record says whether the gate was open when it was enqueued. */
static cudaError_t fake_event_record(cudaEvent_t e, cudaStream_t s)
{
    (void)s;
    say("record(%s,%s) ", event_name(e), fake.gate[CR_CUDA_GATE_OPEN] ? "open" : "closed");
    return cudaSuccess;
}

/* The device runs the stream to the event: the gate kernel ends, having
 * given up if the test says so. */
static cudaError_t fake_event_synchronize(cudaEvent_t e)
{
    say("sync(%s,%s) ", event_name(e), fake.gate[CR_CUDA_GATE_OPEN] ? "open" : "closed");
    if (fake.give_up)
        fake.gate[CR_CUDA_GATE_TIMED_OUT] = 1;
    fake.give_up = false;
    return cudaSuccess;
}

static cudaError_t fake_elapsed(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    assert_ptr_equal(start, timer.start);
    assert_ptr_equal(stop, timer.stop);
    *ms = 1.5f;
    return cudaSuccess;
}

static cudaError_t fake_host_alloc(void **host, void **dev, size_t bytes)
{
    assert_int_equal(bytes, sizeof fake.gate);
    *host = *dev = fake.gate;
    say("alloc ");
    return cudaSuccess;
}

static cudaError_t fake_free_host(void *host)
{
    assert_ptr_equal(host, fake.gate);
    say("free ");
    return cudaSuccess;
}

/* The gate kernel must start with both words closed, and wait long enough
 * for any honest enqueue but not forever. */
static cudaError_t fake_launch_gate(unsigned *gate_dev, unsigned long long timeout_ns, cudaStream_t s)
{
    (void)s;
    assert_ptr_equal(gate_dev, fake.gate);
    assert_true(timeout_ns >= 1000000000ull && timeout_ns <= 10000000000ull);
    say("gate(%u%u) ", fake.gate[CR_CUDA_GATE_OPEN], fake.gate[CR_CUDA_GATE_TIMED_OUT]);
    return cudaSuccess;
}

static cudaError_t fake_device_synchronize(void)
{
    say("dsync(%s) ", fake.gate[CR_CUDA_GATE_OPEN] ? "open" : "closed");
    return cudaSuccess;
}

static int make_timer(void **state)
{
    (void)state;
    static const cr_cuda_timer_runtime calls = {
        fake_event_create, fake_event_destroy, fake_event_record,       fake_event_synchronize, fake_elapsed,
        fake_host_alloc,   fake_free_host,     fake_launch_gate,        fake_device_synchronize,
    };
    memset(&fake, 0, sizeof fake);
    cr_cuda_timer_set_runtime(&calls);
    char err[CR_ERRLEN];
    if (cr_cuda_timer_create(&timer, err, sizeof err) != CR_OK)
        return -1;
    fake.log[0] = '\0';
    return 0;
}

static int destroy_timer(void **state)
{
    (void)state;
    cr_cuda_timer_destroy(&timer);
    cr_cuda_timer_set_runtime(NULL);
    return 0;
}

static void expect_log(const char *want)
{
    if (strcmp(fake.log, want) != 0)
        fail_msg("calls: '%s'\n  want: '%s'", fake.log, want);
    fake.log[0] = '\0';
}

/* The line the timer's last call left: the steps below check each call's
 * status, and a test reads the line where a call was meant to fail. */
static char timer_err[CR_ERRLEN];

static void start_gated(void)
{
    assert_int_equal(cr_cuda_timer_start(&timer, 0, timer_err, sizeof timer_err), CR_OK);
}

static void start_ungated(void)
{
    assert_int_equal(cr_cuda_timer_start_ungated(&timer, 0, timer_err, sizeof timer_err), CR_OK);
}

/* Stops the interval, which must end in want; the timing it gave. */
static cr_timing stop_interval(cr_status want)
{
    cr_timing t = {0};
    assert_int_equal(cr_cuda_timer_stop(&timer, 0, &t, timer_err, sizeof timer_err), want);
    return t;
}

/* ---- the steps ---- */

static void test_gated_interval_starts_behind_the_gate(void **state)
{
    (void)state;
    fake.gate[CR_CUDA_GATE_OPEN] = 1; /* as the previous interval left it */
    fake.gate[CR_CUDA_GATE_TIMED_OUT] = 1;
    start_gated();
    expect_log("gate(00) record(start,closed) ");
    cr_timing t = stop_interval(CR_OK);
    /* The end is enqueued while the gate holds the stream; the host waits
     * only once it has opened it. */
    expect_log("record(stop,closed) sync(stop,open) ");
    assert_true(t.has_event);
    assert_int_equal(t.ev_start_ns, 0);
    assert_int_equal(t.ev_end_ns, 1500000);
}

static void test_gate_that_gave_up_fails_the_interval(void **state)
{
    (void)state;
    start_gated();
    fake.give_up = true;
    cr_timing t = stop_interval(CR_ERR);
    assert_non_null(strstr(timer_err, "timing gate gave up after 2 s: the host blocked between cr_cuda_timer_start"));
    assert_null(strchr(timer_err, '\n'));
    assert_false(t.has_event);
    /* The next interval starts with the word cleared. */
    fake.log[0] = '\0';
    start_gated();
    expect_log("gate(00) record(start,closed) ");
    stop_interval(CR_OK);
}

static void test_ungated_interval_has_no_gate(void **state)
{
    (void)state;
    fake.give_up = true; /* a stale word must not fail an interval without a gate */
    fake.gate[CR_CUDA_GATE_TIMED_OUT] = 1;
    start_ungated();
    cr_timing t = stop_interval(CR_OK);
    expect_log("record(start,closed) record(stop,closed) sync(stop,closed) ");
    assert_int_equal(t.ev_end_ns, 1500000);
}

/* An interval abandoned between start and stop (its caller returned on an
 * error) leaves the gate kernel waiting: the next start lets it go first. */
static void test_abandoned_gate_is_released_before_the_next(void **state)
{
    (void)state;
    start_gated();
    start_gated();
    expect_log("gate(00) record(start,closed) dsync(open) gate(00) record(start,closed) ");
    stop_interval(CR_OK);
    /* And destroying a timer whose gate is closed opens it before the
     * memory the kernel reads is freed. */
    fake.log[0] = '\0';
    start_gated();
    cr_cuda_timer_destroy(&timer);
    expect_log("gate(00) record(start,closed) dsync(open) destroy(start) destroy(stop) free ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gated_interval_starts_behind_the_gate, make_timer, destroy_timer),
        cmocka_unit_test_setup_teardown(test_gate_that_gave_up_fails_the_interval, make_timer, destroy_timer),
        cmocka_unit_test_setup_teardown(test_ungated_interval_has_no_gate, make_timer, destroy_timer),
        cmocka_unit_test_setup_teardown(test_abandoned_gate_is_released_before_the_next, make_timer, destroy_timer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
