/* cachesim: a trace-driven model of one or more cache levels (Crawford's
 * cache_sim, with sectors, several levels, a warp scheduler and coalescing).
 * Host only; see the README's "cachesim" section for the trace format. */
#include "cachesim/cli.h"
#include "cachesim/report.h"
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "cachesim"

int main(int argc, char **argv)
{
    cli_options o;
    char err[512];
    if (cli_parse(argc, argv, &o, err, sizeof err) != 0)
        cr_die(PROG, 2, "%s", err);
    if (o.help) {
        fputs(cli_usage, stdout);
        return 0;
    }
    bool from_stdin = strcmp(o.trace_path, "-") == 0;
    FILE *in = from_stdin ? stdin : fopen(o.trace_path, "r");
    if (in == NULL)
        cr_die(PROG, 2, "cannot open trace %s: %s", o.trace_path, strerror(errno));
    trace t = {0};
    int read_status = trace_read(in, from_stdin ? "stdin" : o.trace_path, &t, err, sizeof err);
    if (!from_stdin)
        fclose(in);
    if (read_status != 0) {
        trace_free(&t);
        cr_die(PROG, 2, "%s", err);
    }
    hierarchy h;
    sim_summary summary;
    if (simulate(&t, &o.sim, &h, &summary) != 0) {
        trace_free(&t);
        cr_die(PROG, 1, "out of memory simulating %zu accesses", t.count);
    }
    if (o.csv)
        report_csv(stdout, &h);
    else
        report_text(stdout, from_stdin ? "stdin" : o.trace_path, &o.sim, &h, &summary);
    hierarchy_free(&h);
    trace_free(&t);
    return 0;
}
