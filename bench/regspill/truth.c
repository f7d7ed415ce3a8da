#include "regspill/truth.h"

#include "regspill/backend.h"

#define RS_UINT uint32_t
#include "regspill/recurrence.h"

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

void regspill_truth_all(uint32_t *truth, uint64_t work_items, unsigned live, uint32_t rounds)
{
#pragma omp parallel for schedule(static)
    for (uint64_t gid = 0; gid < work_items; ++gid)
        truth[gid] = regspill_truth(gid, live, rounds);
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
