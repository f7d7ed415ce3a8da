/* The host's energy counters in the Linux powercap class (RAPL): every
 * top-level package domain (<type>:N named "package-N", <type> intel-rapl
 * or amd-rapl) and its DRAM subdomain (<type>:N:M named "dram") where there
 * is one. Core, uncore and psys domains are left out: the first two are
 * parts of their package, psys contains it. intel-rapl-mmio repeats the
 * package domain through another interface and is left out too. Each file
 * is read whole with open/read at every reading: sysfs computes it then. A
 * file that is no regular file (a FIFO, a device) is refused, unread. */
#ifndef CR_ENERGY_POWERCAP_H
#define CR_ENERGY_POWERCAP_H

#include "cr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CR_POWERCAP_MAX_DOMAINS 64

typedef struct {
    char dir[512];   /* the domain's directory */
    char name[64];   /* its own name: "package-0", "dram" */
    char type[32];   /* control type: "intel-rapl", "amd-rapl" */
    unsigned package;
    bool is_dram;
    uint64_t max_uj; /* max_energy_range_uj: energy_uj wraps to 0 after it */
} cr_powercap_domain;

/* Finds the domains under root, package by package, each package before
 * its DRAM, and reads each counter once. CR_UNSUPPORTED with why where none
 * is there or one cannot be read (naming the file), CR_ERR past
 * CR_POWERCAP_MAX_DOMAINS. */
cr_status cr_powercap_find(const char *root, cr_powercap_domain *domains, size_t *n, char *why, size_t len);

/* The domain's energy_uj now. CR_ERR with the file named where it cannot
 * be read or is not a count within max_energy_range_uj. */
cr_status cr_powercap_read_uj(const cr_powercap_domain *d, uint64_t *uj, char *err, size_t len);

#endif
