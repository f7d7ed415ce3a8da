/* The X-graph figures: gnuplot data files written beside the parameters and
 * the scripts plot/xgraph_arch.gp and plot/xgraph_app.gp (carried in the
 * tool at build time) run on them, to PNG and SVG. */
#ifndef CR_XGRAPH_PLOT_H
#define CR_XGRAPH_PLOT_H

#include "xgraph/app.h"
#include "xgraph/data.h"
#include "xgraph/model.h"
#include "xgraph/params.h"
#include "xgraph/li2016_reference.h"

#include <stdbool.h>

/* The architectural X-graph of one data type (index into d->dt): writes
 * OUT/xgraph-<dtype>.dat and, when draw, OUT/xgraph-<dtype>.png and .svg.
 * Returns as xg_gnuplot (xgraph/gnuplot.h), 0 also when there is nothing to
 * draw. */
int xg_draw_arch(const xg_data *d, const xg_fits *fits, int dt, const xg_reference *ref, const char *out, bool draw,
                 char *err, size_t errlen);

/* The application's X-graph of a type solved (r): f as used (fitted, or
 * measured points joined: the memory part's or the application's own) beside
 * the measured points it came from, g_E(x)/Z for the application's E, Z and
 * n, its crossings marked. OUT/xgraph-app-<dtype>.*. */
int xg_draw_app(const xg_data *d, int dt, int ilp, const xg_app_result *r, const char *out, bool draw, char *err,
                size_t errlen);

#endif
