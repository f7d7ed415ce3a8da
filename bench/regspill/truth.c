#include "regspill/truth.h"

#include "regspill/backend.h"

#define RS_UINT uint32_t
#include "random.h"
#include "regspill/recurrence.h"

#include <stdlib.h>

const unsigned regspill_standard_live[] = {2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 128, 160, 192, 256};
const unsigned regspill_standard_live_count = sizeof regspill_standard_live / sizeof regspill_standard_live[0];

uint32_t regspill_truth(uint64_t gid, unsigned live, uint32_t rounds)
{
    uint32_t v[RS_LIVE_MAX];
    for (unsigned i = 0; i < live; ++i)
        v[i] = RS_SEED(gid, i);
    for (uint32_t r = 0; r < rounds; ++r) {
        for (unsigned i = 0; i + 1 < live; ++i)
            v[i] = RS_STEP(v[i], v[i + 1]);
        v[live - 1] = RS_STEP(v[live - 1], v[0]);
    }
    uint32_t h = 0;
    for (unsigned i = 0; i < live; ++i)
        h = h * RS_FOLD + v[i];
    return h;
}

uint64_t regspill_sample_cap(uint64_t work_items, uint64_t work_group, unsigned lanes)
{
    uint64_t groups = work_items / work_group + (work_items % work_group != 0);
    uint64_t most = 2 * (uint64_t)lanes + groups + REGSPILL_VERIFY_RANDOM, all = work_items * lanes;
    return all <= REGSPILL_VERIFY_ALL || all < most ? all : most;
}

static int ascending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t regspill_sample(uint64_t work_items, uint64_t work_group, unsigned lanes, uint64_t *idx)
{
    uint64_t all = work_items * lanes, cap = regspill_sample_cap(work_items, work_group, lanes), n = 0;
    if (cap == all) {
        for (uint64_t i = 0; i < all; ++i)
            idx[i] = i;
        return all;
    }
    for (unsigned l = 0; l < lanes; ++l) {
        idx[n++] = l;
        idx[n++] = all - lanes + l;
    }
    uint64_t state = UINT64_C(0x5EED0F5A4F1E5EED);
    for (uint64_t first = 0; first < work_items; first += work_group) {
        uint64_t size = work_items - first < work_group ? work_items - first : work_group;
        uint64_t r = cr_splitmix64(&state);
        idx[n++] = (first + r % size) * lanes + (r >> 32) % lanes;
    }
    for (unsigned k = 0; k < REGSPILL_VERIFY_RANDOM; ++k)
        idx[n++] = cr_splitmix64(&state) % all;
    qsort(idx, n, sizeof *idx, ascending);
    uint64_t kept = 0;
    for (uint64_t i = 0; i < n; ++i)
        if (kept == 0 || idx[i] != idx[kept - 1])
            idx[kept++] = idx[i];
    return kept;
}

void regspill_truth_sample(uint32_t *truth, const uint64_t *idx, uint64_t n, unsigned live, uint32_t rounds)
{
#pragma omp parallel for schedule(dynamic, 16)
    for (uint64_t i = 0; i < n; ++i)
        truth[i] = regspill_truth(idx[i], live, rounds);
}

uint64_t regspill_compare(const uint32_t *got, const uint64_t *idx, const uint32_t *truth, uint64_t n,
                          uint64_t *first)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i)
        if (got[idx[i]] != truth[i] && bad++ == 0)
            *first = i;
    return bad;
}

size_t regspill_find_cliff(const double *throughput, size_t n, double keep)
{
    double best = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i > 0 && best > 0 && throughput[i] < keep * best)
            return i;
        if (throughput[i] > best)
            best = throughput[i];
    }
    return 0;
}
