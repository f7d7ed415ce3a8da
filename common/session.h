/* What every benchmark executable does around its experiment: the command
 * line, the device outcome (skipped, failed), topology and binding, the
 * output directory with its metadata and CSV, and the rows as they come. */
#ifndef CR_SESSION_H
#define CR_SESSION_H

#include "cr.h"
#include "device.h"
#include "measure.h"
#include "metadata.h"
#include "options.h"
#include "plausibility.h"
#include "results.h"
#include "stats.h"
#include "topology.h"

#include <stdbool.h>

#define CR_SESSION_NOTES 8

typedef struct {
    cr_options opt;
    cr_device_info info; /* filled by the backend's open */
    cr_topology *topo;
    cr_result_table table;
    cr_stop_rule rule;
    cr_peaks peaks;      /* what the plausibility gate judges every row against */
    bool wants_memory_peak; /* set before cr_session_start: measure the host's memory limit for a device sharing it */
    bool wants_compute_peak; /* and the host's compute peak, for a CPU device */
    char base[4096];     /* <out>/<benchmark>-<backend>: CSV and metadata share it */
    char bind_note[256];
    int failures;        /* rows recorded invalid */
    int lock_fd;         /* the output directory's lock, -1 until cr_session_start takes it */
    bool started;        /* cr_session_start has begun the run's output */
    char notes[CR_SESSION_NOTES][256]; /* notes held back until the run starts */
    size_t n_notes;
    size_t n_notes_dropped; /* beyond those: counted, and said to have been dropped */
    cr_energy_ctx energy;   /* meter NULL: no sensor covers the device */
    char energy_why[256];   /* why not, for the run's "energy" row */
    char benchmark[32], backend[24];
} cr_session;

/* Parses argv. Returns -1 when the run goes on, else the exit status
 * (--help and --version print and give 0; bad usage has printed its line). */
int cr_session_parse(cr_session *s, int argc, char **argv, const char *summary, const cr_extra_option *extra,
                     size_t n_extra, void *ctx);

/* Turns the backend's open() outcome into -1 (go on) or an exit status:
 * 77 with "skipped: why" when there is no device, 2 with the error when
 * --device names none of those there are, 1 with any other error. */
int cr_session_opened(cr_session *s, cr_status st, const char *err);

/* Loads the topology and binds the host thread near the device unless
 * --no-bind or a CPU device (which uses every core). */
void cr_session_bind(cr_session *s);

/* Creates the output directory and takes its lock for the rest of the run
 * (another run writing there: one line, exit 1), prints the notes held
 * back, works out the device's peaks (measuring the host's memory limit
 * first when wants_memory_peak is set and the device shares the host's
 * memory, and its compute peak when wants_compute_peak is set and the
 * device is the host's CPU), writes the metadata (the host, the device, the binding, stop
 * rule and peaks, plus the caller's keys in meta) and an empty CSV. It opens
 * the energy sensor that covers the device and measures its static power
 * (--energy; on with no sensor is an error). Returns -1 to go on, else the
 * exit status. */
int cr_session_start(cr_session *s, const char *benchmark, const char *backend, int argc, char **argv, cr_meta *meta);

/* A measurement context with the session's stop rule and warm-up: for the
 * device (its timer's resolution, and the energy sensor where one covers
 * it) or for the host's own references (host clock, no energy). */
void cr_session_measure_init(cr_session *s, cr_measure_ctx *m, bool device);

/* Passes the row through the plausibility gate (common/plausibility.h),
 * prints it (readable, or CSV with --csv) and adds it to the CSV file.
 * Returns 0, or -1, having said why, when the file cannot be written or
 * the row names a sweep or variant its benchmark's descriptor does not
 * list (common/row_names.h: no reader would take it). */
int cr_session_record(cr_session *s, const cr_result *r);

/* The row recorded last, as written (after the gate), or NULL. */
const cr_result *cr_session_last(const cr_session *s);

/* The exit status of a finished run, saying how many rows failed. A run
 * with no energy sensor first records one row saying why (variant
 * "energy", sweep "sensor", stop "unsupported"). */
int cr_session_finish(cr_session *s);

void cr_session_close(cr_session *s);

/* "note: ..." on stderr: at once once the run has started, else held back
 * until cr_session_start, so that a note (a default lowered to fit the
 * device, say) never comes before an error about the arguments, which is
 * then the only line. */
void cr_session_note(cr_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "<program>: error: ..." on stderr; returns CR_EXIT_USAGE. */
int cr_fail_usage(const cr_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
