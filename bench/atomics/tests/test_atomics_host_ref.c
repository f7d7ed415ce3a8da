#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "atomics/backend.h"

#define AT_U32 uint32_t
#include "atomics/pattern.h"

#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static const at_backend *const be = &at_host_backend;

/* Enough operations per thread that two threads overlap on a shared
 * counter, few enough that float sums stay exact (below 2^24). */
#define ITERS 1000u

/* Two threads where the host has them: the fewest that can contend. */
static uint64_t threads(void)
{
    uint64_t wi, wg, mwg;
    be->geometry(&wi, &wg, &mwg);
    return wi < 2 ? wi : 2;
}

static int open_host(void **state)
{
    (void)state;
    cr_device_info info;
    char err[CR_ERRLEN] = "";
    if (be->base.open(NULL, &info, err, sizeof err) != CR_OK) {
        print_error("open: %s\n", err);
        return -1;
    }
    return 0;
}

static int close_host(void **state)
{
    (void)state;
    be->base.close();
    return 0;
}

/* ---- a plain sequential model of the kernels ---- */

static uint64_t wrap(at_type t, uint64_t v) { return t == AT_TYPE_U32 ? (uint32_t)v : v; }
static uint64_t top(at_type t) { return t == AT_TYPE_U32 ? UINT32_MAX : UINT64_MAX; }

static uint64_t get_u(at_type t, const void *buf, uint64_t i)
{
    if (t == AT_TYPE_U64)
        return ((const uint64_t *)buf)[i];
    return ((const uint32_t *)buf)[i];
}

static void set_u(at_type t, void *buf, uint64_t i, uint64_t v)
{
    if (t == AT_TYPE_U64)
        ((uint64_t *)buf)[i] = v;
    else
        ((uint32_t *)buf)[i] = (uint32_t)v;
}

/* Starting values that expose the usual mistakes: sums that wrap (and, for
 * 64 bits, carry across the low word), a min that must compare all 64 bits,
 * and a different value per element so that a wrong address shows. */
static uint64_t initial(at_op op, at_type t, uint64_t i)
{
    switch (op) {
    case AT_ADD:
    case AT_INC:
    case AT_CAS: return wrap(t, top(t) - 500 + i);
    case AT_XCHG: return 0;
    case AT_MIN: return top(t) - i;
    case AT_MAX: return i;
    case AT_READ: return t == AT_TYPE_U32 ? AT_INIT_READ + i : 0x5A5A5A5A5A5A5A5Au + i;
    default: return 0;
    }
}

/* The final value of counter k when the work-items of slot k run one after
 * another; xchg has no single answer and is checked apart. */
static uint64_t model_int(at_op op, at_type t, uint64_t init, uint64_t k_slot, uint64_t degree, uint64_t items)
{
    uint64_t c = init;
    for (uint64_t g = 0; g < items; ++g) {
        if (AT_SLOT(g, degree) != k_slot)
            continue;
        for (uint32_t j = 0; j < ITERS; ++j) {
            uint64_t v = AT_MINMAX_VALUE(g, j);
            switch (op) {
            case AT_ADD:
            case AT_CAS: c = wrap(t, c + AT_ADD_VALUE(g)); break;
            case AT_INC: c = wrap(t, c + 1); break;
            case AT_MIN: c = v < c ? v : c; break;
            case AT_MAX: c = v > c ? v : c; break;
            default: break;
            }
        }
    }
    return c;
}

static float model_float(float init, uint64_t k_slot, uint64_t degree, uint64_t items)
{
    float c = init;
    for (uint64_t g = 0; g < items; ++g)
        for (uint32_t j = 0; AT_SLOT(g, degree) == k_slot && j < ITERS; ++j)
            c += (float)AT_ADD_VALUE(g);
    return c;
}

static bool is_slot(uint64_t i, uint64_t stride, uint64_t slots) { return i % stride == 0 && i / stride < slots; }

static bool xchg_mark_of_slot(uint64_t value, uint64_t k_slot, uint64_t degree, uint64_t items)
{
    for (uint64_t g = 0; g < items; ++g)
        if (AT_SLOT(g, degree) == k_slot && value == AT_XCHG_VALUE(g))
            return true;
    return false;
}

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            print_error("op %d type %d degree %" PRIu64 " stride %" PRIu64 ": ", (int)op, (int)type, degree, \
                        stride);                                                                           \
            print_error(__VA_ARGS__);                                                                      \
            fail();                                                                                        \
        }                                                                                                  \
    } while (0)

/* Runs one configuration on the backend and checks every element of the
 * counter buffer (slots and the gaps between them) and every read sum. */
static void run_and_check(at_op op, at_type type, uint64_t degree, uint64_t stride)
{
    const uint64_t items = threads();
    const uint64_t slots = (items + degree - 1) / degree;
    const uint64_t n = slots * stride + 1; /* a gap after the last slot too */
    const size_t es = at_type_size(type);
    void *init = calloc(n, es), *got = calloc(n, es);
    uint64_t *outs = calloc(items, sizeof *outs);
    assert_non_null(init);
    assert_non_null(got);
    assert_non_null(outs);
    for (uint64_t i = 0; i < n; ++i) {
        if (type == AT_TYPE_F32)
            ((float *)init)[i] = 16.0f + (float)i;
        else
            set_u(type, init, i, initial(op, type, i));
    }

    char err[CR_ERRLEN] = "";
    const char *how = NULL;
    assert_int_equal(be->supports(op, type, AT_GLOBAL, &how, err, sizeof err), CR_OK);
    assert_non_null(how);
    assert_int_equal(be->prepare(type, n, items, err, sizeof err), CR_OK);
    assert_int_equal(be->upload(init, n, err, sizeof err), CR_OK);
    at_run r = {.op = op, .type = type, .space = AT_GLOBAL, .stride = stride, .degree = degree, .iters = ITERS,
                .work_items = items, .work_group = 1, .init = 0};
    cr_timing t = {.has_event = true};
    cr_status st = be->run(&r, &t, err, sizeof err);
    CHECK(st == CR_OK, "run: %s\n", err);
    assert_false(t.has_event);
    assert_int_equal(be->download(got, n, err, sizeof err), CR_OK);
    if (op == AT_READ)
        assert_int_equal(be->download_out(outs, items, err, sizeof err), CR_OK);

    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t k = i / stride;
        if (type == AT_TYPE_F32) {
            float have = ((float *)got)[i], was = ((float *)init)[i];
            float want = is_slot(i, stride, slots) ? model_float(was, k, degree, items) : was;
            CHECK(have == want, "element %" PRIu64 " is %g, want %g\n", i, (double)have, (double)want);
            continue;
        }
        const uint64_t have = get_u(type, got, i), was = get_u(type, init, i);
        if (!is_slot(i, stride, slots) || op == AT_READ)
            CHECK(have == was, "element %" PRIu64 " is %" PRIu64 ", must stay %" PRIu64 "\n", i, have, was);
        else if (op == AT_XCHG)
            CHECK(xchg_mark_of_slot(have, k, degree, items), "element %" PRIu64 " is %" PRIu64
                  ", the mark of no work-item of its slot\n", i, have);
        else {
            const uint64_t want = model_int(op, type, was, k, degree, items);
            CHECK(have == want, "element %" PRIu64 " is %" PRIu64 ", want %" PRIu64 "\n", i, have, want);
        }
    }
    for (uint64_t g = 0; op == AT_READ && g < items; ++g) {
        const uint64_t want = wrap(type, (uint64_t)ITERS * get_u(type, init, AT_INDEX(AT_SLOT(g, degree), stride)));
        CHECK(outs[g] == want, "work-item %" PRIu64 " read sum %" PRIu64 ", want %" PRIu64 "\n", g, outs[g], want);
    }
    free(init);
    free(got);
    free(outs);
}

static void sweep(at_op op, at_type type)
{
    const uint64_t degrees[] = {1, threads()}, strides[] = {1, 3};
    for (int d = 0; d < 2; ++d)
        for (int s = 0; s < 2; ++s)
            run_and_check(op, type, degrees[d], strides[s]);
}

static void test_integer_ops_match_the_model(void **state)
{
    (void)state;
    for (int op = 0; op < AT_NOPS; ++op) {
        sweep((at_op)op, AT_TYPE_U32);
        sweep((at_op)op, AT_TYPE_U64);
    }
}

static void test_float_add_matches_the_model(void **state)
{
    (void)state;
    sweep(AT_ADD, AT_TYPE_F32);
}

static void test_supports(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    const char *how = NULL;
    assert_int_equal(be->supports(AT_ADD, AT_TYPE_U32, AT_GLOBAL, &how, err, sizeof err), CR_OK);
    assert_string_equal(how, "native");
    assert_int_equal(be->supports(AT_ADD, AT_TYPE_F32, AT_GLOBAL, &how, err, sizeof err), CR_OK);
    assert_string_equal(how, "cas-loop");
    assert_int_equal(be->supports(AT_INC, AT_TYPE_U64, AT_GLOBAL, NULL, err, sizeof err), CR_OK);
    for (int op = 0; op < AT_NOPS; ++op) {
        err[0] = '\0';
        cr_status want = op == AT_ADD ? CR_OK : CR_UNSUPPORTED;
        assert_int_equal(be->supports((at_op)op, AT_TYPE_F32, AT_GLOBAL, NULL, err, sizeof err), want);
        if (want != CR_OK)
            assert_string_equal(err, "float supports add only");
        for (int t = 0; t < AT_NTYPES; ++t) {
            err[0] = '\0';
            assert_int_equal(be->supports((at_op)op, (at_type)t, AT_LOCAL, NULL, err, sizeof err), CR_UNSUPPORTED);
            assert_true(strlen(err) > 0);
        }
    }
}

static void test_locks_count_every_entry(void **state)
{
    (void)state;
    const uint64_t groups = threads();
    const uint32_t iters = 2000; /* a preempted holder stalls the rest: keep it short */
    char err[CR_ERRLEN] = "";
    for (int kind = 0; kind < AT_NLOCKS; ++kind) {
        uint64_t counter = 0;
        cr_timing t = {.has_event = true};
        assert_int_equal(be->run_lock((at_lock)kind, groups, iters, &t, &counter, err, sizeof err), CR_OK);
        assert_int_equal(counter, groups * iters);
        assert_false(t.has_event);
        /* A second run starts from a fresh lock and counter. */
        assert_int_equal(be->run_lock((at_lock)kind, groups, iters, &t, &counter, err, sizeof err), CR_OK);
        assert_int_equal(counter, groups * iters);
    }
}

static void expect_rejected(cr_status got, cr_status want, const char *err)
{
    assert_int_equal(got, want);
    assert_true(strlen(err) > 0);
}

static void test_bad_input_is_rejected(void **state)
{
    (void)state;
    uint64_t most, wg, mwg;
    be->geometry(&most, &wg, &mwg);
    char err[CR_ERRLEN];
    assert_int_equal(be->prepare(AT_TYPE_U32, 4 * (most + 2), most + 2, err, sizeof err), CR_OK);
    const at_run ok = {.op = AT_ADD, .type = AT_TYPE_U32, .space = AT_GLOBAL, .stride = 1, .degree = 1,
                       .iters = 1, .work_items = 1, .work_group = 1};
    cr_timing t;
    at_run r;

    r = ok, r.work_group = 2, r.work_items = 2, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok, r.work_items = most + 1, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok, r.work_items = 0, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok, r.space = AT_LOCAL, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_UNSUPPORTED, err);
    r = ok, r.type = AT_TYPE_F32, r.op = AT_MAX, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_UNSUPPORTED, err);
    r = ok, r.type = AT_TYPE_U64, err[0] = '\0'; /* 32-bit counters prepared */
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok, r.stride = 1000, r.work_items = most, err[0] = '\0'; /* a slot past the end */
    if (most > 1)
        expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok, r.stride = 0, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok, r.degree = 0, err[0] = '\0';
    expect_rejected(be->run(&r, &t, err, sizeof err), CR_ERR, err);
    r = ok;
    assert_int_equal(be->run(&r, &t, err, sizeof err), CR_OK);

    uint64_t counter;
    err[0] = '\0';
    expect_rejected(be->run_lock(AT_SPIN_LOCK, most + 1, 1, &t, &counter, err, sizeof err), CR_ERR, err);
    err[0] = '\0';
    expect_rejected(be->run_lock(AT_TICKET_LOCK, 0, 1, &t, &counter, err, sizeof err), CR_ERR, err);

    uint32_t buf[4];
    err[0] = '\0';
    expect_rejected(be->upload(buf, 4 * (most + 2) + 1, err, sizeof err), CR_ERR, err);
    uint64_t sums[1];
    assert_int_equal(be->prepare(AT_TYPE_U32, 4, 0, err, sizeof err), CR_OK);
    err[0] = '\0';
    expect_rejected(be->download_out(sums, 1, err, sizeof err), CR_ERR, err);
}

/* Inside an active parallel region OpenMP hands out one thread however
 * many are asked for; the run must fail rather than time half a pattern. */
static void test_short_team_is_an_error(void **state)
{
    (void)state;
    const uint64_t items = threads();
    if (items < 2)
        skip();
    char err[CR_ERRLEN];
    assert_int_equal(be->prepare(AT_TYPE_U32, items, items, err, sizeof err), CR_OK);
    const at_run r = {.op = AT_INC, .type = AT_TYPE_U32, .space = AT_GLOBAL, .stride = 1, .degree = 1,
                      .iters = 1, .work_items = items, .work_group = 1};
    cr_status run_st = CR_OK, lock_st = CR_OK;
    int outer = 0;
    char run_err[CR_ERRLEN] = "", lock_err[CR_ERRLEN] = "";
    const int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        cr_timing t;
        uint64_t counter;
        outer = omp_get_num_threads();
        run_st = be->run(&r, &t, run_err, sizeof run_err);
        lock_st = be->run_lock(AT_SPIN_LOCK, items, 1, &t, &counter, lock_err, sizeof lock_err);
    }
    omp_set_max_active_levels(levels);
    if (outer < 2)
        skip(); /* an inactive outer region nests nothing */
    expect_rejected(run_st, CR_ERR, run_err);
    expect_rejected(lock_st, CR_ERR, lock_err);
}

static void test_no_kernels_to_launch(void **state)
{
    (void)state;
    char err[CR_ERRLEN] = "";
    double start, round_trip;
    expect_rejected(be->launch_empty(&start, &round_trip, err, sizeof err), CR_UNSUPPORTED, err);
}

static void test_device_and_geometry(void **state)
{
    (void)state;
    cr_device_info info;
    char err[CR_ERRLEN];
    assert_int_equal(be->base.open(NULL, &info, err, sizeof err), CR_OK);
    assert_string_equal(info.vendor, "host");
    assert_true(info.is_cpu && info.unified_memory && info.has_fp64);
    assert_true(strncmp(info.api_version, "C11 <stdatomic.h>, OpenMP ", 26) == 0);
    assert_true(info.compute_units >= 1);
    assert_int_equal(info.max_work_group, 1);
    assert_int_equal(info.max_threads_per_cu, 1);
    assert_true(strlen(info.name) > 0);
    assert_string_equal(be->base.name, "host-c11");

    uint64_t wi, wg, mwg;
    be->geometry(&wi, &wg, &mwg);
    assert_true(wi >= 1 && wi <= info.compute_units);
    assert_int_equal(wg, 1);
    assert_int_equal(mwg, 1);

    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(be->base.list_devices(f), CR_OK);
    rewind(f);
    char line[256] = "", want[256];
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    snprintf(want, sizeof want, "0  host CPU (C11 atomics, %" PRIu64 " threads)\n", wi);
    assert_string_equal(line, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_and_geometry),
        cmocka_unit_test(test_supports),
        cmocka_unit_test(test_integer_ops_match_the_model),
        cmocka_unit_test(test_float_add_matches_the_model),
        cmocka_unit_test(test_locks_count_every_entry),
        cmocka_unit_test(test_bad_input_is_rejected),
        cmocka_unit_test(test_short_team_is_an_error),
        cmocka_unit_test(test_no_kernels_to_launch),
    };
    return cmocka_run_group_tests(tests, open_host, close_host);
}
