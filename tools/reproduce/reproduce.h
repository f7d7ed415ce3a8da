/* What the reproduction of the theses is made of: the verdicts, a device
 * directory of a run as the comparisons read it, the theses' values, and
 * the outcome of one target (a table or figure of a thesis held against
 * the run). */
#ifndef CR_REPRODUCE_H
#define CR_REPRODUCE_H

#include "shared/result_reader.h"

#include <stdbool.h>
#include <stddef.h>

/* The four verdicts, in the order of the summary's counts. */
typedef enum { RR_REPRODUCED, RR_QUALITATIVE, RR_DIFFERS, RR_NOT_MEASURABLE, RR_NVERDICTS } rr_verdict;
const char *rr_verdict_name(rr_verdict v);

/* One CSV of a device directory, read through the shared reader. */
typedef struct {
    char name[256];
    cr_csv_table table;
} rr_file;

typedef struct {
    char path[4096];
    rr_file *files; /* every CSV of the directory, in name order */
    size_t nfiles;
} rr_device;

/* The results of a benchmark on whatever backend ("sfu" finds
 * sfu-opencl.csv or sfu-cuda.csv), or a file of that exact name with
 * exact; NULL where the directory has none. */
const rr_file *rr_results(const rr_device *d, const char *benchmark);
const rr_file *rr_named(const rr_device *d, const char *name);
/* A benchmark's file beside its results: rr_beside(d, "sfu", "table")
 * finds sfu-<backend>.table.csv. */
const rr_file *rr_beside(const rr_device *d, const char *benchmark, const char *kind);
/* A field by column name ("" where the file has no such column), and as a
 * number (NaN where empty or no number). */
const char *rr_get(const rr_file *f, size_t row, const char *col);
double rr_num(const rr_file *f, size_t row, const char *col);
/* A number inside row's params ("key=value;..."); NaN where absent. */
double rr_param(const rr_file *f, size_t row, const char *key);
/* The last value the device's metadata gives key (a benchmark's own
 * metadata first where benchmark is not NULL); "" where none does. */
const char *rr_meta(const rr_device *d, const char *benchmark, const char *key);

/* One value of a thesis (results/reference/thesis-values.csv): where it
 * is printed, down to the line of the seed text. */
typedef struct {
    const char *target, *seed, *source, *page, *quantity, *key, *value_text, *unit, *kind, *note;
    unsigned seed_line;
    double value; /* NaN where the thesis gives none (a figure only drawn) */
} rr_value;

typedef struct {
    const char *target, *title, *source, *page, *claim;
} rr_claim;

typedef struct {
    cr_csv_table values_table, claims_table;
    rr_value *values;
    size_t nvalues;
    rr_claim *claims;
    size_t nclaims;
} rr_thesis;

/* Both tables from their text (the build embeds results/reference's), or
 * -1 with "NAME:LINE: why" in err: a value whose seed, source, page or
 * line is missing, or whose value is no number, is refused. */
int rr_thesis_parse(rr_thesis *th, const char *values_name, const char *values_text, size_t values_len,
                    const char *claims_name, const char *claims_text, size_t claims_len, char *err, size_t errlen);
int rr_thesis_builtin(rr_thesis *th, char *err, size_t errlen);
void rr_thesis_free(rr_thesis *th);
const rr_claim *rr_claim_of(const rr_thesis *th, const char *target);
/* The value of target, quantity and key; NULL where there is none. */
const rr_value *rr_value_keyed(const rr_thesis *th, const char *target, const char *quantity, const char *key);
/* The next value of target at or after *i whose quantity is quantity
 * (NULL: any); NULL when none is left. */
const rr_value *rr_next_value(const rr_thesis *th, const char *target, const char *quantity, size_t *i);

/* A thesis value beside the run's, in the same terms (basis says which). */
typedef struct {
    char quantity[64], key[96], unit[32], basis[200], source[160];
    double thesis, run;
} rr_pair;

#define RR_MAX_PAIRS 96

typedef struct {
    rr_verdict verdict;
    char rule[480];        /* the rule the verdict follows, with its tolerance */
    char this_device[400]; /* what the run shows, in one line */
    char reason[800];      /* why this verdict: what held or failed, or what is missing */
    char evidence[400];    /* the run's files and rows it rests on */
    char flags[200];       /* the flags of the rows it rests on (unstable, cache, ...) */
    rr_pair pairs[RR_MAX_PAIRS];
    size_t npairs;
} rr_outcome;

/* Formatted into a field of o (appending where the field has text). */
void rr_say(char *field, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define RR_SAY(o, field, ...) rr_say((o)->field, sizeof (o)->field, __VA_ARGS__)
void rr_add_pair(rr_outcome *o, const char *quantity, const char *key, const char *unit, double thesis, double run,
                 const char *basis, const char *source);
/* Adds the flags of a row to o's, each once. */
void rr_add_flags(rr_outcome *o, const char *flags);
void rr_not_measurable(rr_outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef void rr_evaluate_fn(const rr_device *d, const rr_thesis *th, rr_outcome *o);
/* A target's title and claim are thesis-claims.csv's row of its id. */
typedef struct {
    const char *id; /* as in thesis-values.csv */
    rr_evaluate_fn *evaluate;
} rr_target;

/* Every target, the tool's and the benchmarks' (targets.h): how many, and
 * the i-th (NULL past the last). */
size_t rr_target_count(void);
const rr_target *rr_target_at(size_t i);
/* 0 where every target has its row of claims (its title and claim), else
 * -1 and which one has none in err. */
int rr_thesis_covers_targets(const rr_thesis *th, const char *claims_name, char *err, size_t errlen);

#endif
