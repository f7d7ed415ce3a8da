/* gpu-check's command line, run on given streams so that the tests see
 * exactly what the executable prints and the status it exits with. */
#ifndef CR_GPU_CHECK_CLI_H
#define CR_GPU_CHECK_CLI_H

#include <stdio.h>

/* Exit statuses. */
#define GC_EXIT_PASSED 0
#define GC_EXIT_FAILED 1  /* a figure implausible or missing, a row invalid, a benchmark failed or skipped on a GPU */
#define GC_EXIT_USAGE 2   /* bad usage or unreadable input: nothing judged */
#define GC_EXIT_NOTHING 77 /* no CUDA benchmark found a device and no GPU is visible */

int gc_main(int argc, char **argv, FILE *out, FILE *err);

#endif
