/* The X-model's crossings, stability and machine state against cases
 * computed by hand (each test's comment shows the arithmetic). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xgraph_model.h"

#include <math.h>

static void near_(double got, double want, int line)
{
    if (!(fabs(got - want) <= 1e-9 * (1 + fabs(want))))
        fail_msg("line %d: got %.12g, want %.12g", line, got, want);
}
#define near(a, b) near_((a), (b), __LINE__)

/* f = min(10k, 100): one vertex at the knee (10, 100), delta = 10.
 * g = min(50x, 400): pi = 8. n = 30. */
static const xg_point roof_f[] = {{10, 100}};

static xg_machine roof_machine(double z, double n)
{
    return (xg_machine){.f = {roof_f, 1}, .delta = 10, .g = {50, 400}, .z = z, .n = n};
}

static void test_crossing_on_the_memory_plateau(void **state)
{
    (void)state;
    /* Z = 2: demand g(30-k)/2 = 200 for k <= 22, then 25(30-k). f = 100
     * meets it where 25(30-k) = 100: k = 26, x = 4 < pi. MS 100, CS 200. */
    xg_machine m = roof_machine(2, 30);
    xg_crossing c[4];
    assert_int_equal(xg_crossings(&m, c, 4), 1);
    near(c[0].k, 26);
    near(c[0].x, 4);
    near(c[0].ms, 100);
    near(c[0].cs, 200);
    near(c[0].dfdk, 0);
    near(c[0].dgdx_ms, 25);
    assert_int_equal(c[0].stability, XG_STABLE);
    assert_int_equal(c[0].state, XG_MEMORY_BOUND);
}

static void test_crossing_on_the_compute_plateau(void **state)
{
    (void)state;
    /* Z = 8: demand 400/8 = 50 for k <= 22; f = 10k = 50 at k = 5, x = 25
     * >= pi = 8. MS 50, CS 400 = the CS plateau. */
    xg_machine m = roof_machine(8, 30);
    xg_crossing c[4];
    assert_int_equal(xg_crossings(&m, c, 4), 1);
    near(c[0].k, 5);
    near(c[0].x, 25);
    near(c[0].ms, 50);
    near(c[0].cs, 400);
    near(c[0].dfdk, 10);
    near(c[0].dgdx_ms, 0);
    assert_int_equal(c[0].stability, XG_STABLE);
    assert_int_equal(c[0].state, XG_COMPUTE_BOUND);
}

static void test_capacity_bound(void **state)
{
    (void)state;
    /* n = 6, Z = 1: demand 50(6-k) (x < pi throughout); 10k = 300 - 50k at
     * k = 5, x = 1: k < delta and x < pi, neither saturated. MS = CS = 50. */
    xg_machine m = roof_machine(1, 6);
    xg_crossing c[4];
    assert_int_equal(xg_crossings(&m, c, 4), 1);
    near(c[0].k, 5);
    near(c[0].x, 1);
    near(c[0].ms, 50);
    near(c[0].cs, 50);
    near(c[0].dgdx_ms, 50);
    assert_int_equal(c[0].stability, XG_STABLE);
    assert_int_equal(c[0].state, XG_CAPACITY_BOUND);
}

static void test_balance_where_the_plateaus_coincide(void **state)
{
    (void)state;
    /* Z = 4 = M/R: demand 400/4 = 100 for k <= 22 equals f = 100 for k >= 10.
     * Every k in [10, 22] balances: both saturated (Li's machine balance). */
    xg_machine m = roof_machine(4, 30);
    xg_crossing c[4];
    assert_int_equal(xg_crossings(&m, c, 4), 1);
    near(c[0].k, 10);
    near(c[0].k_end, 22);
    near(c[0].ms, 100);
    near(c[0].cs, 400);
    assert_int_equal(c[0].stability, XG_NEUTRAL);
    assert_int_equal(c[0].state, XG_BALANCED);
}

static void test_three_crossings_middle_unstable(void **state)
{
    (void)state;
    /* Li's Fig. 3.9-B: a cache-shaped f, rising to a peak, a steep then a
     * gentle descent into the valley, then up to the memory plateau:
     * (0,0) -> (4,100) -> (6,40) -> (12,28) -> (20,60), delta = 20.
     * g = min(20x, 160), Z = 2 (pi = 8), n = 12: the demand is
     * min(20(12-k), 160)/2 = 80 for k <= 4, then 120 - 10k.
     *  sigma':  25k = 80                 -> k = 3.2, x = 8.8 >= pi:
     *           compute-bound; D' = 25 > 0: stable. MS 80, CS 160.
     *  sigma:   220 - 30k = 120 - 10k    -> k = 5, x = 7; f falls:
     *           D' = -30 + 10 = -20 < 0: unstable (|g'|/Z = 10 < |f'| = 30);
     *           thrashing. MS 70, CS 140.
     *  sigma'': 52 - 2k = 120 - 10k      -> k = 8.5, x = 3.5; D' = -2 + 10
     *           = 8 > 0: stable although f falls (10 > 2: Eq. 3.6 holds);
     *           thrashing. MS 35, CS 70. */
    static const xg_point peaked[] = {{4, 100}, {6, 40}, {12, 28}, {20, 60}};
    xg_machine m = {.f = {peaked, 4}, .delta = 20, .g = {20, 160}, .z = 2, .n = 12};
    xg_crossing c[4];
    assert_int_equal(xg_crossings(&m, c, 4), 3);
    near(c[0].k, 3.2);
    near(c[0].x, 8.8);
    near(c[0].ms, 80);
    near(c[0].cs, 160);
    assert_int_equal(c[0].stability, XG_STABLE);
    assert_int_equal(c[0].state, XG_COMPUTE_BOUND);

    near(c[1].k, 5);
    near(c[1].ms, 70);
    near(c[1].cs, 140);
    near(c[1].dfdk, -30);
    near(c[1].dgdx_ms, 10);
    assert_int_equal(c[1].stability, XG_UNSTABLE);
    assert_int_equal(c[1].state, XG_THRASHING);

    near(c[2].k, 8.5);
    near(c[2].x, 3.5);
    near(c[2].ms, 35);
    near(c[2].cs, 70);
    near(c[2].dfdk, -2);
    assert_int_equal(c[2].stability, XG_STABLE);
    assert_int_equal(c[2].state, XG_THRASHING);

    /* Fewer slots than crossings: the first ones come back. */
    assert_int_equal(xg_crossings(&m, c, 1), 1);
    near(c[0].k, 3.2);
}

static void test_crossing_at_a_vertex_and_tangent(void **state)
{
    (void)state;
    /* f peaks at (4,100) and falls to (8,60), flat after (delta = 8).
     * g = min(25x, 1000), Z = 1, n = 8: demand 25(8-k) = 200 - 25k.
     * At the peak k = 4 the demand is 100: the crossing sits on the vertex,
     * D rises into it (slope 25 + 25) and falls out of it (-10 + 25 = 15
     * > 0): stable. */
    static const xg_point peak[] = {{4, 100}, {8, 60}};
    xg_machine m = {.f = {peak, 2}, .delta = 8, .g = {25, 1000}, .z = 1, .n = 8};
    xg_crossing c[4];
    assert_int_equal(xg_crossings(&m, c, 4), 1);
    near(c[0].k, 4);
    near(c[0].ms, 100);
    assert_int_equal(c[0].stability, XG_STABLE);
    assert_int_equal(c[0].state, XG_CAPACITY_BOUND); /* left segment rises, x = 4 < pi = 40 */

    /* A demand that only touches the peak: g = min(5x, 100), Z = 1, n = 24
     * (pi = 20): demand 100 for k <= 4, then 120 - 5k. Left of 4, f = 25k <
     * 100; right, f = 140 - 10k < 120 - 5k: D < 0 on both sides, zero at 4:
     * tangent (Li's minimum degradation). f = 60 meets 120 - 5k again at
     * k = 12 >= delta: memory-bound, stable. */
    m = (xg_machine){.f = {peak, 2}, .delta = 8, .g = {5, 100}, .z = 1, .n = 24};
    assert_int_equal(xg_crossings(&m, c, 4), 2);
    near(c[0].k, 4);
    near(c[0].ms, 100);
    assert_int_equal(c[0].stability, XG_TANGENT);
    near(c[1].k, 12);
    near(c[1].ms, 60);
    assert_int_equal(c[1].stability, XG_STABLE);
    assert_int_equal(c[1].state, XG_MEMORY_BOUND);
}

static void test_bad_input(void **state)
{
    (void)state;
    static const xg_point unsorted[] = {{4, 10}, {2, 20}};
    xg_crossing c[2];
    xg_machine m = roof_machine(2, 30);
    m.z = 0;
    assert_int_equal(xg_crossings(&m, c, 2), -1);
    m = roof_machine(2, -1);
    assert_int_equal(xg_crossings(&m, c, 2), -1);
    m = roof_machine(2, 30);
    m.g.slope = NAN;
    assert_int_equal(xg_crossings(&m, c, 2), -1);
    m = roof_machine(2, 30);
    m.f = (xg_curve){unsorted, 2};
    assert_int_equal(xg_crossings(&m, c, 2), -1);
}

static void test_curve_eval(void **state)
{
    (void)state;
    static const xg_point v[] = {{2, 20}, {6, 40}};
    xg_curve f = {v, 2};
    near(xg_curve_eval(&f, 0), 0);
    near(xg_curve_eval(&f, 1), 10);
    near(xg_curve_eval(&f, 4), 30);
    near(xg_curve_eval(&f, 100), 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossing_on_the_memory_plateau),
        cmocka_unit_test(test_crossing_on_the_compute_plateau),
        cmocka_unit_test(test_capacity_bound),
        cmocka_unit_test(test_balance_where_the_plateaus_coincide),
        cmocka_unit_test(test_three_crossings_middle_unstable),
        cmocka_unit_test(test_crossing_at_a_vertex_and_tangent),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_curve_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
