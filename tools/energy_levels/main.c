/* energy-levels: energy per byte at each level of a device's memory system
 * and per operation, beside Ranasinghe 2014's Table 5.1; run_all.sh runs it
 * on every device directory before the figures are drawn. */
#include "energy_levels/cli.h"
#include "shared/output_check.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    cr_check_output_at_exit("energy-levels");
    return el_main(argc, argv, stdout, stderr);
}
