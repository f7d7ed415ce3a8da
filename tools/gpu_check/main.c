/* gpu-check: judges the CUDA half of a run against each device's own
 * limits (tools/gpu_check/rules.c); run_all.sh --gpu-check runs it last. */
#include "gpu_check/cli.h"
#include "shared/output_check.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    cr_check_output_at_exit("gpu-check");
    return gc_main(argc, argv, stdout, stderr);
}
