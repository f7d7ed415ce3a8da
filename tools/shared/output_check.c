#define _GNU_SOURCE /* on_exit: the check needs the status the program exits with */
#include "shared/output_check.h"

#include "error.h"

#include <stdlib.h>
#include <unistd.h>

static void check_output(int status, void *program)
{
    int checked = cr_check_output(program, status);
    /* exit() cannot be called again from here; what it would still do,
     * flush stdio, is done. */
    if (checked != status)
        _exit(checked);
}

void cr_check_output_at_exit(const char *program)
{
    if (on_exit(check_output, (void *)program) != 0)
        cr_die(program, 1, "cannot check standard output at exit");
}
