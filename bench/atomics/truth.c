#include "atomics/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT_U32 uint32_t
#include "atomics/pattern.h"

uint64_t at_counter_elements(const at_run *r)
{
    if (r->space == AT_LOCAL)
        return r->work_items / r->work_group * at_slots(r->work_group, r->degree);
    return (at_slots(r->work_items, r->degree) - 1) * r->stride + 1;
}

uint64_t at_element_of(const at_run *r, uint64_t g) { return AT_INDEX(AT_SLOT(g, r->degree), r->stride); }

uint64_t at_init_value(at_op op, at_type type)
{
    if (op == AT_MIN)
        return type == AT_TYPE_U64 ? UINT64_MAX : AT_INIT_MIN;
    return op == AT_READ ? AT_INIT_READ : 0;
}

uint32_t at_float_exact_iters(uint64_t degree, uint32_t want)
{
    /* Each work-item adds at most 4 per operation. */
    uint64_t cap = (UINT64_C(1) << 24) / (4 * degree);
    return cap < want ? (uint32_t)(cap ? cap : 1) : want;
}

/* What one counter must hold: the members are work-items first..last-1
 * (global ids), whose operands decide the value. */
typedef struct {
    uint64_t value; /* integer types */
    float fvalue;
} counter_truth;

/* min and max without trying every operation of every member. An operand
 * (pattern.h) is (x ^ y) >> 1 = (x >> 1) ^ (y >> 1), with x from the
 * work-item alone and y from the operation alone: AT_MINMAX_VALUE(g, 0) ^
 * AT_MINMAX_VALUE(0, j). With the ys sorted once, a member's smallest
 * (largest) operand comes from one walk down the bits, each keeping the ys
 * that agree with its x there (differ from it): about log2(iters) steps a
 * member, where trying every operation is iters steps, seconds a point for
 * every work-item of a GPU on a counter of its own. */
typedef struct {
    uint32_t *ys; /* AT_MINMAX_VALUE(0, j) for j < iters, ascending */
    uint32_t n;
} minmax_operands;

static int ascending(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The sorted operands of r, or none (ys NULL) where r is no min or max run
 * or there is no memory for them: then every operation is tried. */
static minmax_operands sort_operands(const at_run *r)
{
    minmax_operands m = {NULL, r->iters};
    if ((r->op != AT_MIN && r->op != AT_MAX) || r->iters == 0 || (m.ys = malloc(r->iters * sizeof *m.ys)) == NULL)
        return m;
    for (uint32_t j = 0; j < r->iters; ++j)
        m.ys[j] = AT_MINMAX_VALUE(0, j);
    qsort(m.ys, m.n, sizeof *m.ys, ascending);
    return m;
}

/* The first of ys[lo..hi), which agree above bit m, that has bit m set. */
static uint32_t first_with_bit(const uint32_t *ys, uint32_t lo, uint32_t hi, uint32_t m)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ys[mid] & m)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The operand AT_MINMAX_VALUE(g, j) of member g that is the smallest over
 * every j (the largest for max). */
static uint32_t extreme_operand(const minmax_operands *m, uint64_t g, bool max)
{
    uint32_t x = AT_MINMAX_VALUE(g, 0), lo = 0, hi = m->n;
    for (uint32_t bit = UINT32_C(1) << 31; bit && hi - lo > 1; bit >>= 1) {
        uint32_t split = first_with_bit(m->ys, lo, hi, bit);
        bool set_wanted = ((x & bit) != 0) != max; /* a 0 in x ^ y for min, a 1 for max */
        if (set_wanted && split < hi)
            lo = split;
        else if (!set_wanted && split > lo)
            hi = split;
    }
    return x ^ m->ys[lo];
}

static counter_truth truth_of_counter(const at_run *r, const minmax_operands *ops, uint64_t first, uint64_t last)
{
    uint64_t init = r->space == AT_LOCAL ? r->init : at_init_value(r->op, r->type);
    uint64_t mask = r->type == AT_TYPE_U64 ? UINT64_MAX : UINT32_MAX;
    counter_truth e = {init & mask, (float)init};
    uint64_t sum = 0;
    switch (r->op) {
    case AT_ADD:
    case AT_CAS:
        for (uint64_t g = first; g < last; ++g)
            sum += AT_ADD_VALUE(g);
        e.value = (init + sum * r->iters) & mask;
        e.fvalue = (float)((double)init + (double)sum * r->iters); /* exact below 2^24 */
        break;
    case AT_INC:
        e.value = (init + (last - first) * r->iters) & mask;
        break;
    case AT_MIN:
    case AT_MAX:
        for (uint64_t g = first; g < last; ++g)
            for (uint32_t j = 0; j < (ops->ys ? 1 : r->iters); ++j) {
                uint64_t v = ops->ys ? extreme_operand(ops, g, r->op == AT_MAX) : AT_MINMAX_VALUE(g, j);
                if (r->op == AT_MIN ? v < e.value : v > e.value)
                    e.value = v;
            }
        break;
    default: /* read leaves the counter; xchg is checked by membership */
        break;
    }
    return e;
}

static uint64_t load(const void *counters, at_type t, uint64_t i)
{
    if (t == AT_TYPE_U64)
        return ((const uint64_t *)counters)[i];
    return ((const uint32_t *)counters)[i];
}

static int wrong(uint64_t *bad, char *note, size_t notelen, const char *fmt, uint64_t where, uint64_t got,
                 uint64_t want)
{
    if ((*bad)++ == 0)
        snprintf(note, notelen, fmt, where, got, want);
    return 0;
}

/* A check in progress: the run, its counters, the sorted operands of a
 * min or max run, and the wrong values found so far. */
typedef struct {
    const at_run *r;
    const void *counters;
    minmax_operands ops;
    uint64_t bad;
    char *note;
    size_t notelen;
} check_state;

/* Checks one slot's counter at element e, the slot's members first..last-1. */
static void check_slot(check_state *c, uint64_t e, uint64_t first, uint64_t last)
{
    const at_run *r = c->r;
    if (r->type == AT_TYPE_F32) {
        float got;
        memcpy(&got, (const uint32_t *)c->counters + e, sizeof got);
        counter_truth x = truth_of_counter(r, &c->ops, first, last);
        if (got != x.fvalue && c->bad++ == 0)
            snprintf(c->note, c->notelen, "counter %" PRIu64 " holds %.9g, expected %.9g", e, got, x.fvalue);
        return;
    }
    uint64_t got = load(c->counters, r->type, e);
    if (r->op == AT_XCHG) {
        /* The last exchange wins: any member's mark, nothing else. */
        if (got < AT_XCHG_VALUE(first) || got > AT_XCHG_VALUE(last - 1))
            wrong(&c->bad, c->note, c->notelen,
                  "counter %" PRIu64 " holds %" PRIu64 ", not the mark of any work-item sharing it (last is %" PRIu64 ")",
                  e, got, AT_XCHG_VALUE(last - 1));
        return;
    }
    counter_truth x = truth_of_counter(r, &c->ops, first, last);
    if (got != x.value)
        wrong(&c->bad, c->note, c->notelen, "counter %" PRIu64 " holds %" PRIu64 ", expected %" PRIu64, e, got,
              x.value);
}

uint64_t at_truth_check(const at_run *r, const void *counters, const uint64_t *read_sums, char *note, size_t notelen)
{
    check_state c = {r, counters, sort_operands(r), 0, note, notelen};
    note[0] = '\0';
    if (r->space == AT_LOCAL) {
        uint64_t per = at_slots(r->work_group, r->degree), groups = r->work_items / r->work_group;
        for (uint64_t grp = 0; grp < groups; ++grp)
            for (uint64_t s = 0; s < per; ++s) {
                uint64_t first = grp * r->work_group + s * r->degree;
                uint64_t last = first + r->degree;
                if (last > (grp + 1) * r->work_group)
                    last = (grp + 1) * r->work_group;
                check_slot(&c, grp * per + s, first, last);
            }
    } else {
        uint64_t slots = at_slots(r->work_items, r->degree), init = at_init_value(r->op, r->type);
        for (uint64_t s = 0; s < slots; ++s) {
            uint64_t first = s * r->degree, last = first + r->degree < r->work_items ? first + r->degree : r->work_items;
            check_slot(&c, AT_INDEX(s, r->stride), first, last);
            /* Nobody may have touched the elements between the slots. */
            for (uint64_t k = 1; s + 1 < slots && k < r->stride; ++k) {
                uint64_t e = AT_INDEX(s, r->stride) + k, got = load(counters, r->type, e);
                if (got != (init & (r->type == AT_TYPE_U64 ? UINT64_MAX : UINT32_MAX)))
                    wrong(&c.bad, note, notelen, "element %" PRIu64 " between slots changed to %" PRIu64 " from %" PRIu64,
                          e, got, init);
            }
        }
    }
    free(c.ops.ys);
    if (r->op == AT_READ && read_sums) {
        uint64_t init = r->space == AT_LOCAL ? r->init : at_init_value(r->op, r->type);
        uint64_t want = init * r->iters;
        if (r->type != AT_TYPE_U64)
            want &= UINT32_MAX;
        for (uint64_t g = 0; g < r->work_items; ++g)
            if (read_sums[g] != want)
                wrong(&c.bad, note, notelen, "work-item %" PRIu64 " read a sum of %" PRIu64 ", expected %" PRIu64, g,
                      read_sums[g], want);
    }
    if (c.bad > 1) {
        size_t len = strlen(note);
        snprintf(note + len, notelen - len, " (%" PRIu64 " values wrong)", c.bad);
    }
    return c.bad;
}
