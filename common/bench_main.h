/* The skeleton of every benchmark executable, written once:
 *   parse -> list -> open -> bind -> plan -> metadata -> run -> finish -> close.
 * A benchmark describes itself in a cr_design (its options, its hooks) and
 * its backends start with a cr_backend_base; the executable's main is
 * cr_bench_main(argc, argv, &design, &backend->base). */
#ifndef CR_BENCH_MAIN_H
#define CR_BENCH_MAIN_H

#include "cr.h"
#include "device.h"
#include "metadata.h"
#include "options.h"
#include "session.h"

#include <stdbool.h>
#include <stdio.h>

/* First member of every benchmark's backend contract. */
typedef struct {
    const char *name; /* backend column in the CSV: "opencl", "cuda", "host" */
    /* Prints the devices with their indices; CR_NO_DEVICE when there is none,
     * CR_ERR when they cannot be listed, the reason said by cr_list_failed. */
    cr_status (*list_devices)(FILE *f);
    /* Opens the device named by spec (NULL: default) and fills info.
     * CR_NO_DEVICE when there is no device at all, CR_NO_MATCH when spec
     * names none of those there are; err says why. */
    cr_status (*open)(const char *spec, cr_device_info *info, char *err, size_t errlen);
    void (*close)(void);
} cr_backend_base;

/* The hooks return -1 to go on, or the exit status to stop with (having
 * printed their one line). Only run is required. */
typedef struct {
    const char *benchmark; /* "stream": names the CSV and the metadata */
    const char *summary;   /* the --help line */
    const cr_extra_option *options;
    size_t n_options;
    void *config;          /* what the option callbacks fill */
    cr_session *session;   /* the design's session, inside state */
    void *state;           /* passed to every hook */
    bool quiet_omp_waits;  /* a host reference runs OpenMP beside the device */
    bool measures_memory;  /* its figures are memory bandwidths: see cr_session.wants_memory_peak */
    bool measures_compute; /* its figures are FLOP rates: see cr_session.wants_compute_peak */
    /* After the command line, before any device: checks that need none, and
     * actions that need none (a listing, an offline table). */
    int (*parsed)(void *state);
    /* When open found no device at all: a run without one (an offline
     * table), instead of exit 77. why is the backend's reason. */
    int (*without_device)(void *state, const char *why);
    /* After open and binding: sizes checked against the device, host
     * references opened, the design's metadata keys added. */
    int (*plan)(void *state, cr_meta *meta);
    /* After the metadata and the empty CSV are written: allocate, measure,
     * verify, record. -1 means it ran to the end; the rows decide the exit. */
    int (*run)(void *state);
    /* Frees what plan and run made; called whenever open succeeded. */
    void (*release)(void *state);
} cr_design;

/* Opens a host reference backend (the host measuring the same work) beside
 * the device: 0, or -1 after "<program>: error: host reference: why". */
int cr_open_host_ref(const cr_session *s, const cr_backend_base *host, cr_device_info *info);

/* cr_open_host_ref where mode wants a host reference beside the session's
 * device (cr_host_ref_wanted: with auto, only a CPU or a device sharing
 * the host's memory): 1 when opened, 0 when not wanted, -1 after the line. */
int cr_open_wanted_host_ref(const cr_session *s, cr_host_ref mode, const cr_backend_base *host, cr_device_info *info);

/* How a listing (cr_backend_base.list_devices) that cannot list says why:
 * one line shaped as every other of the executable, "<program>: skipped:
 * why" when there is no device (CR_NO_DEVICE), "<program>: error: why"
 * otherwise, <program> being the executable cr_bench_main runs. Returns st. */
cr_status cr_list_failed(cr_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int cr_bench_main(int argc, char **argv, const cr_design *design, const cr_backend_base *backend);

#endif
