/* The regspill backend with a fault planted in what it returns, for the
 * end-to-end tests (tests/planted_fault.h): build/faulty/regspill-opencl.
 * CROSSROOF_FAULT names the fault:
 *   verify  the first outputs read back are wrong: the middle one of the
 *           outputs the design checks (regspill/truth.h) off in its lowest
 *           bit */
#include "regspill/backend.h"

#include "regspill/truth.h"
#include "tests/planted_fault.h"

#include <stdlib.h>

enum { VERIFY };
CR_FAULT_DECORATOR(regspill_backend, "verify");
static uint64_t last_work_group = 1; /* of the last launch, which the design samples by */

static cr_status download(uint32_t *dst, uint64_t work_items, char *err, size_t errlen)
{
    cr_status st = inner->download(dst, work_items, err, errlen);
    if (st != CR_OK || work_items == 0 || !cr_fault_first(fault, VERIFY, &planted))
        return st;
    unsigned lanes = inner->lanes ? inner->lanes() : 1;
    uint64_t *idx = malloc(regspill_sample_cap(work_items, last_work_group, lanes) * sizeof *idx);
    if (idx == NULL) {
        snprintf(err, errlen, "fault decorator: out of memory");
        return CR_ERR;
    }
    uint64_t n = regspill_sample(work_items, last_work_group, lanes, idx);
    dst[idx[n / 2]] ^= 1u;
    free(idx);
    return CR_OK;
}

static cr_status run(uint64_t work_items, uint64_t work_group, uint32_t rounds, cr_timing *t, char *err,
                     size_t errlen)
{
    last_work_group = work_group;
    return inner->run(work_items, work_group, rounds, t, err, errlen);
}

static void install(regspill_backend *f)
{
    f->run = run;
    f->download = download;
}

CR_FAULTY_MAIN(regspill_main, regspill_backend, install)
