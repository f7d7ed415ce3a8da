/* The atomics benchmark's model: addresses from stride and degree against
 * a plain model, the counter sizes, the float limit, and the verification
 * catching every kind of wrong result, min and max against trying every
 * operation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "atomics/truth.h"

#include <stdlib.h>
#include <string.h>

#define AT_U32 uint32_t
#include "atomics/pattern.h"

#define countof(a) (sizeof(a) / sizeof((a)[0]))

static at_run make(at_op op, at_type t, at_space sp, uint64_t stride, uint64_t degree, uint64_t wi, uint64_t wg)
{
    return (at_run){op, t, sp, stride, degree, 3, wi, wg, at_init_value(op, t)};
}

static void test_addresses_against_a_plain_model(void **state)
{
    (void)state;
    /* The model written out: work-items in runs of degree, slot k at k * stride. */
    const uint64_t strides[] = {1, 2, 3, 16, 1024}, degrees[] = {1, 2, 3, 7, 32, 100};
    for (size_t a = 0; a < 5; ++a)
        for (size_t b = 0; b < 6; ++b) {
            at_run r = make(AT_ADD, AT_TYPE_U32, AT_GLOBAL, strides[a], degrees[b], 100, 10);
            uint64_t slot = 0, run_left = degrees[b], last = 0;
            for (uint64_t g = 0; g < 100; ++g) {
                assert_int_equal(at_element_of(&r, g), slot * strides[a]);
                last = slot * strides[a];
                if (--run_left == 0) {
                    ++slot;
                    run_left = degrees[b];
                }
            }
            /* The buffer ends right after the last slot. */
            assert_int_equal(at_counter_elements(&r), last + 1);
        }
    assert_int_equal(at_slots(100, 7), 15);
    assert_int_equal(at_slots(100, 100), 1);
    assert_int_equal(at_slots(100, 1), 100);
    /* Local: one packed value per slot and group. */
    at_run l = make(AT_ADD, AT_TYPE_U32, AT_LOCAL, 8, 3, 64, 16);
    assert_int_equal(at_counter_elements(&l), 4 * 6);
    /* 64-bit sizes: a large stride times many work-items does not wrap. */
    at_run big = make(AT_ADD, AT_TYPE_U64, AT_GLOBAL, 1024, 1, UINT64_C(1) << 22, 256);
    assert_int_equal(at_counter_elements(&big), ((UINT64_C(1) << 22) - 1) * 1024 + 1);
}

static void test_initial_values_and_float_limit(void **state)
{
    (void)state;
    assert_int_equal(at_init_value(AT_MIN, AT_TYPE_U32), 0xFFFFFFFFu);
    assert_true(at_init_value(AT_MIN, AT_TYPE_U64) == UINT64_MAX);
    assert_int_equal(at_init_value(AT_MAX, AT_TYPE_U32), 0);
    assert_int_equal(at_init_value(AT_READ, AT_TYPE_U32), AT_INIT_READ);
    assert_int_equal(at_init_value(AT_ADD, AT_TYPE_F32), 0);
    /* 2^24 / (4 * degree) operations keep every float sum exact. */
    assert_int_equal(at_float_exact_iters(1, 1000), 1000);
    assert_int_equal(at_float_exact_iters(4096, 5000), 1024);
    assert_int_equal(at_float_exact_iters(UINT64_C(1) << 30, 5000), 1);
}

/* Runs the pattern sequentially, the way any correct device must end up. */
static void simulate(const at_run *r, void *counters, uint64_t *sums)
{
    uint64_t n = at_counter_elements(r);
    size_t es = at_type_size(r->type);
    uint64_t mask = es == 8 ? UINT64_MAX : UINT32_MAX;
    uint64_t *wide = calloc(n, sizeof *wide);
    float *fl = calloc(n, sizeof *fl);
    for (uint64_t e = 0; e < n; ++e)
        wide[e] = at_init_value(r->op, r->type) & mask;
    for (uint64_t g = 0; g < r->work_items; ++g) {
        uint64_t e = at_element_of(r, g);
        sums[g] = 0;
        for (uint32_t j = 0; j < r->iters; ++j) {
            switch (r->op) {
            case AT_ADD:
            case AT_CAS: wide[e] = (wide[e] + AT_ADD_VALUE(g)) & mask; fl[e] += (float)AT_ADD_VALUE(g); break;
            case AT_INC: wide[e] = (wide[e] + 1) & mask; break;
            case AT_XCHG: wide[e] = AT_XCHG_VALUE(g); break;
            case AT_MIN: if (AT_MINMAX_VALUE(g, j) < wide[e]) wide[e] = AT_MINMAX_VALUE(g, j); break;
            case AT_MAX: if (AT_MINMAX_VALUE(g, j) > wide[e]) wide[e] = AT_MINMAX_VALUE(g, j); break;
            default: sums[g] = (sums[g] + wide[e]) & mask; break;
            }
        }
    }
    for (uint64_t e = 0; e < n; ++e) {
        if (r->type == AT_TYPE_F32)
            memcpy((uint32_t *)counters + e, &fl[e], 4);
        else if (es == 8)
            ((uint64_t *)counters)[e] = wide[e];
        else
            ((uint32_t *)counters)[e] = (uint32_t)wide[e];
    }
    free(wide);
    free(fl);
}

static void test_verification_accepts_correct_and_catches_wrong_results(void **state)
{
    (void)state;
    char note[320];
    uint64_t sums[64];
    for (int op = 0; op < AT_NOPS; ++op)
        for (int t = 0; t < AT_NTYPES; ++t) {
            if (t == AT_TYPE_F32 && op != AT_ADD)
                continue;
            at_run r = make((at_op)op, (at_type)t, AT_GLOBAL, 3, 4, 64, 16);
            uint64_t n = at_counter_elements(&r);
            uint64_t *buf = calloc(n, 8);
            simulate(&r, buf, sums);
            if (at_truth_check(&r, buf, sums, note, sizeof note) != 0)
                fail_msg("%s %s: %s", at_op_names[op], at_type_names[t], note);
            /* A lost update in the first slot. */
            if (t == AT_TYPE_U64)
                ((uint64_t *)buf)[0] ^= 1;
            else
                ((uint32_t *)buf)[0] ^= 1;
            if (op != AT_XCHG) /* xchg may legitimately end on another member's mark */
                assert_true(at_truth_check(&r, buf, sums, note, sizeof note) >= 1);
            simulate(&r, buf, sums);
            /* A write between two slots. */
            if (t == AT_TYPE_U64)
                ((uint64_t *)buf)[1] = 99;
            else
                ((uint32_t *)buf)[1] = 99;
            assert_int_equal(at_truth_check(&r, buf, sums, note, sizeof note), 1);
            assert_non_null(strstr(note, "between slots"));
            free(buf);
        }
    /* xchg: the final value must be a member's mark, not any mark. */
    at_run x = make(AT_XCHG, AT_TYPE_U32, AT_GLOBAL, 1, 4, 8, 8);
    uint32_t c[2] = {AT_XCHG_VALUE(2), AT_XCHG_VALUE(5)};
    assert_int_equal(at_truth_check(&x, c, NULL, note, sizeof note), 0);
    c[1] = AT_XCHG_VALUE(2); /* work-item 2 is not in slot 1 */
    assert_int_equal(at_truth_check(&x, c, NULL, note, sizeof note), 1);
    assert_non_null(strstr(note, "not the mark"));
    /* read: a wrong sum is caught, a right one passes. */
    at_run rd = make(AT_READ, AT_TYPE_U32, AT_GLOBAL, 1, 1, 4, 4);
    uint32_t rc[4];
    uint64_t rs[4];
    simulate(&rd, rc, rs);
    assert_int_equal(at_truth_check(&rd, rc, rs, note, sizeof note), 0);
    assert_int_equal(rs[0], ((uint64_t)AT_INIT_READ * 3) & UINT32_MAX);
    rs[2] += 1;
    assert_int_equal(at_truth_check(&rd, rc, rs, note, sizeof note), 1);
    assert_non_null(strstr(note, "work-item 2"));
}

static void test_local_counters(void **state)
{
    (void)state;
    char note[320];
    /* Two groups of 8, 3 per counter: slots {0,1,2} {3,4,5} {6,7} per group. */
    at_run r = {AT_INC, AT_TYPE_U32, AT_LOCAL, 1, 3, 10, 16, 8, 0};
    uint32_t c[6] = {30, 30, 20, 30, 30, 20};
    assert_int_equal(at_truth_check(&r, c, NULL, note, sizeof note), 0);
    c[5] = 30;
    assert_int_equal(at_truth_check(&r, c, NULL, note, sizeof note), 1);
    /* add uses the global ids' operands: group 1 starts at work-item 8. */
    at_run a = {AT_ADD, AT_TYPE_U32, AT_LOCAL, 1, 8, 1, 16, 8, 0};
    uint32_t s[2] = {0, 0};
    for (uint32_t g = 0; g < 16; ++g)
        s[g / 8] += AT_ADD_VALUE(g);
    assert_int_equal(at_truth_check(&a, s, NULL, note, sizeof note), 0);
}

/* The value a min or max counter must hold, by trying every operation of
 * every member, as the check once did. */
static uint64_t every_operation(const at_run *r, uint64_t first, uint64_t last)
{
    uint64_t v = (r->space == AT_LOCAL ? r->init : at_init_value(r->op, r->type)) &
                 (r->type == AT_TYPE_U64 ? UINT64_MAX : UINT32_MAX);
    for (uint64_t g = first; g < last; ++g)
        for (uint32_t j = 0; j < r->iters; ++j)
            if (r->op == AT_MIN ? AT_MINMAX_VALUE(g, j) < v : AT_MINMAX_VALUE(g, j) > v)
                v = AT_MINMAX_VALUE(g, j);
    return v;
}

static void store(const at_run *r, void *counters, uint64_t e, uint64_t v)
{
    if (r->type == AT_TYPE_U64)
        ((uint64_t *)counters)[e] = v;
    else
        ((uint32_t *)counters)[e] = (uint32_t)v;
}

/* Fills the counters of a min or max run as a correct device leaves them;
 * returns how many there are. */
static uint64_t fill_min_max(const at_run *r, void *counters)
{
    uint64_t n = at_counter_elements(r);
    for (uint64_t e = 0; e < n; ++e)
        store(r, counters, e, at_init_value(r->op, r->type)); /* the elements between slots */
    if (r->space == AT_LOCAL) {
        uint64_t per = at_slots(r->work_group, r->degree);
        for (uint64_t grp = 0; grp < r->work_items / r->work_group; ++grp)
            for (uint64_t s = 0; s < per; ++s) {
                uint64_t first = grp * r->work_group + s * r->degree, end = (grp + 1) * r->work_group;
                store(r, counters, grp * per + s, every_operation(r, first, first + r->degree < end ? first + r->degree : end));
            }
    } else {
        for (uint64_t s = 0; s < at_slots(r->work_items, r->degree); ++s) {
            uint64_t first = s * r->degree, end = r->work_items;
            store(r, counters, AT_INDEX(s, r->stride),
                  every_operation(r, first, first + r->degree < end ? first + r->degree : end));
        }
    }
    return n;
}

/* min and max, whose check no longer tries every operation of every
 * member: every counter as trying them all says, for one work-item per
 * counter up to every work-item on one, in both memory spaces and widths,
 * from one operation to thousands; and a wrong value in the first, a
 * middle or the last counter is caught. */
static void test_min_max_against_every_operation(void **state)
{
    (void)state;
    char note[320];
    const uint32_t iters[] = {1, 3, 1000};
    const uint64_t degrees[] = {1, 7, 256, 1024};
    for (int op = AT_MIN; op <= AT_MAX; ++op)
        for (int t = AT_TYPE_U32; t <= AT_TYPE_U64; ++t)
            for (int sp = 0; sp < AT_NSPACES; ++sp)
                for (size_t i = 0; i < countof(iters); ++i)
                    for (size_t d = 0; d < countof(degrees); ++d) {
                        at_run r = make((at_op)op, (at_type)t, (at_space)sp, sp == AT_GLOBAL ? 2 : 1, degrees[d],
                                        1024, 128);
                        r.iters = iters[i];
                        uint64_t *buf = calloc(at_counter_elements(&r), 8);
                        uint64_t n = fill_min_max(&r, buf);
                        if (at_truth_check(&r, buf, NULL, note, sizeof note) != 0)
                            fail_msg("%s %s %s, %u operations, degree %llu: %s", at_op_names[op], at_type_names[t],
                                     at_space_names[sp], r.iters, (unsigned long long)r.degree, note);
                        const uint64_t planted[] = {0, n / 2 / r.stride * r.stride, n - 1};
                        for (size_t k = 0; k < countof(planted); ++k) {
                            uint64_t e = planted[k], was = t == AT_TYPE_U64 ? buf[e] : ((uint32_t *)buf)[e];
                            store(&r, buf, e, was ^ 1);
                            assert_int_equal(at_truth_check(&r, buf, NULL, note, sizeof note), 1);
                            store(&r, buf, e, was);
                        }
                        free(buf);
                    }
    /* Many operations on few work-items, and the extremes the walk must
     * reach: min and max of one work-item over 2^17 operations. */
    for (int op = AT_MIN; op <= AT_MAX; ++op) {
        at_run r = make((at_op)op, AT_TYPE_U32, AT_GLOBAL, 1, 1, 5, 5);
        r.iters = 1u << 17;
        uint32_t c[5];
        fill_min_max(&r, c);
        assert_int_equal(at_truth_check(&r, c, NULL, note, sizeof note), 0);
        c[4] += op == AT_MIN ? 1 : -1; /* one step from the extreme */
        assert_int_equal(at_truth_check(&r, c, NULL, note, sizeof note), 1);
        assert_non_null(strstr(note, "counter 4 holds"));
    }
}

/* Every backend starts from the same list of runs that exist. */
static void test_which_runs_exist(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    for (int op = 0; op < AT_NOPS; ++op)
        for (int sp = 0; sp < AT_NSPACES; ++sp) {
            assert_int_equal(at_check_kind((at_op)op, AT_TYPE_U32, (at_space)sp, err, sizeof err), CR_OK);
            assert_int_equal(at_check_kind((at_op)op, AT_TYPE_U64, (at_space)sp, err, sizeof err), CR_OK);
            assert_int_equal(at_check_kind((at_op)op, AT_TYPE_F32, (at_space)sp, err, sizeof err),
                             op == AT_ADD ? CR_OK : CR_UNSUPPORTED);
        }
    assert_non_null(strstr(err, "float supports add only"));
    assert_int_equal(at_check_kind(AT_NOPS, AT_TYPE_U32, AT_GLOBAL, err, sizeof err), CR_ERR);
    assert_int_equal(at_check_kind(AT_ADD, AT_NTYPES, AT_GLOBAL, err, sizeof err), CR_ERR);
    assert_int_equal(at_check_kind(AT_ADD, AT_TYPE_U32, AT_NSPACES, err, sizeof err), CR_ERR);
}

TEST_MAIN(NULL, NULL, test_addresses_against_a_plain_model, test_initial_values_and_float_limit,
          test_verification_accepts_correct_and_catches_wrong_results, test_min_max_against_every_operation,
          test_local_counters, test_which_runs_exist)
