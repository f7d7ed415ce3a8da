/* How a --device argument names a device, shared by every backend. */
#ifndef CR_DEVICE_SPEC_H
#define CR_DEVICE_SPEC_H

#include <stdbool.h>

/* True when spec is a plain decimal index ("0", "12"). */
bool cr_spec_is_index(const char *spec);

/* Case-insensitive substring test: does name contain spec? */
bool cr_spec_matches(const char *name, const char *spec);

#endif
