/* Running gnuplot on a script the tool carries, with the variables the
 * script reads set first. */
#ifndef CR_XGRAPH_GNUPLOT_H
#define CR_XGRAPH_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

/* Runs gnuplot on vars (gnuplot statements) followed by script. Returns 0;
 * 1 when there is no gnuplot; -1 when it failed, with its first complaint
 * in err. The script goes through a temporary file in dir; gnuplot's
 * warnings on a run that succeeds are passed on as notes on stderr. */
int xg_gnuplot(const char *dir, const char *vars, const char *script, char *err, size_t errlen);

/* name = 'value', quotes doubled, a line break joined on as "\n": the value
 * as it is, and never a command. */
void xg_gp_str(FILE *f, const char *name, const char *value);
/* A file name as xg_gp_str, "./" before a relative one: gnuplot reads a
 * data file named "<..." and writes an output named "|..." through a shell. */
void xg_gp_path(FILE *f, const char *name, const char *path);
/* name = value, NaN where it is not finite */
void xg_gp_num(FILE *f, const char *name, double v);
void xg_gp_fmt(FILE *f, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
