/* Command-line parsing shared by every benchmark executable: the common
 * options, benchmark-specific extensions, sizes with binary suffixes and
 * geometric sweep ranges. Every malformed input is reported as one line. */
#ifndef CR_OPTIONS_H
#define CR_OPTIONS_H

#include "cr.h"

#include <stddef.h>
#include <stdio.h>

/* A geometric sweep "start:end:xF": start, start*F, ... up to end inclusive. */
typedef struct {
    uint64_t start;
    uint64_t end;
    uint64_t factor;
} cr_range;

/* Parses "4096", "64K", "256M", "1G", "2T" (binary multiples; "KiB"/"MiB"
 * spellings accepted). Rejects empty text, signs, garbage, zero and values
 * that overflow 64 bits. Returns 0 on success, -1 with err filled. */
int cr_parse_size(const char *text, uint64_t *out, char *err, size_t errlen);

/* Parses "START:END:xF" (F >= 2) or a single size "S" meaning S:S:x2.
 * START <= END is required. */
int cr_parse_range(const char *text, cr_range *out, char *err, size_t errlen);

/* Number of points in a range; values are start*factor^i <= end. */
size_t cr_range_count(const cr_range *r);
/* The i-th value (i < cr_range_count). */
uint64_t cr_range_value(const cr_range *r, size_t i);

/* A comma list's one rule: not empty, no item empty ("a,,b", "a,", ",a"),
 * and no item twice ("a,b,a"). 0, or -1 with err set. */
int cr_list_check(const char *text, char *err, size_t errlen);

/* Parses a positive decimal count with no suffix ("10"). */
int cr_parse_count(const char *text, uint64_t *out, char *err, size_t errlen);
/* A count up to max; the refusal names what is counted ("N what is above
 * max"). */
int cr_parse_count_at_most(const char *text, uint64_t max, const char *what, uint64_t *out, char *err,
                           size_t errlen);
/* Parses "a,b" of names (or "all") into a bit per name's index. */
int cr_parse_name_list(const char *text, const char *const *names, unsigned count, unsigned *bits, char *err,
                       size_t errlen);
/* Parses "4,8,16": positive counts, strictly increasing, at most cap of
 * them. */
int cr_parse_count_list(const char *text, uint64_t *out, size_t cap, size_t *count, char *err, size_t errlen);
/* Parses "MIN:MAX" (or "N" meaning N:N) of positive counts, MIN <= MAX. */
int cr_parse_interval(const char *text, uint64_t *lo, uint64_t *hi, char *err, size_t errlen);
/* --host-ref: whether a benchmark runs the host's own reference beside the
 * device. auto runs it where the host shares the device's memory (CPU and
 * APU devices), where the two compare like with like. */
typedef enum { CR_HOST_REF_AUTO, CR_HOST_REF_ON, CR_HOST_REF_OFF } cr_host_ref;
/* "on" or "off". */
int cr_parse_on_off(const char *text, bool *out, char *err, size_t errlen);
int cr_parse_host_ref(const char *text, cr_host_ref *out, char *err, size_t errlen);
bool cr_host_ref_wanted(cr_host_ref mode, bool device_shares_host_memory);
/* --energy: whether each point's energy is measured. auto measures where a
 * sensor covers the device and says why not elsewhere; on makes a missing
 * sensor an error; off measures none. */
typedef enum { CR_ENERGY_AUTO, CR_ENERGY_ON, CR_ENERGY_OFF } cr_energy_mode;
int cr_parse_energy_mode(const char *text, cr_energy_mode *out, char *err, size_t errlen);
/* Parses a positive finite decimal number of seconds ("0.5"). */
int cr_parse_seconds(const char *text, double *out, char *err, size_t errlen);

/* Formats a byte count as "256 MiB" / "1.5 KiB" / "17 B". */
void cr_format_bytes(uint64_t bytes, char *buf, size_t len);

typedef struct {
    const char *program;    /* basename of argv[0] */
    const char *device;     /* --device SPEC, NULL = default device */
    const char *out_dir;    /* --out DIR */
    bool list_devices;
    bool check_only;        /* --check-options: the options checked, nothing opened or written */
    bool quick;
    bool csv_stdout;
    bool bind;              /* hwloc binding near the device */
    bool help;
    bool version;
    uint64_t reps_min;      /* --reps MIN[:MAX] */
    uint64_t reps_max;
    bool reps_given;
    bool max_time_given; /* --quick then keeps it */
    double min_time_s;      /* --min-time: measured time to accumulate per point */
    double max_time_s;      /* --max-time: budget per point */
    double target_ci;       /* --spread: relative half-width of the median's 95% CI */
    uint64_t warmup;        /* --warmup N */
    cr_energy_mode energy;  /* --energy */
    double energy_min_s;    /* --energy-time: shortest energy window of a point */
    bool host_limit;        /* --host-limit: measure the host's memory limit for a device sharing it */
    uint64_t extra_given;   /* bit i: the i-th benchmark option was given */
    uint64_t extra_all;     /* bit i: ... as "all", naming no item of its own */
} cr_options;

/* How a benchmark-specific option's text becomes a value. The typed kinds
 * parse into the field at `offset` in the parser's context with the
 * matching cr_parse_* rule; a size, range or count of 0 is never accepted,
 * so a field left at 0 means "not given". */
typedef enum {
    CR_OPT_CUSTOM,   /* apply(ctx, arg) */
    CR_OPT_SIZE,     /* uint64_t, cr_parse_size */
    CR_OPT_RANGE,    /* cr_range, cr_parse_range */
    CR_OPT_COUNT,    /* uint64_t, cr_parse_count */
    CR_OPT_NAMES,    /* unsigned bit set, cr_parse_name_list over names */
    CR_OPT_HOST_REF, /* cr_host_ref, cr_parse_host_ref */
    CR_OPT_FLAG,     /* bool set to true; takes no value */
} cr_option_kind;

/* A benchmark-specific option. apply() returns 0 or -1 with err set.
 *
 * What a design runs is a set of sweeps (a bit each), chosen by at most one
 * selecting option: its --sweeps (names into bits), or a flag that leaves
 * some of them (regspill's --offline). An option read by some sweeps only
 * says which in `sweeps`: given while the selector leaves none of those, it
 * would change nothing, and is refused, naming both. */
typedef struct {
    const char *name;     /* long name without dashes */
    const char *metavar;  /* NULL for a flag */
    const char *help;
    int (*apply)(void *ctx, const char *arg, char *err, size_t errlen);
    cr_option_kind kind;
    size_t offset;        /* of the field, for the typed kinds */
    const char *const *names;
    unsigned n_names;
    unsigned sweeps;      /* the sweeps that read it, 0: every one; a selecting flag: the sweeps it leaves */
    bool selects;         /* the option that chooses the sweeps */
} cr_extra_option;

/* An option with a callback of its own, for a rule no kind has, read by the
 * sweeps `sweeps` only (CR_OPTION_CALL: by every sweep). */
#define CR_OPTION_CALL_FOR(sweeps, name, metavar, help, apply) \
    {(name), (metavar), (help), (apply), CR_OPT_CUSTOM, 0, NULL, 0, (sweeps), false}
#define CR_OPTION_CALL(name, metavar, help, apply) CR_OPTION_CALL_FOR(0, name, metavar, help, apply)
/* A typed option whose value is member of the context type. */
#define CR_OPTION_FOR(sweeps, kind, name, metavar, help, type, member) \
    {(name), (metavar), (help), NULL, (kind), offsetof(type, member), NULL, 0, (sweeps), false}
#define CR_OPTION(kind, name, metavar, help, type, member) CR_OPTION_FOR(0, kind, name, metavar, help, type, member)
/* A list of names (or "all") parsed into member's bits; names is an array. */
#define CR_NAMES_ROW(name, help, type, member, names, sweeps, selects) \
    {(name), "LIST", (help), NULL, CR_OPT_NAMES, offsetof(type, member), (names), sizeof(names) / sizeof((names)[0]), \
     (sweeps), (selects)}
#define CR_OPTION_NAMES_FOR(sweeps, name, help, type, member, names) \
    CR_NAMES_ROW(name, help, type, member, names, sweeps, false)
#define CR_OPTION_NAMES(name, help, type, member, names) CR_NAMES_ROW(name, help, type, member, names, 0, false)
/* The design's --sweeps: the names of its sweeps, bit i the i-th. */
#define CR_OPTION_SWEEPS(name, help, type, member, names) CR_NAMES_ROW(name, help, type, member, names, 0, true)
/* A flag that leaves only the sweeps `leaves` to run. */
#define CR_OPTION_MODE(leaves, name, help, type, member) \
    {(name), NULL, (help), NULL, CR_OPT_FLAG, offsetof(type, member), NULL, 0, (leaves), true}

/* The benchmark options given that no sweep the selecting option leaves
 * reads (see cr_extra_option): -1 after one line naming the first and the
 * selector (with selector_arg, its value as given), else 0. */
int cr_check_option_use(const cr_options *o, const cr_extra_option *extra, size_t n_extra, const void *ctx,
                        const char *selector_arg);

/* Whether the benchmark option name was given with items of its own, not
 * as "all" (which asks for what the default has). */
bool cr_option_given(const cr_options *o, const cr_extra_option *extra, size_t n_extra, const char *name);

/* The same against the sweeps that can run at all (a backend's, a
 * device's): -1 after "--NAME has no effect here: why", else 0. */
int cr_check_options_read(const cr_options *o, const cr_extra_option *extra, size_t n_extra, unsigned runnable,
                          const char *why);

/* One of the options that choose together what is measured: its items
 * (bit i of chosen: names[i]), and whether it was given or is a default. */
#define CR_MAX_CHOICES 8
typedef struct {
    const char *option; /* "types" */
    unsigned chosen;
    const char *const *names;
    unsigned n;
    bool given;
} cr_choice;
/* Whether the combination idx (an item of each choice, in order) is
 * measured; where not, why may say why. */
typedef bool (*cr_measured_fn)(const void *ctx, const unsigned *idx, char *why, size_t len);
/* 0 when every item of a choice given is measured with some items of the
 * others and something is measured at all; else -1 after one line naming
 * what measures nothing, with what, and the first reason (where: "" or
 * " on this device"). */
int cr_check_choices(const char *program, const cr_choice *dims, size_t ndims, cr_measured_fn measured,
                     const void *ctx, const char *where);

/* Parses argv. Returns 0 on success, -1 after printing one error line
 * "<program>: error: ..." to stderr. Defaults are filled first. */
int cr_options_parse(int argc, char **argv, const cr_extra_option *extra, size_t n_extra, void *ctx,
                     cr_options *out);

void cr_options_usage(FILE *f, const char *program, const char *summary, const cr_extra_option *extra,
                      size_t n_extra);

#endif
