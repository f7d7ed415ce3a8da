/* The cache backends' common steps (backend_common.h). */
#include "cache/backend_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

cr_status cc_open_on_chase(const lt_backend *chase, void *state, size_t size,
                           cr_status (*add)(char *err, size_t errlen), void (*close)(void), const char *spec,
                           cr_device_info *info, char *err, size_t errlen)
{
    memset(state, 0, size);
    cr_status st = chase->base.open(spec, info, err, errlen);
    if (st == CR_OK && add(err, errlen) != CR_OK) {
        close();
        st = CR_ERR;
    }
    return st;
}

cr_status cc_check_store_pass(const cc_store_pass *pass, uint64_t words, char *err, size_t errlen)
{
    if (pass->count && pass->first + (pass->count - 1) * pass->stride_words >= words) {
        snprintf(err, errlen, "stores past the %" PRIu64 "-word chain", words);
        return CR_ERR;
    }
    return CR_OK;
}

cr_status cc_check_read(uint64_t first, uint64_t count, uint64_t words, char *err, size_t errlen)
{
    if (first + count > words) {
        snprintf(err, errlen, "read past the %" PRIu64 "-word chain", words);
        return CR_ERR;
    }
    return CR_OK;
}
