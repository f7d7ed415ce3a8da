#define _POSIX_C_SOURCE 200809L
#include "host_fma.h"

#include "stats.h"
#include "timer.h"

#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Independent chains per core: an FMA takes 4 or 5 clocks on the cores of
 * common/cpu_model.c and two pipes take one each per clock, so 10 keep
 * them busy; 12 leave room, and with the multiplier fit AVX2's 16
 * registers. */
#define CHAINS 12
/* Steps per repetition (milliseconds: short ones find the quiet moments of
 * a shared host, the best of many): each value starts at most
 * CHAINS * 16 and gains 1 a step, so it stays an integer below 2^24, exact
 * in float, and the end value counts the steps taken. */
#define STEPS (UINT64_C(1) << 20)
/* The clock chain's steps: a fraction of a millisecond. */
#define CLOCK_STEPS (UINT64_C(1) << 16)
#define MAX_LANES 16

#if defined(__AVX512F__)
#include <immintrin.h>
#define ISA "AVX-512"
typedef __m512 vf;
typedef __m512d vd;
#define F_LANES 16
#define D_LANES 8
#define F_SET1 _mm512_set1_ps
#define D_SET1 _mm512_set1_pd
#define F_LOAD _mm512_loadu_ps
#define D_LOAD _mm512_loadu_pd
#define F_STORE _mm512_storeu_ps
#define D_STORE _mm512_storeu_pd
#define F_FMA _mm512_fmadd_ps
#define D_FMA _mm512_fmadd_pd
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define ISA "AVX2+FMA"
typedef __m256 vf;
typedef __m256d vd;
#define F_LANES 8
#define D_LANES 4
#define F_SET1 _mm256_set1_ps
#define D_SET1 _mm256_set1_pd
#define F_LOAD _mm256_loadu_ps
#define D_LOAD _mm256_loadu_pd
#define F_STORE _mm256_storeu_ps
#define D_STORE _mm256_storeu_pd
#define F_FMA _mm256_fmadd_ps
#define D_FMA _mm256_fmadd_pd
#else
#define ISA "scalar"
typedef float vf;
typedef double vd;
#define F_LANES 1
#define D_LANES 1
#define F_SET1(v) (v)
#define D_SET1(v) (v)
#define F_LOAD(p) (*(p))
#define D_LOAD(p) (*(p))
#define F_STORE(p, v) (*(p) = (v))
#define D_STORE(p, v) (*(p) = (v))
#define F_FMA fmaf
#define D_FMA fma
#endif

/* 1, read at run time: nothing lets the compiler fold x * 1 + 1. */
static volatile float one_f = 1.0f;
static volatile double one_d = 1.0;

#define STEP_ALL(FMA)                                                                                                  \
    x0 = FMA(x0, m, m), x1 = FMA(x1, m, m), x2 = FMA(x2, m, m), x3 = FMA(x3, m, m), x4 = FMA(x4, m, m),               \
    x5 = FMA(x5, m, m), x6 = FMA(x6, m, m), x7 = FMA(x7, m, m), x8 = FMA(x8, m, m), x9 = FMA(x9, m, m),               \
    x10 = FMA(x10, m, m), x11 = FMA(x11, m, m)

/* CHAINS chains of steps x = x * one + one over acc (CHAINS vectors). */
#define CHAINS_KERNEL(NAME, V, E, L, SET1, LOAD, STORE, FMA)                                                           \
    static void NAME(E *acc, uint64_t steps, E one)                                                                    \
    {                                                                                                                  \
        V m = SET1(one), x0 = LOAD(acc), x1 = LOAD(acc + L), x2 = LOAD(acc + 2 * L), x3 = LOAD(acc + 3 * L),           \
          x4 = LOAD(acc + 4 * L), x5 = LOAD(acc + 5 * L), x6 = LOAD(acc + 6 * L), x7 = LOAD(acc + 7 * L),              \
          x8 = LOAD(acc + 8 * L), x9 = LOAD(acc + 9 * L), x10 = LOAD(acc + 10 * L), x11 = LOAD(acc + 11 * L);          \
        for (uint64_t i = 0; i < steps; ++i)                                                                           \
            STEP_ALL(FMA);                                                                                             \
        STORE(acc, x0), STORE(acc + L, x1), STORE(acc + 2 * L, x2), STORE(acc + 3 * L, x3), STORE(acc + 4 * L, x4);    \
        STORE(acc + 5 * L, x5), STORE(acc + 6 * L, x6), STORE(acc + 7 * L, x7), STORE(acc + 8 * L, x8);                \
        STORE(acc + 9 * L, x9), STORE(acc + 10 * L, x10), STORE(acc + 11 * L, x11);                                    \
    }
CHAINS_KERNEL(float_chains, vf, float, F_LANES, F_SET1, F_LOAD, F_STORE, F_FMA)
CHAINS_KERNEL(double_chains, vd, double, D_LANES, D_SET1, D_LOAD, D_STORE, D_FMA)

/* Four chains: each step waits for the last, so it takes an FMA's latency
 * (four FMAs issue in two clocks on two pipes, in four on one), while the
 * pipes stay busy enough that the core runs at the clock of the dense
 * chains (wide FMAs lower some cores' clock where they are dense). */
static void float_chain(float *acc, uint64_t steps, float one)
{
    vf m = F_SET1(one), x0 = F_LOAD(acc), x1 = F_LOAD(acc + F_LANES), x2 = F_LOAD(acc + 2 * F_LANES),
       x3 = F_LOAD(acc + 3 * F_LANES);
    for (uint64_t i = 0; i < steps; ++i)
        x0 = F_FMA(x0, m, m), x1 = F_FMA(x1, m, m), x2 = F_FMA(x2, m, m), x3 = F_FMA(x3, m, m);
    F_STORE(acc, x0), F_STORE(acc + F_LANES, x1), F_STORE(acc + 2 * F_LANES, x2), F_STORE(acc + 3 * F_LANES, x3);
}
#define CLOCK_CHAINS 4

/* Per thread: the chains' values and the clock chain's, 64-byte aligned. */
typedef struct {
    float f[CHAINS * MAX_LANES], clock[CLOCK_CHAINS * MAX_LANES];
    double d[CHAINS * MAX_LANES];
} __attribute__((aligned(64))) lanes_of_thread;

/* Values not yet stepped: 1, 2, 3, ... */
static void start_values(lanes_of_thread *t)
{
    for (unsigned i = 0; i < CHAINS * MAX_LANES; ++i)
        t->f[i] = (float)(i + 1), t->d[i] = (double)(i + 1);
    for (unsigned i = 0; i < CLOCK_CHAINS * MAX_LANES; ++i)
        t->clock[i] = (float)(i + 1);
}

/* Values of one thread that are not their start plus the steps taken. */
static uint64_t wrong_values(const lanes_of_thread *t, bool is_double)
{
    uint64_t bad = 0;
    for (unsigned i = 0; i < CHAINS * (is_double ? D_LANES : F_LANES); ++i)
        bad += is_double ? t->d[i] != (double)(i + 1) + (double)STEPS : t->f[i] != (float)(i + 1 + STEPS);
    for (unsigned i = 0; i < CLOCK_CHAINS * F_LANES; ++i)
        bad += t->clock[i] != (float)(i + 1 + CLOCK_STEPS);
    return bad;
}

typedef struct {
    lanes_of_thread *lanes;
    int threads, team;
    double *chain_s; /* per thread */
} fma_run;

/* Every thread of the team here before any goes on, spinning: OpenMP's
 * barrier may put a waiting thread to sleep (passive waits, which the
 * benchmarks ask for beside a device), and waking it, on a virtual
 * machine's idle CPU, can take longer than a repetition. */
static void spin_until_all(atomic_int *arrived, int team)
{
    atomic_fetch_add(arrived, 1);
    while (atomic_load(arrived) < team)
        ;
}

/* One repetition on every thread at once, then the clock chain on each;
 * the seconds the chains took, from all having started to all having
 * ended. */
static double one_rep(fma_run *run, bool is_double)
{
    uint64_t t0 = 0, t1 = 0;
    float onef = one_f;
    double oned = one_d;
    atomic_int started = 0, ended = 0;
#pragma omp parallel num_threads(run->threads)
    {
        int id = omp_get_thread_num(), team = omp_get_num_threads();
        lanes_of_thread *mine = &run->lanes[id];
        start_values(mine);
        spin_until_all(&started, team);
#pragma omp master
        {
            run->team = team;
            t0 = cr_now_ns();
        }
        if (is_double)
            double_chains(mine->d, STEPS, oned);
        else
            float_chains(mine->f, STEPS, onef);
        spin_until_all(&ended, team);
#pragma omp master
        t1 = cr_now_ns();
        uint64_t c0 = cr_now_ns();
        float_chain(mine->clock, CLOCK_STEPS, onef);
        run->chain_s[id] = (double)(cr_now_ns() - c0) * 1e-9;
    }
    return (double)(t1 - t0) * 1e-9;
}

/* reps timed repetitions of each type after one untimed, the two types in
 * turn, so that a shared host's slow and quick moments fall on both alike:
 * times[k * reps + r], steps_s one clock step per thread and repetition. */
static int measure_types(fma_run *run, int reps, double *times, double *steps_s, cr_host_fma *out, char *err,
                         size_t errlen)
{
    for (int r = -1; r < reps; ++r)
        for (int k = 0; k < 2; ++k) {
            bool is_double = k == 1;
            double s = one_rep(run, is_double);
            uint64_t bad = 0;
            for (int t = 0; t < run->team; ++t)
                bad += wrong_values(&run->lanes[t], is_double);
            if (bad || run->team != run->threads) {
                snprintf(err, errlen, "the host FMA reference got %" PRIu64 " wrong %s value(s) on %d of %d threads",
                         bad, is_double ? "double" : "float", run->team, run->threads);
                return -1;
            }
            if (r < 0)
                continue;
            times[(size_t)k * (size_t)reps + (size_t)r] = s;
            for (int t = 0; t < run->team; ++t)
                steps_s[((size_t)k * (size_t)reps + (size_t)r) * (size_t)run->team + (size_t)t] =
                    run->chain_s[t] / (double)CLOCK_STEPS;
        }
    for (int k = 0; k < 2; ++k) {
        cr_summary sum;
        cr_summarize(times + (size_t)k * (size_t)reps, (size_t)reps, &sum);
        double flops = (double)run->team * CHAINS * (k ? D_LANES : F_LANES) * 2.0 * (double)STEPS;
        out->best_gflops[k] = flops / sum.min * 1e-9;
        out->median_gflops[k] = flops / sum.median * 1e-9;
    }
    return 0;
}

int cr_host_fma_measure(int reps, cr_host_fma *out, char *err, size_t errlen)
{
    fma_run run = {.threads = omp_get_max_threads()};
    size_t n_steps = 2 * (size_t)(reps > 0 ? reps : 0) * (size_t)run.threads;
    double *times = reps > 0 ? malloc(2 * (size_t)reps * sizeof *times) : NULL;
    double *steps_s = malloc(n_steps * sizeof *steps_s);
    run.chain_s = malloc((size_t)run.threads * sizeof *run.chain_s);
    if (posix_memalign((void **)&run.lanes, 64, (size_t)run.threads * sizeof *run.lanes) != 0)
        run.lanes = NULL;
    int rc = -1;
    if (reps < 1)
        snprintf(err, errlen, "the host FMA reference needs a repetition at least, not %d", reps);
    else if (!times || !steps_s || !run.chain_s || !run.lanes)
        snprintf(err, errlen, "cannot allocate the host FMA reference's chains for %d threads", run.threads);
    if (reps < 1 || !times || !steps_s || !run.chain_s || !run.lanes)
        goto out;
    *out = (cr_host_fma){.isa = ISA, .lanes = {F_LANES, D_LANES}, .chains = CHAINS, .threads = run.threads,
                         .reps = reps};
    if (measure_types(&run, reps, times, steps_s, out, err, errlen) != 0)
        goto out;
    cr_summary s;
    cr_summarize(steps_s, n_steps, &s);
    out->chain_step_s = s.median;
    rc = 0;
out:
    free(times);
    free(steps_s);
    free(run.chain_s);
    free(run.lanes);
    return rc;
}
