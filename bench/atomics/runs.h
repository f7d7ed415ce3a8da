/* What a run of the atomics benchmark is, for the design and every backend
 * alike: its kinds (operation, type, memory space, lock) and their names,
 * its shape, whether a kind runs at all, and the local memory its counters
 * take. Part of the backend contract (backend.h). */
#ifndef CR_ATOMICS_RUNS_H
#define CR_ATOMICS_RUNS_H

#include "cr.h"

#include <stddef.h>
#include <stdint.h>

typedef enum { AT_ADD, AT_INC, AT_XCHG, AT_CAS, AT_MIN, AT_MAX, AT_READ, AT_NOPS } at_op;
typedef enum { AT_TYPE_U32, AT_TYPE_U64, AT_TYPE_F32, AT_NTYPES } at_type;
typedef enum { AT_GLOBAL, AT_LOCAL, AT_NSPACES } at_space;
typedef enum { AT_SPIN_LOCK, AT_TICKET_LOCK, AT_NLOCKS } at_lock;

extern const char *const at_op_names[AT_NOPS];     /* "add", "inc", "xchg", "cas", "min", "max", "read" */
extern const char *const at_type_names[AT_NTYPES]; /* "uint32", "uint64", "float" */
extern const char *const at_space_names[AT_NSPACES];
extern const char *const at_lock_names[AT_NLOCKS];  /* "spin-lock", "ticket-lock" */

static inline size_t at_type_size(at_type t) { return t == AT_TYPE_U64 ? 8u : 4u; }

typedef struct {
    at_op op;
    at_type type;
    at_space space;
    uint64_t stride;     /* elements between neighbouring slots, >= 1 */
    uint64_t degree;     /* work-items per counter, >= 1 */
    uint32_t iters;      /* operations per work-item */
    uint64_t work_items; /* multiple of work_group */
    uint64_t work_group;
    uint64_t init;       /* initial counter value (local counters) */
} at_run;

/* Whether (op, type, space) names a run at all: CR_ERR for a value outside
 * the enums, CR_UNSUPPORTED (why in err) for float other than add, which no
 * backend has; else CR_OK. Every backend's supports() starts here. */
cr_status at_check_kind(at_op op, at_type type, at_space space, char *err, size_t errlen);

/* Counters shared by degree work-items among n: ceil(n / degree). */
uint64_t at_slots(uint64_t n, uint64_t degree);

/* Bytes that items counters of es bytes span, stride elements apart
 * (pattern.h's layout): ((items - 1) * stride + 1) * es, for items and
 * stride >= 1; UINT64_MAX when that does not fit in 64 bits. */
uint64_t at_strided_bytes(uint64_t items, uint64_t stride, size_t es);

/* Local (shared) memory a work-group of a local run needs for its counters:
 * its slots, stride elements apart, the gaps after the last slot left out. */
uint64_t at_local_bytes(const at_run *r);

/* CR_OK when a local run's counters fit the limit bytes of local memory a
 * group may have; else CR_UNSUPPORTED with one line in err saying how
 * much it needs. */
cr_status at_local_fits(const at_run *r, uint64_t limit, char *err, size_t errlen);

#endif
