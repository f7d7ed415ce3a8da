/* reproduce: the theses' tables and figures held against a run, a verdict
 * for each with its rule and evidence; run_all.sh runs it on every run
 * before the report. */
#include "reproduce/cli.h"
#include "shared/output_check.h"

int main(int argc, char **argv)
{
    cr_check_output_at_exit("reproduce");
    return rr_main(argc, argv, stdout);
}
