/* The kinds and shape of an atomics run (runs.h). */
#include "atomics/runs.h"

#include <inttypes.h>
#include <stdio.h>

const char *const at_op_names[AT_NOPS] = {"add", "inc", "xchg", "cas", "min", "max", "read"};
const char *const at_type_names[AT_NTYPES] = {"uint32", "uint64", "float"};
const char *const at_space_names[AT_NSPACES] = {"global", "local"};
const char *const at_lock_names[AT_NLOCKS] = {"spin-lock", "ticket-lock"};

cr_status at_check_kind(at_op op, at_type type, at_space space, char *err, size_t errlen)
{
    if ((unsigned)op >= AT_NOPS || (unsigned)type >= AT_NTYPES || (unsigned)space >= AT_NSPACES) {
        snprintf(err, errlen, "unknown operation, type or memory space");
        return CR_ERR;
    }
    if (type == AT_TYPE_F32 && op != AT_ADD) {
        snprintf(err, errlen, "float supports add only");
        return CR_UNSUPPORTED;
    }
    return CR_OK;
}

uint64_t at_slots(uint64_t n, uint64_t degree) { return n / degree + (n % degree != 0); }

uint64_t at_strided_bytes(uint64_t items, uint64_t stride, size_t es)
{
    uint64_t elements;
    if (items == 0 || __builtin_mul_overflow(items - 1, stride, &elements) || elements > UINT64_MAX / es - 1)
        return UINT64_MAX;
    return (elements + 1) * es;
}

uint64_t at_local_bytes(const at_run *r)
{
    return at_strided_bytes(at_slots(r->work_group, r->degree), r->stride, at_type_size(r->type));
}

cr_status at_local_fits(const at_run *r, uint64_t limit, char *err, size_t errlen)
{
    uint64_t bytes = at_local_bytes(r);
    if (bytes <= limit)
        return CR_OK;
    if (bytes == UINT64_MAX)
        snprintf(err, errlen, "needs over 2^64 bytes of local memory, the device allows %" PRIu64, limit);
    else
        snprintf(err, errlen, "needs %" PRIu64 " bytes of local memory, the device allows %" PRIu64, bytes, limit);
    return CR_UNSUPPORTED;
}
