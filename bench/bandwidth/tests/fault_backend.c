/* The bandwidth backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/bandwidth-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify      the first result read back is wrong: one byte in the
 *               middle of the last transfer's destination, or a kernel
 *               read's sum off by one
 *   verify-all  every result read back is wrong that way, so that a path
 *               with no valid point is tested too
 *   events      every phase's device events end before they start */
#include "bandwidth/backend.h"

#include "tests/planted_fault.h"

enum { VERIFY, VERIFY_ALL, EVENTS };
CR_FAULT_DECORATOR(bw_backend, "verify", "verify-all", "events");
static uint64_t prepared_bytes; /* of the path prepared last: the design runs one path at a time */

static cr_status prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    prepared_bytes = bytes;
    return inner->prepare(p, bytes, src, err, errlen);
}

static cr_status prepare_local(const bw_path *p, unsigned vector_words, uint64_t bytes, const void *src, char *err,
                               size_t errlen)
{
    prepared_bytes = bytes;
    return inner->prepare_local(p, vector_words, bytes, src, err, errlen);
}

static cr_status run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    cr_status st = inner->run(p, phase, t, err, errlen);
    if (st == CR_OK && fault == EVENTS)
        cr_fault_swap_events(t);
    return st;
}

/* The byte in the middle of what result() delivers into dst: of the last
 * transfer's destination for a copy (so that a test shows every transfer
 * is checked), of the workload's output for a technique. */
static uint64_t middle_byte(const bw_path *p, uint64_t bytes)
{
    if (p->kind == BW_TECHNIQUE)
        return p->workload == BW_VECTOR_ADD ? bytes / 4 : sizeof(double) / 2;
    unsigned transfers = p->kind == BW_COPY && inner->transfers ? inner->transfers(p) : 1;
    return (uint64_t)(transfers ? transfers - 1 : 0) * bytes + bytes / 2;
}

static cr_status result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    cr_status st = inner->result(p, dst, sum, err, errlen);
    if (st != CR_OK || !(fault == VERIFY_ALL || cr_fault_first(fault, VERIFY, &planted)))
        return st;
    if (p->kind == BW_KERNEL_READ)
        *sum += 1;
    else
        ((unsigned char *)dst)[middle_byte(p, prepared_bytes)] ^= 0x5a;
    return CR_OK;
}

static void install(bw_backend *f)
{
    f->prepare = prepare;
    f->prepare_local = inner->prepare_local ? prepare_local : NULL;
    f->run = run;
    f->result = result;
}

CR_FAULTY_MAIN(bandwidth_main, bw_backend, install)
