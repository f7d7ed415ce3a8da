/* What a host tool prints must arrive: a tool that ends, however it ends
 * (a return from main, a cr_die, an exit() deep in its option parsing),
 * with its standard output lost to a full disk or a closed descriptor says
 * so in one line and exits 1, never 0. */
#ifndef CR_SHARED_OUTPUT_CHECK_H
#define CR_SHARED_OUTPUT_CHECK_H

/* Checks stdout (common/error.c's cr_check_output) when the program exits;
 * called first in a tool's main. */
void cr_check_output_at_exit(const char *program);

#endif
