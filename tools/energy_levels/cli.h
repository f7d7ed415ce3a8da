/* energy-levels' command line, run on given streams so that the tests see
 * exactly what the executable prints and the status it exits with. */
#ifndef CR_ENERGY_LEVELS_CLI_H
#define CR_ENERGY_LEVELS_CLI_H

#include <stdio.h>

#define EL_EXIT_OK 0
#define EL_EXIT_BAD_DATA 1 /* a CSV the shared reader refuses, or the table could not be written */
#define EL_EXIT_USAGE 2    /* bad usage, or a directory that is not there */

int el_main(int argc, char **argv, FILE *out, FILE *err);

#endif
