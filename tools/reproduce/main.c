/* reproduce: the theses' tables and figures held against a run, a verdict
 * for each with its rule and evidence; run_all.sh runs it on every run
 * before the report. */
#include "reproduce/cli.h"

int main(int argc, char **argv)
{
    return rr_main(argc, argv, stdout);
}
