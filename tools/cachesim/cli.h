/* cachesim's command line: Crawford's five positional words after the
 * trace, and the options that go beyond them. */
#ifndef CACHESIM_CLI_H
#define CACHESIM_CLI_H

#include "simulate.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *trace_path; /* "-": stdin */
    cs_sim_options sim;
    bool csv;
    bool help;
} cs_cli_options;

extern const char cs_cli_usage[];

/* 0 with o filled (every level checked), or -1 with one line in err. */
int cs_cli_parse(int argc, char **argv, cs_cli_options *o, char *err, size_t errlen);

#endif
