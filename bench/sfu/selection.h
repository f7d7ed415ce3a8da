/* What the SFU options chosen measure: each type, function and version of a
 * --types, --functions or --versions given measures something with the
 * others chosen, and each function a partition sweep is asked of has one;
 * an option that would measure nothing is refused before anything runs. */
#ifndef CR_SFU_SELECTION_H
#define CR_SFU_SELECTION_H

#include "sfu/state.h"

#include <stdbool.h>

/* How a (function, type, version) is asked: the backend's has, before a
 * device is open, or its supports, of the device open. */
typedef cr_status (*sfu_query)(sfu_func f, cr_dtype t, sfu_version v, char *err, size_t errlen);

/* Whether function f is measured in type t: Li's double set is div, rcp,
 * sqrt and rsqrt. */
bool sfu_in_type(sfu_func f, cr_dtype t);

/* Which of --types, --functions and --versions were given. */
typedef struct {
    bool types, functions, versions;
} sfu_given;

/* -1 when everything given measures something by query, else the exit
 * status after one line naming what measures nothing and why; where is
 * "" or " on this device". */
int sfu_check_selection(sfu_state *s, sfu_given given, sfu_query query, const char *where);

#endif
