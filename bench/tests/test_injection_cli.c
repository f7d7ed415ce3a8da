/* End-to-end: a results path and a device name are data, never code, in
 * every program that reads them: run_all.sh, plot/plot.sh, xgraph and
 * report. The paths and names hold what a shell would run ($(...),
 * backticks, a ';' and a command), quotes of both kinds, spaces and a
 * newline; the names hold HTML and gnuplot's enhanced-text characters; and
 * relative directories start with '<' or '|', which gnuplot takes as a
 * command to read from or to write to. Each planted command would create
 * a marker file, PWNED<n>, in the test's temporary directory; no marker may
 * appear, every figure must still be drawn, and every program must still
 * succeed. A case collects what went wrong, command by command, and fails
 * once with the whole list. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

/* The suite's real run of every benchmark, cut short (README.md there). */
#define FIXTURE CR_SOURCE_DIR "/tools/shared/tests/data/run/opencl-0-cpu"

static char real_bin[PATH_MAX]; /* the benchmarks as built, absolute */
static char tools[PATH_MAX];    /* xgraph and report, beside them */
static char work[256];          /* TMP/work: the working directory of the relative paths */
static char base[256];          /* TMP/base: a run whose one device directory plots cleanly */

/* ---- the markers ---- */

/* What would create each marker, were a shell or gnuplot ever to run it. */
static const struct {
    const char *file; /* under TMP */
    const char *planted;
} markers[] = {
    {"PWNED1", "$(touch .../PWNED1)"},
    {"PWNED2", "`touch .../PWNED2`"},
    {"PWNED3", ";touch .../PWNED3;"},
    {"work/PWNED4", "the relative directory '<touch PWNED4;' (gnuplot reads a file named \"<cmd\" from a shell)"},
    {"work/PWNED5", "the relative directory '|touch PWNED5;' (gnuplot writes to an output named \"|cmd\" through "
                    "a shell)"},
};

/* The relative directories of markers PWNED4 and PWNED5, under TMP/work. */
static const char *const shell_dir_names[] = {"<touch PWNED4;", "|touch PWNED5;"};

static const char *marker_path(size_t i)
{
    static char path[sizeof tmp + 32];
    snprintf(path, sizeof path, "%s/%s", tmp, markers[i].file);
    return path;
}

/* ---- what went wrong in a case, collected ---- */

static char problems[1 << 16];

__attribute__((format(printf, 1, 2))) static void problem(const char *fmt, ...)
{
    size_t used = strlen(problems);
    if (used + 8 >= sizeof problems)
        return;
    strcat(problems, "  - ");
    used += 4;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problems + used, sizeof problems - used - 1, fmt, ap);
    va_end(ap);
    strcat(problems, "\n");
}

/* A path, name or program's output in a message: on one line, its
 * newlines written \n, the temporary directory written TMP. */
static const char *shown(const char *s)
{
    static char buf[4][4096];
    static int next;
    char *b = buf[next++ % 4];
    size_t n = 0, tlen = strlen(tmp);
    while (*s && n + 4 < sizeof buf[0]) {
        if (strncmp(s, tmp, tlen) == 0) {
            memcpy(b + n, "TMP", 3);
            n += 3;
            s += tlen;
        } else if (*s == '\n') {
            b[n++] = '\\';
            b[n++] = 'n';
            ++s;
        } else {
            b[n++] = *s++;
        }
    }
    b[n] = '\0';
    return b;
}

static void remove_markers(void)
{
    for (size_t i = 0; i < countof(markers); ++i)
        unlink(marker_path(i));
}

/* Each marker that exists is a command that ran: said, and removed so that
 * the next step is judged on its own. A shell that gnuplot started to
 * write into ('|cmd') may outlive gnuplot: it has a moment to finish. */
static void markers_after(const char *what)
{
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    for (size_t i = 0; i < countof(markers); ++i)
        if (access(marker_path(i), F_OK) == 0) {
            problem("%s: created %s: the command planted as %s ran", what, marker_path(i), markers[i].planted);
            unlink(marker_path(i));
        }
}

static void begin_case(void)
{
    problems[0] = '\0';
    remove_markers();
}

/* The problems go to stderr whole (cmocka cuts a long message short). */
static void end_case(const char *what)
{
    markers_after("at the end");
    if (problems[0] == '\0')
        return;
    fflush(stdout);
    fprintf(stderr, "%s, what went wrong:\n%s", what, problems);
    fflush(stderr);
    fail_msg("%s: see the problems listed above", what);
}

/* What a program said on stderr, for a message: a line repeated at once
 * shown once, the whole cut at 700 bytes. */
static const char *excerpt(const char *err)
{
    static char buf[4096];
    char *lines = strdup(err);
    assert_non_null(lines);
    buf[0] = '\0';
    const char *prev = NULL;
    bool said = false; /* that prev is repeated */
    for (char *line = lines, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        else if (*line == '\0')
            break;
        bool again = prev && strcmp(line, prev) == 0;
        if (!again || !said)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n", again ? "(repeated)" : line);
        said = again;
        prev = line;
    }
    snprintf(buf, sizeof buf, "%.700s", shown(buf));
    free(lines);
    return buf;
}

/* Runs a shell command line (the test's own: its hostile values come from
 * the environment, quoted) as one step of a case: its exit status must be
 * want, no marker may appear, and no shell may complain about a command
 * cut out of a path or name. Returns what it said (caller frees). */
static run_result step(const char *what, const char *cmd, int want)
{
    char full[4096];
    snprintf(full, sizeof full, "( %s )", cmd);
    run_result r = run_shell(full);
    if (r.status != want)
        problem("%s: exit status %d, want %d; stderr: %s", what, r.status, want, excerpt(r.err));
    else if (strstr(r.err, "sh: 1: ") != NULL || strstr(r.err, "/bin/sh: ") != NULL)
        problem("%s: a shell ran part of a path or name; stderr: %s", what, excerpt(r.err));
    markers_after(what);
    return r;
}

static void step_ok(const char *what, const char *cmd)
{
    run_result r = step(what, cmd, 0);
    run_free(&r);
}

/* DIR/NAME exists and is not empty: "" if so, else what is wrong. */
static const char *file_state(const char *dir, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) != 0)
        return "not written";
    return st.st_size == 0 ? "empty" : "";
}

static void expect_file(const char *what, const char *dir, const char *name)
{
    const char *state = file_state(dir, name);
    if (state[0])
        problem("%s: %s %s", what, name, state);
}

/* Both formats of each figure; the missing ones in one problem. */
static void expect_figures_(const char *what, const char *dir, const char *const *stems, size_t n)
{
    char missing[2048] = "";
    for (size_t i = 0; i < n; ++i)
        for (int svg = 0; svg < 2; ++svg) {
            char name[256];
            snprintf(name, sizeof name, "%s.%s", stems[i], svg ? "svg" : "png");
            const char *state = file_state(dir, name);
            if (state[0])
                snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s (%s)",
                         missing[0] ? ", " : "", name, state);
        }
    if (missing[0])
        problem("%s: figures missing: %s", what, missing);
}
#define expect_figures(what, dir, ...) expect_figures_(what, dir, TEXTS(__VA_ARGS__))

/* cmd, run with CR_INJ_DIR=arg, succeeds and draws the figures into dir. */
static void step_draws_(const char *what, const char *arg, const char *cmd, const char *dir, const char *const *stems,
                        size_t n)
{
    setenv("CR_INJ_DIR", arg, 1);
    step_ok(what, cmd);
    expect_figures_(what, dir, stems, n);
}
#define step_draws(what, arg, cmd, dir, ...) step_draws_(what, arg, cmd, dir, TEXTS(__VA_ARGS__))

/* The figures plot.sh draws from the base device directory. */
#define PLOT_FIGURES                                                                                                   \
    "stream-opencl-footprint", "stream-opencl-concurrency", "fma-opencl-gx", "latency-opencl-footprint",             \
        "atomics-opencl-degree", "atomics-opencl-ratio", "regspill-opencl-live"
/* What xgraph --app draws from it. */
#define XGRAPH_FIGURES "xgraph-float", "xgraph-double", "xgraph-app-float", "xgraph-app-double"
#define XGRAPH_APP "--app Z=2,E=1,n=8"

/* ---- hostile values ---- */

/* A piece of a path: quotes, spaces, a newline and three ways a shell runs
 * a command, each creating its marker. The commands sit between the piece's
 * third and fourth single quote: put inside '...' by a shell script or a
 * gnuplot command, they end up outside the quotes, which still pair, so
 * that the whole line parses and runs. The absolute markers hold '/': the
 * piece is several directories deep. */
#define PLANTED "'sq' \"dq\" ' $(touch %s/PWNED1) `touch %s/PWNED2` ;touch %s/PWNED3; '"
static void hostile_path(char p[1024], const char *parent, const char *label)
{
    /* quotes after the line break too: gnuplot's quoting of a path once
     * broke on a quote that followed a newline */
    snprintf(p, 1024, "%s/%s " PLANTED "\nline '2\"", parent, label, tmp, tmp, tmp);
}

/* A device name with the same, HTML, and gnuplot's enhanced-text markup,
 * a quote first and after the line break; newline says whether it holds a
 * line break (a listing has none). */
static const char *hostile_name(bool newline)
{
    static char n[1024];
    snprintf(n, sizeof n, "'Evil " PLANTED "%s'<script>alert(1)</script> {x}^2_y@z&w", tmp, tmp, tmp,
             newline ? "\n" : " ");
    return n;
}

/* ---- the files ---- */

/* Without gnuplot there is no figure to draw; without an OpenCL device the
 * benchmarks only say so (exit 77): either way there is nothing to test. */
static void require_gnuplot_and_opencl(void)
{
    static int found = -1;
    if (found < 0) {
        run_result r = run(NULL, "stream-opencl", "--list-devices");
        found = r.status == 0 && system("command -v gnuplot >/dev/null 2>&1") == 0;
        run_free(&r);
    }
    if (!found)
        skip();
}

static void csv_put(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* RUN/run-log.csv as run_all.sh writes it, for the benchmarks of the base
 * device directory, RUN/opencl-0-cpu, on the device named. */
static void write_run_log(const char *run, const char *device)
{
    static const char *const tasks[] = {"stream-opencl", "fma-opencl", "latency-opencl", "atomics-opencl",
                                        "regspill-opencl"};
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/run-log.csv", run);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        fail_msg("cannot write %s", shown(path));
    fputs("task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n", f);
    for (size_t i = 0; i < countof(tasks); ++i) {
        fprintf(f, "%s,opencl,0,", tasks[i]);
        csv_put(f, device);
        fputs(",opencl-0-cpu,passed,0,1.0,quick,2026-01-01T00:00:00Z,\n", f);
    }
    fputs("xgraph,host,,,opencl-0-cpu,passed,0,0.3,quick,2026-01-01T00:00:00Z,\n", f);
    assert_int_equal(fclose(f), 0);
}

/* device.name in every DIR/ *.meta.csv becomes name, CSV-quoted. */
static void set_device_name(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        fail_msg("cannot read %s", shown(dir));
    int changed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 9 || strcmp(e->d_name + len - 9, ".meta.csv") != 0)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = csv_slurp(path);
        assert_non_null(text);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        for (char *line = text, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            if (strncmp(line, "device.name,", 12) == 0) {
                fputs("device.name,", f);
                csv_put(f, name);
                fputc('\n', f);
                ++changed;
            } else {
                fprintf(f, "%s\n", line);
            }
        }
        assert_int_equal(fclose(f), 0);
        free(text);
    }
    closedir(d);
    if (changed == 0)
        fail_msg("%s: no device.name to change", shown(dir));
}

/* A fresh copy of the base run (device false) or of its device directory
 * (device true) as to, its parents created. */
static void copy_base(const char *to, bool device)
{
    char from[320];
    snprintf(from, sizeof from, "%s%s", base, device ? "/opencl-0-cpu" : "");
    setenv("CR_INJ_TO", to, 1);
    setenv("CR_INJ_FROM", from, 1);
    if (system("rm -rf -- \"$CR_INJ_TO\" && mkdir -p -- \"$CR_INJ_TO\" && "
               "cp -R -- \"$CR_INJ_FROM\"/. \"$CR_INJ_TO\"/") != 0)
        fail_msg("cannot copy %s to %s", from, shown(to));
}

/* The smallest stream run that every stream figure and xgraph can use:
 * both types, every kernel and sweep, two footprints, tiny arrays. */
#define STREAM_TINY "--footprint 16K:64K:x4 --size 256K --reps 3:3 --max-time 0.05 --warmup 0"

/* The fixture's fma, latency, atomics and regspill results into "$CR_INJ_TO". */
#define COPY_FIXTURE_TO_ENV                                                                                            \
    "cd '" FIXTURE "' && cp -- fma-opencl.csv fma-opencl.meta.csv latency-opencl.csv latency-opencl.meta.csv "        \
    "atomics-opencl.csv atomics-opencl.meta.csv regspill-opencl.csv regspill-opencl.meta.csv \"$CR_INJ_TO\"/"

/* TMP/base: a real stream run beside the fixture's other benchmarks, in
 * opencl-0-cpu/, and its run log: every consumer's input, made once. */
static void need_base(void)
{
    static bool made;
    if (made)
        return;
    char dev[320], cmd[1024];
    snprintf(dev, sizeof dev, "%s/opencl-0-cpu", base);
    sh("mkdir -p %s", dev);
    snprintf(cmd, sizeof cmd, STREAM_TINY " --out %s", dev);
    run_result r = run_with_status(0, NULL, "stream-opencl", cmd);
    run_free(&r);
    setenv("CR_INJ_TO", dev, 1);
    sh("%s", COPY_FIXTURE_TO_ENV);
    write_run_log(base, "pthread device");
    made = true;
}

/* A case that reads TMP/base, skipped where nothing can be drawn. */
static void begin_case_on_base(void)
{
    require_gnuplot_and_opencl();
    need_base();
    begin_case();
}

/* ---- the test program ---- */

static int setup_all(void **state)
{
    if (setup(state) != 0)
        return -1;
    if (realpath(bin_dir, real_bin) == NULL)
        return -1;
    char t[PATH_MAX + 16];
    snprintf(t, sizeof t, "%s/../tools", real_bin);
    if (realpath(t, tools) == NULL)
        return -1;
    snprintf(work, sizeof work, "%s/work", tmp);
    snprintf(base, sizeof base, "%s/base", tmp);
    if (mkdir(work, 0755) != 0)
        return -1;
    setenv("CR_INJ_BIN", real_bin, 1);
    setenv("CR_INJ_SRC", CR_SOURCE_DIR, 1);
    setenv("CR_INJ_TOOLS", tools, 1);
    setenv("CR_INJ_WORK", work, 1);
    return 0;
}

/* The commands of the steps, every value from the environment. */
#define PLOT "\"$CR_INJ_SRC/plot/plot.sh\" \"$CR_INJ_DIR\""
#define XGRAPH "\"$CR_INJ_TOOLS/xgraph\" \"$CR_INJ_DIR\" " XGRAPH_APP
#define REPORT "\"$CR_INJ_TOOLS/report\" \"$CR_INJ_DIR\""
#define REPORT_CHECK "\"$CR_INJ_TOOLS/report\" --check \"$CR_INJ_DIR\""
#define IN_WORK "cd \"$CR_INJ_WORK\" && "

/* A benchmark writes where --out says, whatever the path holds, and plot.sh
 * draws from there. A path put inside a gnuplot string of plot.sh's own
 * quoting (csv='PATH') ends at its first quote, and the rest runs as
 * gnuplot commands, backticks (a shell) included. */
static void test_benchmark_out_then_plot(void **state)
{
    (void)state;
    require_gnuplot_and_opencl();
    begin_case();
    char dir[1024];
    hostile_path(dir, tmp, "bench out");
    setenv("CR_INJ_DIR", dir, 1);
    setenv("CR_INJ_TO", dir, 1);
    sh("mkdir -p -- \"$CR_INJ_DIR\"");
    const char *what = "stream-opencl --out HOSTILE";
    step_ok(what, "\"$CR_INJ_BIN/stream-opencl\" " STREAM_TINY " --out \"$CR_INJ_DIR\"");
    expect_file(what, dir, "stream-opencl.csv");
    expect_file(what, dir, "stream-opencl.meta.csv");
    /* The other benchmarks' figures, atomics' reference table among them. */
    sh("%s", COPY_FIXTURE_TO_ENV);
    step_draws("plot/plot.sh HOSTILE (the benchmark's --out)", dir, PLOT, dir, PLOT_FIGURES);
    end_case("a hostile --out, then plot.sh on it");
}

/* A device name is data: plot.sh, xgraph and report read it from the
 * metadata (and report from the run log) into gnuplot titles, HTML and
 * Markdown. Nothing in it runs, the figures are still drawn (gnuplot's
 * enhanced-text markup in a title must not break them), and the report
 * shows it escaped. */
static void test_hostile_device_name(void **state)
{
    (void)state;
    begin_case_on_base();
    char run[256], dev[320];
    snprintf(run, sizeof run, "%s/name", tmp);
    snprintf(dev, sizeof dev, "%s/opencl-0-cpu", run);
    copy_base(run, false);
    set_device_name(dev, hostile_name(true));
    write_run_log(run, hostile_name(false));

    step_draws("plot/plot.sh on a device named HOSTILE", dev, PLOT, dev, PLOT_FIGURES);
    step_draws("xgraph " XGRAPH_APP " on a device named HOSTILE", dev, XGRAPH, dev, XGRAPH_FIGURES);
    expect_file("xgraph on a device named HOSTILE", dev, "xgraph-params.csv");
    /* The name is in the figures' titles, whole: its second line too. */
    const char *const titled[] = {"stream-opencl-footprint.svg", "xgraph-float.svg"};
    for (size_t i = 0; i < countof(titled); ++i) {
        char path[400];
        snprintf(path, sizeof path, "%s/%s", dev, titled[i]);
        char *svg = csv_slurp(path);
        if (svg && strstr(svg, "alert(1)") == NULL)
            problem("%s: the title lacks the device name's second line (no 'alert(1)' in the figure): the name "
                    "was cut at its newline or left out",
                    titled[i]);
        free(svg);
    }

    setenv("CR_INJ_DIR", run, 1);
    step_ok("report on a device named HOSTILE", REPORT);
    step_ok("report --check on a device named HOSTILE", REPORT_CHECK);
    const char *const reports[] = {"report.html", "report.md"};
    for (size_t i = 0; i < countof(reports); ++i) {
        char path[400];
        snprintf(path, sizeof path, "%s/%s", run, reports[i]);
        char *text = csv_slurp(path);
        if (text == NULL) {
            problem("report: %s was not written", reports[i]);
            continue;
        }
        if (strstr(text, "<script>alert(1)") != NULL)
            problem("report: %s holds the device name's <script>alert(1)</script> unescaped", reports[i]);
        if (strstr(text, "&lt;script&gt;alert(1)&lt;/script&gt;") == NULL)
            problem("report: %s lacks the device name's <script> escaped as &lt;script&gt;alert(1)&lt;/script&gt;",
                    reports[i]);
        if (strstr(text, "PWNED1") == NULL)
            problem("report: %s does not show the device name at all", reports[i]);
        free(text);
    }
    end_case("a hostile device name through plot.sh, xgraph and report");
}

/* plot.sh on a relative directory whose name starts with '<' or '|': the
 * CSV's path reached gnuplot as given, and gnuplot reads a data file named
 * "<cmd" from a shell running cmd, and writes an output named "|cmd" into
 * one. The figures go into that directory. */
static void test_plot_on_relative_dirs_starting_with_lt_or_pipe(void **state)
{
    (void)state;
    begin_case_on_base();
    for (size_t i = 0; i < countof(shell_dir_names); ++i) {
        const char *name = shell_dir_names[i];
        char dir[512], what[128];
        snprintf(dir, sizeof dir, "%s/%s", work, name);
        copy_base(dir, true);
        snprintf(what, sizeof what, "plot/plot.sh '%s' (relative)", name);
        step_draws(what, name, IN_WORK PLOT, dir, PLOT_FIGURES);
    }
    end_case("plot.sh on relative directories starting with '<' and '|'");
}

/* plot.sh installed under a hostile path: the gnuplot scripts find the
 * reference tables from their own path, and a script that asks a shell
 * about a file (system("test -r '...'")) puts that path inside a command. */
static void test_plot_installed_under_a_hostile_path(void **state)
{
    (void)state;
    begin_case_on_base();
    char inst[1024];
    hostile_path(inst, tmp, "install");
    setenv("CR_INJ_TO", inst, 1);
    /* plot.sh reads its CSVs and the benchmarks' descriptors with the shell
     * functions in common/ and the report beside it (build/tools/report),
     * and draws with the benchmarks' scripts. */
    sh("mkdir -p -- \"$CR_INJ_TO/results\" \"$CR_INJ_TO/common\" \"$CR_INJ_TO/build/tools\" && "
       "cp -- \"$CR_INJ_TOOLS/report\" \"$CR_INJ_TO/build/tools\"/ && cp -R -- \"$CR_INJ_SRC/plot\" \"$CR_INJ_TO\"/ && "
       "cp -- \"$CR_INJ_SRC\"/common/csv_records.sh \"$CR_INJ_SRC\"/common/kv.sh \"$CR_INJ_SRC\"/common/descriptor.sh "
       "\"$CR_INJ_TO/common\"/ && cp -R -- \"$CR_INJ_SRC/results/reference\" \"$CR_INJ_TO/results\"/ && "
       "for b in \"$CR_INJ_SRC\"/bench/*/descriptor; do b=${b%%/descriptor}; b=${b##*/}; "
       "mkdir -p -- \"$CR_INJ_TO/bench/$b\" && cp -R -- \"$CR_INJ_SRC/bench/$b/descriptor\" "
       "\"$CR_INJ_SRC/bench/$b/figures\" \"$CR_INJ_TO/bench/$b\"/ || exit 1; done");
    char dev[320];
    snprintf(dev, sizeof dev, "%s/installed", tmp);
    copy_base(dev, true);
    setenv("CR_INJ_INST", inst, 1);
    step_draws("HOSTILE/plot/plot.sh (installed there)", dev, "\"$CR_INJ_INST/plot/plot.sh\" \"$CR_INJ_DIR\"", dev,
               PLOT_FIGURES);
    end_case("plot.sh installed under a hostile path");
}

/* xgraph writes its gnuplot script, data files and figures into the output
 * directory and names them to gnuplot; report writes its pages there and
 * links the files. A hostile absolute directory, and relative ones
 * starting with '<' (a script or data file gnuplot would read from a
 * shell) or '|' (an output it would write into one), are each only a
 * place. */
static void test_xgraph_and_report_on_hostile_dirs(void **state)
{
    (void)state;
    begin_case_on_base();
    char abs_run[1024];
    hostile_path(abs_run, tmp, "tools out");
    /* The absolute directory first, then each relative one. */
    for (size_t i = 0; i <= countof(shell_dir_names); ++i) {
        const char *given = i ? shell_dir_names[i - 1] : abs_run;
        char run[1100], dev[1200], rel_dev[1200], what[256], shown_as[64];
        snprintf(run, sizeof run, "%s%s%s", i ? work : "", i ? "/" : "", given);
        if (i)
            snprintf(shown_as, sizeof shown_as, "'%s' (relative)", given);
        else
            snprintf(shown_as, sizeof shown_as, "HOSTILE (absolute)");
        copy_base(run, false);
        snprintf(dev, sizeof dev, "%s/opencl-0-cpu", run);
        snprintf(rel_dev, sizeof rel_dev, "%s/opencl-0-cpu", given);

        snprintf(what, sizeof what, "xgraph %s/opencl-0-cpu " XGRAPH_APP, shown_as);
        step_draws(what, rel_dev, IN_WORK XGRAPH, dev, XGRAPH_FIGURES);
        expect_file(what, dev, "xgraph-params.csv");
        expect_file(what, dev, "xgraph-app.csv");

        setenv("CR_INJ_DIR", given, 1);
        snprintf(what, sizeof what, "report %s", shown_as);
        step_ok(what, IN_WORK REPORT);
        expect_file(what, run, "report.html");
        expect_file(what, run, "report.md");
        snprintf(what, sizeof what, "report --check %s", shown_as);
        step_ok(what, IN_WORK REPORT_CHECK);
    }
    end_case("xgraph and report on hostile output directories");
}

/* The directory under run whose file name is there ("" when none). */
static const char *dir_holding(const char *run, const char *name)
{
    static char found[PATH_MAX];
    found[0] = '\0';
    DIR *d = opendir(run);
    if (d == NULL)
        return found;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", run, e->d_name, name);
        if (access(path, F_OK) == 0) {
            snprintf(found, sizeof found, "%s/%s", run, e->d_name);
            break;
        }
    }
    closedir(d);
    return found;
}

/* run_all.sh runs the benchmarks, xgraph, plot.sh and report with the run
 * directory it was given and the device names the benchmarks list and
 * write: a stand-in benchmark (CROSSROOF_BIN) lists a device with a hostile
 * name and writes the base results with it, beside a real one, into a
 * hostile --out. Everything passes, every figure and the report are there,
 * and nothing planted runs. */
static void test_run_all_with_hostile_out_and_device(void **state)
{
    (void)state;
    begin_case_on_base();
    char fake[256], data[256], path[1100];
    snprintf(fake, sizeof fake, "%s/fakebin", tmp);
    snprintf(data, sizeof data, "%s/fakedata", tmp);
    sh("mkdir -p %s", fake);
    /* The base device directory's results, named for the hostile device. */
    snprintf(path, sizeof path, "%s/opencl-0-cpu", base);
    sh("mkdir -p %s && cp -- %s/*.csv %s/", data, path, data);
    set_device_name(data, hostile_name(true));
    snprintf(path, sizeof path, "%s/devices.txt", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "0  (0:0)  %s  [Fake; CPU]\n", hostile_name(false));
    assert_int_equal(fclose(f), 0);
    snprintf(path, sizeof path, "%s/hostile-opencl", fake);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "#!/bin/sh\n"
            "[ \"$1\" = --check-options ] && exit 0\n"
            "[ \"$1\" = --list-devices ] && { cat %s/devices.txt; exit 0; }\n"
            "out=.; while [ $# -gt 0 ]; do [ \"$1\" = --out ] && out=$2; shift; done\n"
            "cp -- %s/*.csv \"$out\"/\n",
            tmp, data);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
    char link[512], target[PATH_MAX + 32];
    snprintf(link, sizeof link, "%s/latency-opencl", fake);
    snprintf(target, sizeof target, "%s/latency-opencl", real_bin);
    unlink(link);
    assert_int_equal(symlink(target, link), 0);

    char run[1024];
    hostile_path(run, tmp, "run_all out");
    setenv("CR_INJ_DIR", run, 1);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "timeout -k 5 120 env CROSSROOF_BIN=%s CROSSROOF_TOOLS=\"$CR_INJ_TOOLS\" \"$CR_INJ_SRC/run_all.sh\" "
             "--quick --only hostile-opencl,latency-opencl --out \"$CR_INJ_DIR\" -- --footprint 4K:64K:x4",
             fake);
    const char *what = "run_all.sh --quick --only hostile-opencl,latency-opencl --out HOSTILE";
    run_result r = step(what, cmd, 0);
    const char *summary = strstr(r.out, "crossroof summary") ? strstr(r.out, "crossroof summary") : r.out;
    if (strstr(summary, "  passed   hostile-opencl on 'Evil 'sq'") == NULL)
        problem("%s: the summary does not say that hostile-opencl passed on its device: %.1500s", what,
                shown(summary));
    if (strstr(summary, "FAILED") != NULL)
        problem("%s: the summary has failures: %.1500s", what, shown(summary));
    run_free(&r);

    const char *dev = dir_holding(run, "stream-opencl.csv");
    char hostile_dev[PATH_MAX];
    snprintf(hostile_dev, sizeof hostile_dev, "%s", dev);
    if (hostile_dev[0] == '\0') {
        problem("%s: no device directory of %s holds the stand-in's stream-opencl.csv", what, shown(run));
    } else {
        expect_figures("run_all.sh: the stand-in's device directory", hostile_dev, PLOT_FIGURES);
        expect_figures("run_all.sh: the stand-in's device directory", hostile_dev, "xgraph-float", "xgraph-double");
    }
    dev = dir_holding(run, "latency-opencl.log"); /* the real one's: run_all logs each run */
    if (dev[0] == '\0' || strcmp(dev, hostile_dev) == 0)
        problem("%s: the real latency-opencl wrote no device directory of its own under %s", what, shown(run));
    else
        expect_figures("run_all.sh: the real latency-opencl's device directory", dev, "latency-opencl-footprint");

    snprintf(path, sizeof path, "%s/report.html", run);
    char *html = csv_slurp(path);
    if (html == NULL) {
        problem("%s: %s was not written", what, shown(path));
    } else {
        if (strstr(html, "<script>alert(1)") != NULL)
            problem("%s: report.html holds the device name's <script>alert(1)</script> unescaped", what);
        if (strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == NULL)
            problem("%s: report.html lacks the device name escaped (&lt;script&gt;alert(1)&lt;/script&gt;)", what);
        free(html);
    }
    step_ok("report --check on run_all's HOSTILE run", REPORT_CHECK);
    end_case("run_all.sh into a hostile --out with a hostile device name");
}

TEST_MAIN(setup_all, teardown, test_benchmark_out_then_plot, test_hostile_device_name,
          test_plot_on_relative_dirs_starting_with_lt_or_pipe, test_plot_installed_under_a_hostile_path,
          test_xgraph_and_report_on_hostile_dirs, test_run_all_with_hostile_out_and_device)
