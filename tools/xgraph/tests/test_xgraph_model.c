/* The X-model's crossings, stability and machine state against cases
 * computed by hand (each case's comment shows the arithmetic). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xgraph/model.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Equal but for rounding; a NaN wanted is a NaN got. */
static bool near(double got, double want)
{
    return isnan(want) ? isnan(got) : fabs(got - want) <= 1e-9 * (1 + fabs(want));
}

/* f = min(10k, 100): one vertex at the knee (10, 100), delta = 10.
 * g = min(50x, 400): pi = 8. */
static const xg_point roof_f[] = {{10, 100}};
#define ROOF_MACHINE(z_, n_) {.f = {roof_f, 1}, .delta = 10, .g = {50, 400}, .z = (z_), .n = (n_)}

/* Li's Fig. 3.9-B: a cache-shaped f, rising to a peak, a steep then a
 * gentle descent into the valley, then up to the memory plateau. */
static const xg_point peaked_f[] = {{4, 100}, {6, 40}, {12, 28}, {20, 60}};
/* A peak at (4,100) falling to (8,60), flat after. */
static const xg_point peak_f[] = {{4, 100}, {8, 60}};

typedef struct {
    const char *name;
    xg_machine m;
    int n;               /* crossings */
    xg_crossing want[3]; /* in increasing k */
} model_case;

static const model_case cases[] = {
    /* Z = 2, n = 30: demand g(30-k)/2 = 200 for k <= 22, then 25(30-k).
     * f = 100 meets it where 25(30-k) = 100: k = 26, x = 4 < pi. MS 100,
     * CS 200; f is flat there, the demand falls by 25 per thread. */
    {"crossing on the memory plateau", ROOF_MACHINE(2, 30), 1,
     {{.k = 26, .x = 4, .k_end = NAN, .ms = 100, .cs = 200, .dfdk = 0, .dgdx_ms = 25, .stability = XG_STABLE,
       .state = XG_MEMORY_BOUND}}},
    /* Z = 8, n = 30: demand 400/8 = 50 for k <= 22; f = 10k = 50 at k = 5,
     * x = 25 >= pi = 8. MS 50, CS 400 = the CS plateau, where g is flat. */
    {"crossing on the compute plateau", ROOF_MACHINE(8, 30), 1,
     {{.k = 5, .x = 25, .k_end = NAN, .ms = 50, .cs = 400, .dfdk = 10, .dgdx_ms = 0, .stability = XG_STABLE,
       .state = XG_COMPUTE_BOUND}}},
    /* n = 6, Z = 1: demand 50(6-k) (x < pi throughout); 10k = 300 - 50k at
     * k = 5, x = 1: k < delta and x < pi, neither saturated. MS = CS = 50. */
    {"capacity bound", ROOF_MACHINE(1, 6), 1,
     {{.k = 5, .x = 1, .k_end = NAN, .ms = 50, .cs = 50, .dfdk = 10, .dgdx_ms = 50, .stability = XG_STABLE,
       .state = XG_CAPACITY_BOUND}}},
    /* Z = 4 = M/R, n = 30: demand 400/4 = 100 for k <= 22 equals f = 100
     * for k >= 10. Every k in [10, 22] balances: both saturated (Li's
     * machine balance). Left of k = 10, f rises by 10; g is flat at x = 20. */
    {"balance where the plateaus coincide", ROOF_MACHINE(4, 30), 1,
     {{.k = 10, .x = 20, .k_end = 22, .ms = 100, .cs = 400, .dfdk = 10, .dgdx_ms = 0, .stability = XG_NEUTRAL,
       .state = XG_BALANCED}}},
    /* (0,0) -> (4,100) -> (6,40) -> (12,28) -> (20,60), delta = 20.
     * g = min(20x, 160), Z = 2 (pi = 8), n = 12: the demand is
     * min(20(12-k), 160)/2 = 80 for k <= 4, then 120 - 10k.
     *  sigma':  25k = 80                 -> k = 3.2, x = 8.8 >= pi:
     *           compute-bound, g flat; D' = 25 > 0: stable. MS 80, CS 160.
     *  sigma:   220 - 30k = 120 - 10k    -> k = 5, x = 7; f falls:
     *           D' = -30 + 10 = -20 < 0: unstable (|g'|/Z = 10 < |f'| = 30);
     *           thrashing. MS 70, CS 140.
     *  sigma'': 52 - 2k = 120 - 10k      -> k = 8.5, x = 3.5; D' = -2 + 10
     *           = 8 > 0: stable although f falls (10 > 2: Eq. 3.6 holds);
     *           thrashing. MS 35, CS 70. */
    {"three crossings, the middle one unstable",
     {.f = {peaked_f, 4}, .delta = 20, .g = {20, 160}, .z = 2, .n = 12},
     3,
     {{.k = 3.2, .x = 8.8, .k_end = NAN, .ms = 80, .cs = 160, .dfdk = 25, .dgdx_ms = 0, .stability = XG_STABLE,
       .state = XG_COMPUTE_BOUND},
      {.k = 5, .x = 7, .k_end = NAN, .ms = 70, .cs = 140, .dfdk = -30, .dgdx_ms = 10, .stability = XG_UNSTABLE,
       .state = XG_THRASHING},
      {.k = 8.5, .x = 3.5, .k_end = NAN, .ms = 35, .cs = 70, .dfdk = -2, .dgdx_ms = 10, .stability = XG_STABLE,
       .state = XG_THRASHING}}},
    /* delta = 8, g = min(25x, 1000), Z = 1, n = 8: demand 25(8-k) = 200 -
     * 25k. At the peak k = 4 the demand is 100: the crossing sits on the
     * vertex, D rises into it (slope 25 + 25) and falls out of it (-10 +
     * 25 = 15 > 0): stable. The left segment rises (25), x = 4 < pi = 40. */
    {"crossing at a vertex",
     {.f = {peak_f, 2}, .delta = 8, .g = {25, 1000}, .z = 1, .n = 8},
     1,
     {{.k = 4, .x = 4, .k_end = NAN, .ms = 100, .cs = 100, .dfdk = 25, .dgdx_ms = 25, .stability = XG_STABLE,
       .state = XG_CAPACITY_BOUND}}},
    /* A demand that only touches the peak: g = min(5x, 100), Z = 1, n = 24
     * (pi = 20): demand 100 for k <= 4, then 120 - 5k. Left of 4, f = 25k <
     * 100; right, f = 140 - 10k < 120 - 5k: D < 0 on both sides, zero at 4:
     * tangent (Li's minimum degradation), at x = 20 = pi. f = 60 meets
     * 120 - 5k again at k = 12 >= delta: memory-bound, stable. */
    {"tangent at a peak",
     {.f = {peak_f, 2}, .delta = 8, .g = {5, 100}, .z = 1, .n = 24},
     2,
     {{.k = 4, .x = 20, .k_end = NAN, .ms = 100, .cs = 100, .dfdk = 25, .dgdx_ms = 0, .stability = XG_TANGENT,
       .state = XG_COMPUTE_BOUND},
      {.k = 12, .x = 12, .k_end = NAN, .ms = 60, .cs = 60, .dfdk = 0, .dgdx_ms = 5, .stability = XG_STABLE,
       .state = XG_MEMORY_BOUND}}},
};

static void expect_crossing(const char *name, int i, const xg_crossing *got, const xg_crossing *want)
{
    const struct {
        const char *what;
        double got, want;
    } v[] = {
        {"k", got->k, want->k},          {"x", got->x, want->x},          {"k_end", got->k_end, want->k_end},
        {"ms", got->ms, want->ms},       {"cs", got->cs, want->cs},       {"dfdk", got->dfdk, want->dfdk},
        {"dgdx_ms", got->dgdx_ms, want->dgdx_ms},
    };
    for (size_t j = 0; j < sizeof v / sizeof *v; ++j)
        if (!near(v[j].got, v[j].want))
            fail_msg("%s, crossing %d: %s = %.12g, want %.12g", name, i + 1, v[j].what, v[j].got, v[j].want);
    if (got->stability != want->stability)
        fail_msg("%s, crossing %d: %s, want %s", name, i + 1, xg_stability_name(got->stability),
                 xg_stability_name(want->stability));
    if (got->state != want->state)
        fail_msg("%s, crossing %d: %s, want %s", name, i + 1, xg_state_name(got->state), xg_state_name(want->state));
}

static void test_case(void **state)
{
    const model_case *t = *state;
    xg_crossing c[4];
    int n = xg_crossings(&t->m, c, 4);
    if (n != t->n)
        fail_msg("%s: %d crossings, want %d", t->name, n, t->n);
    for (int i = 0; i < n; ++i)
        expect_crossing(t->name, i, &c[i], &t->want[i]);
}

static const model_case *case_named(const char *name)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        if (strcmp(cases[i].name, name) == 0)
            return &cases[i];
    fail_msg("no case '%s'", name);
    return NULL;
}

static void test_fewer_slots_than_crossings(void **state)
{
    (void)state;
    /* The first ones come back. */
    const model_case *t = case_named("three crossings, the middle one unstable");
    xg_crossing c[1];
    assert_int_equal(t->n, 3);
    assert_int_equal(xg_crossings(&t->m, c, 1), 1);
    expect_crossing(t->name, 0, &c[0], &t->want[0]);
}

static void test_bad_input(void **state)
{
    (void)state;
    static const xg_point unsorted[] = {{4, 10}, {2, 20}};
    static const xg_machine bad[] = {
        ROOF_MACHINE(0, 30),
        ROOF_MACHINE(2, -1),
        {.f = {roof_f, 1}, .delta = 10, .g = {NAN, 400}, .z = 2, .n = 30},
        {.f = {unsorted, 2}, .delta = 10, .g = {50, 400}, .z = 2, .n = 30},
    };
    xg_crossing c[2];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
        if (xg_crossings(&bad[i], c, 2) != -1)
            fail_msg("bad machine %zu accepted", i);
}

static void test_curve_eval(void **state)
{
    (void)state;
    static const xg_point v[] = {{2, 20}, {6, 40}};
    static const xg_point at[] = {{0, 0}, {1, 10}, {4, 30}, {100, 40}}; /* k, f(k) */
    xg_curve f = {v, 2};
    for (size_t i = 0; i < sizeof at / sizeof *at; ++i)
        if (!near(xg_curve_eval(&f, at[i].k), at[i].y))
            fail_msg("f(%g) = %.12g, want %g", at[i].k, xg_curve_eval(&f, at[i].k), at[i].y);
}

int main(void)
{
    enum { NCASES = sizeof cases / sizeof *cases };
    /* One test per case, named after it, then the others. */
    struct CMUnitTest tests[] = {
        [NCASES] = cmocka_unit_test(test_fewer_slots_than_crossings),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_curve_eval),
    };
    for (size_t i = 0; i < NCASES; ++i)
        tests[i] = (struct CMUnitTest){.name = cases[i].name, .test_func = test_case,
                                       .initial_state = (void *)&cases[i]};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
