/* The reproduce tool's command line (main.c calls it; the tests too). */
#ifndef CR_REPRODUCE_CLI_H
#define CR_REPRODUCE_CLI_H

#include <stdio.h>

enum { RR_EXIT_OK = 0, RR_EXIT_BAD_DATA = 1, RR_EXIT_USAGE = 2 };
int rr_main(int argc, char **argv, FILE *out);

#endif
