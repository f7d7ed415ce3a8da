/* The application side of the X-graph (Li 2016, §3.4): given an
 * application's compute intensity Z, ILP E and concurrency n, where does the
 * machine settle, is it stable, and what bounds it. */
#ifndef CR_XGRAPH_APP_H
#define CR_XGRAPH_APP_H

#include "xgraph/data.h"
#include "xgraph/model.h"
#include "xgraph/params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    double z; /* flop per byte */
    int ilp;  /* E */
    double n; /* threads per compute unit, in the device's unit */
} xg_app_spec;

/* Parses "Z=2,E=4,n=16" (any order, each once). Returns 0, or -1 with err
 * saying which value is wrong. */
int xg_app_parse(const char *text, xg_app_spec *spec, char *err, size_t errlen);

/* Where the application model's f(k) comes from: the memory part's fit
 * min(s·k, R), its measured points joined, or the measured points of the
 * application's own f (xg_data_load_app) joined. */
typedef enum { XG_F_FIT, XG_F_MEASURED, XG_F_APP } xg_f_form;

#define XG_MAX_CROSSINGS 64

typedef struct {
    bool done;           /* false: skipped, note says why */
    char note[320];
    char f_form[200];    /* how f entered the model, in words */
    const xg_point *measured; /* the measured f(k) beside it: the memory part's, or the application's */
    size_t nmeasured;
    char measured_what[64];   /* whose: "<bench> <variant>" */
    xg_point fv[XG_MAX_CROSSINGS * 4]; /* the curve's vertices */
    xg_machine m;
    xg_crossing c[XG_MAX_CROSSINGS];
    int nc;
} xg_app_result;

/* The crossings for one data type. Returns 0 (result->done false when the
 * data type lacks what is needed), -1 with err when E was not measured
 * for it. */
int xg_app_solve(const xg_data *d, const xg_fits *fits, int dt, const xg_app_spec *spec, xg_f_form form,
                 xg_app_result *r, char *err, size_t errlen);

/* The readable report of one data type. */
void xg_app_print(FILE *f, const xg_data *d, int dt, const xg_app_spec *spec, const xg_app_result *r);

/* OUT/xgraph-app.csv: one row per crossing of every data type, atomically. */
int xg_app_write(const char *path, const xg_data *d, const xg_app_spec *spec, const xg_app_result *r, char *err,
                 size_t errlen);

#endif
