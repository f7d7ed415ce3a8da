#define _POSIX_C_SOURCE 200809L
/* cachesim: a trace-driven model of one or more cache levels (Crawford's
 * cache_sim, with sectors, several levels, a warp scheduler and coalescing).
 * Host only; see docs/cachesim.md for the trace format. */
#include "cachesim/cli.h"
#include "cachesim/report.h"
#include "error.h"
#include "shared/bounded_file.h"
#include "shared/output_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "cachesim"

int main(int argc, char **argv)
{
    cr_check_output_at_exit(PROG);
    cs_cli_options o;
    char err[512];
    if (cs_cli_parse(argc, argv, &o, err, sizeof err) != 0)
        cr_die(PROG, 2, "%s", err);
    if (o.help) {
        fputs(cs_cli_usage, stdout);
        return 0;
    }
    bool from_stdin = strcmp(o.trace_path, "-") == 0;
    /* A path is a regular file (a pipe comes as -): /dev/zero or a FIFO
     * is refused at once rather than read without end or waited on. */
    int fd = from_stdin ? 0 : cr_open_regular(o.trace_path, err, sizeof err);
    if (fd < 0)
        cr_die(PROG, 2, "cannot open trace %s%s", err,
               strstr(err, "not a regular file") ? " (give - to read a pipe from stdin)" : "");
    FILE *in = from_stdin ? stdin : fdopen(fd, "r");
    if (in == NULL)
        cr_die(PROG, 2, "cannot open trace %s: %s", o.trace_path, strerror(errno));
    cs_trace t = {0};
    int read_status = cs_trace_read(in, from_stdin ? "stdin" : o.trace_path, &t, err, sizeof err);
    if (!from_stdin)
        fclose(in);
    if (read_status != 0) {
        cs_trace_free(&t);
        cr_die(PROG, read_status == -2 ? 1 : 2, "%s", err);
    }
    /* Hit rates of nothing would read as a result. */
    if (t.count == 0) {
        cs_trace_free(&t);
        cr_die(PROG, 2, "trace %s holds no access: nothing to simulate", from_stdin ? "stdin" : o.trace_path);
    }
    cs_hierarchy h;
    cs_sim_summary summary;
    if (cs_simulate(&t, &o.sim, &h, &summary) != 0) {
        cs_trace_free(&t);
        cr_die(PROG, 1, "out of memory simulating %zu accesses", t.count);
    }
    if (o.csv)
        cs_report_csv(stdout, &h);
    else
        cs_report_text(stdout, from_stdin ? "stdin" : o.trace_path, &o.sim, &h, &summary);
    cs_hierarchy_free(&h);
    cs_trace_free(&t);
    return 0;
}
