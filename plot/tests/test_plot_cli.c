/* End-to-end tests of plot/plot.sh on a real results directory
 * (tools/shared/tests/data/run): every figure is written whole, a full disk
 * is one line and exit 1 with no partial figure left behind, a figure from
 * an earlier drawing never passes for a new one, the energy levels and the
 * paths matrix are drawn from synthetic tables, a CSV the suite's readers
 * refuse is drawn from by no figure, and bad usage is one line and exit 2. Hostile paths and device names are in
 * bench/tests/test_injection_cli.c. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

#ifndef CR_SOURCE_DIR
#define CR_SOURCE_DIR "."
#endif

#define FIXTURE CR_SOURCE_DIR "/tools/shared/tests/data/run/opencl-0-cpu"
#define PLOT CR_SOURCE_DIR "/plot/plot.sh"

/* Runs a shell command, formatted, in TMP; it must succeed. */
static void sh_in_tmp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh_in_tmp(const char *fmt, ...)
{
    char cmd[2048];
    int n = snprintf(cmd, sizeof cmd, "cd '%s' && ", tmp);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

/* A fresh copy of the fixture's results in TMP/NAME; the test is skipped
 * where there is no gnuplot to draw them. */
static void fixture_copy(const char *name)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        skip();
    sh_in_tmp("rm -rf '%s' && cp -r '%s' '%s'", name, FIXTURE, name);
}

static long file_size(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", tmp, dir, name);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The last bytes of a file: a whole PNG ends with its IEND chunk, a whole
 * SVG with its closing tag. */
static bool ends_with(const char *dir, const char *name, const void *tail, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", tmp, dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    unsigned char buf[64] = {0};
    bool ok = fseek(f, -(long)n, SEEK_END) == 0 && fread(buf, 1, n, f) == n && memcmp(buf, tail, n) == 0;
    fclose(f);
    return ok;
}

static bool whole_png(const char *dir, const char *name)
{
    static const unsigned char iend[] = {0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
    return ends_with(dir, name, iend, sizeof iend);
}

static void expect_whole_figure(const char *dir, const char *stem)
{
    char png[256], svg[256];
    snprintf(png, sizeof png, "%s.png", stem);
    snprintf(svg, sizeof svg, "%s.svg", stem);
    if (!whole_png(dir, png))
        fail_msg("%s/%s is missing or not a whole PNG (%ld bytes)", dir, png, file_size(dir, png));
    if (!ends_with(dir, svg, "</svg>\n", 7) && !ends_with(dir, svg, "</svg>\n\n", 8))
        fail_msg("%s/%s is missing or not a whole SVG (%ld bytes)", dir, svg, file_size(dir, svg));
}

static run_result plot(const char *prefix, const char *dir)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s '%s' '%s/%s'", prefix, PLOT, tmp, dir);
    return run_shell(cmd);
}

/* plot.sh on TMP/DIR, which must succeed. */
static void plot_ok(const char *dir)
{
    run_result r = plot("", dir);
    if (r.status != 0)
        fail_msg("plot.sh: status %d\nstderr:\n%s", r.status, r.err);
    run_free(&r);
}

/* The cluster headline drawn in TMP/DIR is titled text. */
static void expect_headline_titled(const char *dir, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/cluster-report-headline.svg", tmp, dir);
    char *svg = csv_slurp(path);
    assert_non_null(svg);
    expect_in(svg, text);
    free(svg);
}

static int figures_in(const char *dir)
{
    char cmd[1024];
    /* Braces: run_shell's stdin redirection must not replace the pipe. */
    snprintf(cmd, sizeof cmd, "{ ls '%s/%s' | grep -cE '\\.(png|svg)$'; }", tmp, dir);
    run_result r = run_shell(cmd);
    int n = atoi(r.out);
    run_free(&r);
    return n;
}

/* Every benchmark's figures from the fixture, each file written to its end,
 * and the count on stdout is the number of PNGs. */
static void test_every_figure_is_whole(void **state)
{
    (void)state;
    fixture_copy("all");
    /* The fixture's stream has some kernels of each sweep, not all: its
     * figures draw those and leave the others out. */
    run_result r = plot("", "all");
    if (r.status != 0)
        fail_msg("plot.sh: status %d\nstderr:\n%s", r.status, r.err);
    static const char *const stems[] = {
        "atomics-opencl-degree", "atomics-opencl-ratio",     "bandwidth-opencl-size", "bandwidth-opencl-paths",
        "bandwidth-opencl-lee",  "fma-opencl-gx",            "latency-opencl-footprint", "regspill-opencl-live",
        "sfu-opencl-accuracy",   "sfu-opencl-partition",     "sfu-opencl-throughput", "stream-opencl-footprint",
        "stream-opencl-concurrency",
    };
    for (size_t i = 0; i < countof(stems); ++i)
        expect_whole_figure("all", stems[i]);
    char want[128];
    snprintf(want, sizeof want, "plot.sh: %d figure(s) in ", figures_in("all") / 2);
    expect_in(r.out, want);
    run_free(&r);
}

/* A disk that takes 40 KiB a file (SIGXFSZ ignored, so that gnuplot's
 * writes fail as on a full disk rather than killing it): one line naming
 * the figure, exit 1, and no figure file left half written. */
static void test_full_disk_leaves_no_partial_figure(void **state)
{
    (void)state;
    fixture_copy("full");
    run_result r = plot("trap '' XFSZ; ulimit -f 40;", "full");
    expect_error_line(&r, "plot.sh", "(a disk that takes 40 KiB a file)", 1, "gnuplot left it incomplete (is the disk full?)");
    run_free(&r);
    assert_int_equal(figures_in("full"), 0);
}

/* plot.sh stopped (SIGTERM to its process group, as run_all.sh stops a
 * task) while gnuplot is writing a figure: neither that figure, cut, nor
 * its temporary is left. gnuplot here is a stand-in that writes the start
 * of a figure under the name it is given and waits. */
static void test_stopped_drawing_leaves_no_partial_figure(void **state)
{
    (void)state;
    fixture_copy("stopped");
    sh_in_tmp("find stopped -name '*.csv' ! -name 'fma-opencl*' -delete");
    char cmd[1024], dir[512];
    snprintf(dir, sizeof dir, "%s/stopped", tmp);
    snprintf(cmd, sizeof cmd, "'%s' '%s'", PLOT, dir);
    expect_nothing_left_after_sigterm(cmd, "printf partial > \"$4.png\"", dir, "\\.png$", "\\.(png|svg)$");
}

/* A figure an earlier drawing left is removed before it is drawn again:
 * a run whose gnuplot fails leaves neither the old file nor a new one. */
static void test_old_figure_never_passes_for_new(void **state)
{
    (void)state;
    fixture_copy("old");
    sh_in_tmp("echo old > old/fma-opencl-gx.png && sed -i 1d old/fma-opencl.csv");
    /* Only the fma results: the others' figures would be drawn first. */
    sh_in_tmp("find old -name '*.csv' ! -name 'fma-opencl*' -delete");
    run_result r = plot("", "old");
    run_free(&r);
    if (file_size("old", "fma-opencl-gx.png") >= 0 && !whole_png("old", "fma-opencl-gx.png"))
        fail_msg("old/fma-opencl-gx.png is left from before (%ld bytes)", file_size("old", "fma-opencl-gx.png"));
}

/* A cluster run's report: the headline across the nodes is drawn whole,
 * titled with the figure it shows, and a node named like a gnuplot command
 * is only a label (nothing runs). Where the report has no stream triad in
 * double, its first figure stands in. */
static void test_cluster_headline(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        skip();
    sh_in_tmp("rm -rf cluster && mkdir cluster");
    char path[1024];
    snprintf(path, sizeof path, "%s/cluster/cluster-report.csv", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("node,device,benchmark,variant,dtype,unit,value,median,mad,verdict,why\n"
          "n1,cpu,fma,fma,float,Gflop/s,100,100,1,ok,\n"
          "\"n2\"\"; system(\"\"touch PWNED\"\")\",cpu,fma,fma,float,Gflop/s,101,100,1,ok,\n"
          "n3,cpu,fma,fma,float,Gflop/s,40,100,1,outlier,60 MADs below the median\n"
          "n4,,,,,,,,,failed,fma-opencl: exit 1\n",
          f);
    assert_int_equal(fclose(f), 0);
    run_result r = plot("", "cluster");
    if (r.status != 0)
        fail_msg("plot.sh: status %d\nstderr:\n%s", r.status, r.err);
    expect_in(r.out, "plot.sh: 1 figure(s) in ");
    run_free(&r);
    expect_whole_figure("cluster", "cluster-report-headline");
    expect_headline_titled("cluster", "fma fma float across nodes");
    assert_int_equal(file_size("cluster", "PWNED"), -1);
    snprintf(path, sizeof path, "%s/PWNED", tmp);
    assert_int_not_equal(access(path, F_OK), 0);
}

/* Where the report has it, the headline is the triad in double of the
 * benchmark that gives the X-model its memory side (stream's descriptor
 * says so), whatever comes first. */
static void test_cluster_headline_is_the_memory_triad(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        skip();
    sh_in_tmp("rm -rf cluster2 && mkdir cluster2 && printf '%%s\\n' "
              "node,device,benchmark,variant,dtype,unit,value,median,mad,verdict,why "
              "n1,cpu,fma,fma,float,Gflop/s,100,100,1,ok, n1,cpu,stream,triad,double,GB/s,55,55,1,ok, "
              "n2,cpu,stream,triad,double,GB/s,56,55,1,ok, >cluster2/cluster-report.csv");
    plot_ok("cluster2");
    expect_headline_titled("cluster2", "stream triad double across nodes");
}

/* Appends a row to a results CSV, its fields by the file's own header
 * ("column=value|column=value"; a value with ';' or ',' is quoted). */
static void append_row(const char *path, const char *pairs)
{
    char *text = csv_slurp(path);
    assert_non_null(text);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    size_t header_len = strcspn(text, "\n");
    for (const char *col = text; col < text + header_len; col += strcspn(col, ",\n"), col += *col == ',') {
        size_t n = strcspn(col, ",\n");
        char value[256] = "";
        for (const char *p = pairs; *p; p += strcspn(p, "|"), p += *p == '|')
            if (strncmp(p, col, n) == 0 && p[n] == '=')
                snprintf(value, sizeof value, "%.*s", (int)strcspn(p + n + 1, "|"), p + n + 1);
        bool quote = strpbrk(value, ";,") != NULL;
        fprintf(f, "%s%s%s%s", col == text ? "" : ",", quote ? "\"" : "", value, quote ? "\"" : "");
    }
    fputc('\n', f);
    fclose(f);
    free(text);
}

static char *svg_of(const char *dir, const char *stem)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s.svg", tmp, dir, stem);
    char *svg = csv_slurp(path);
    assert_non_null(svg);
    return svg;
}

/* TMP/DIR/energy-levels.csv of these rows (after energy-levels' header),
 * drawn by plot.sh: exit 0 and one whole figure, energy-levels.png and .svg. */
static void draw_energy_levels(const char *dir, const char *rows)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        skip();
    sh_in_tmp("rm -rf '%s' && mkdir '%s'", dir, dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/energy-levels.csv", tmp, dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("level,basis,pj,rows,sensor,status,thesis_pj,thesis_symbol,source,reason\n", f);
    fputs(rows, f);
    assert_int_equal(fclose(f), 0);
    run_result r = plot("", dir);
    if (r.status != 0)
        fail_msg("plot.sh: status %d\nstderr:\n%s", r.status, r.err);
    expect_in(r.out, "plot.sh: 1 figure(s) in ");
    run_free(&r);
    expect_whole_figure(dir, "energy-levels");
}

/* The energy-levels figure: measured bars beside Ranasinghe's, each with
 * its value, the key naming the thesis and its reading of e_gs; a level
 * whose source and reason hold commas is still one row. */
static void test_energy_levels_figure(void **state)
{
    (void)state;
    draw_energy_levels("energy",
                       "dram,per-byte,523.5,10,nvml:total-energy,measured,550,e_gs/4B,\"stream-cuda.csv: copy/float, "
                       "triad/float; working set 1 GiB\",\n"
                       "llc,per-byte,61.25,10,nvml:total-energy,measured,,,\"stream-cuda.csv: copy/float, add/float\",\n"
                       "shared,per-byte,,0,,no-rows,55.75,e_sr/4B,,\"no benchmark streams it, so far\"\n"
                       "pcie,per-byte,1234,4,nvml:total-energy,measured,,,bandwidth-cuda.csv: h2d-memcpy-pinned,\n"
                       "atomic,per-op,812,6,nvml:total-energy,measured,,,atomics-cuda.csv: add/uint32,\n"
                       "sp-op,per-op,9.75,1,nvml:total-energy,measured,45,(e_fadd+e_fmultiply)/2,fma-cuda.csv: fma/float,\n");
    char *svg = svg_of("energy", "energy-levels");
    static const char *const shown[] = {"Ranasinghe 2014 Table 5.1 (K20c, e_gs/e_sr per 4-byte word)",
                                        "measured on this device", "524", "61.2", "1234", "812", "9.75",
                                        "550 e_gs/4B", "45 (e_fadd+e_fmultiply)/2", "72 e_iadd", "no rows",
                                        "sp-op"};
    for (size_t i = 0; i < countof(shown); ++i)
        if (strstr(svg, shown[i]) == NULL)
            fail_msg("energy-levels.svg does not show '%s'", shown[i]);
    if (strstr(svg, "no measured value") != NULL)
        fail_msg("energy-levels.svg says nothing was measured, with four levels measured");
    free(svg);
}

/* Where no sensor is readable, the thesis's bars stand alone and the title
 * gives the sensor rows' reason. */
static void test_energy_levels_without_a_sensor(void **state)
{
    (void)state;
    draw_energy_levels("nosensor", "dram,per-byte,,0,,no-sensor,550,e_gs/4B,stream-opencl.csv: copy/float,"
                                   "\"no powercap zone, and no NVML\"\n"
                                   "shared,per-byte,,0,,no-rows,55.75,e_sr/4B,,no benchmark streams it\n"
                                   "sp-op,per-op,,0,,no-sensor,45,(e_fadd+e_fmultiply)/2,fma-opencl.csv: fma/float,"
                                   "\"no powercap zone, and no NVML\"\n");
    char *svg = svg_of("nosensor", "energy-levels");
    expect_in(svg, "no measured value: no powercap zone, and no NVML");
    expect_in(svg, "550 e_gs/4B");
    expect_in(svg, "no sensor");
    free(svg);

    /* A panel with no value at all, measured or the thesis's, is still drawn. */
    draw_energy_levels("bare", "llc,per-byte,,0,,no-sensor,,,stream-opencl.csv: copy/float,no sensor here\n");
}

/* Every number form the results reader takes (an exponent without a dot,
 * a capital E, a leading dot or sign) is drawn as its value. */
static void test_energy_levels_number_forms(void **state)
{
    (void)state;
    draw_energy_levels("forms", "dram,per-byte,1e-05,10,nvml:total-energy,measured,5.5E+2,e_gs/4B,s.csv: copy/float,\n"
                                "llc,per-byte,.25e1,10,nvml:total-energy,measured,,,s.csv: add/float,\n"
                                "sp-op,per-op,+975e-2,1,nvml:total-energy,measured,45,e_fma,f.csv: fma/float,\n");
    char *svg = svg_of("forms", "energy-levels");
    static const char *const shown[] = {"1e-05", "550 e_gs/4B", "2.5", "9.75"};
    for (size_t i = 0; i < countof(shown); ++i)
        if (strstr(svg, shown[i]) == NULL)
            fail_msg("energy-levels.svg does not show '%s'", shown[i]);
    free(svg);
}

/* The paths matrix is drawn for a bandwidth CSV that has matrix rows, and
 * only then. */
static void test_paths_matrix_figure(void **state)
{
    (void)state;
    fixture_copy("matrix");
    sh_in_tmp("find matrix -name '*.csv' ! -name 'bandwidth-opencl*' -delete");
    char path[1024];
    snprintf(path, sizeof path, "%s/matrix/bandwidth-opencl.csv", tmp);
    static const char *const cells[] = {
        "from=host-pinned;to=device;engine=copy|figure=11.5|median_s=0.09",
        "from=device;to=host-pinned;engine=copy|figure=12.5|median_s=0.085",
        "from=host-pinned;to=device;engine=kernel|figure=8.25|median_s=0.13",
        "from=device;to=device;engine=kernel|figure=150|median_s=0.007",
    };
    for (size_t i = 0; i < countof(cells); ++i) {
        char row[512];
        snprintf(row, sizeof row,
                 "benchmark=bandwidth|backend=opencl|device=cpu|variant=kernel-path-%zu|sweep=matrix|size_bytes=1073741824|"
                 "bytes_per_rep=1073741824|n=10|unit=GB/s|valid=1|timer=event|stop=stable|params=%s",
                 i, cells[i]);
        append_row(path, row);
    }
    append_row(path, "benchmark=bandwidth|backend=opencl|device=cpu|variant=kernel-read-malloc|sweep=matrix|n=0|"
                     "valid=1|timer=none|stop=unsupported|params=from=malloc;to=device;engine=kernel|"
                     "note=not supported: no system SVM");
    plot_ok("matrix");
    expect_whole_figure("matrix", "bandwidth-opencl-matrix");

    /* Without matrix rows, no matrix figure. */
    fixture_copy("nomatrix");
    sh_in_tmp("find nomatrix -name '*.csv' ! -name 'bandwidth-opencl*' -delete");
    plot_ok("nomatrix");
    assert_int_equal(file_size("nomatrix", "bandwidth-opencl-matrix.png"), -1);
}

/* A results CSV the suite's readers refuse (a NaN figure, a NUL byte, a
 * short row) is drawn from by no figure, and its figures of before go: one
 * line in the readers' words, the other files' figures still drawn, exit
 * 1. Without the report to read them, nothing is drawn. */
static void test_results_the_readers_refuse_are_not_drawn(void **state)
{
    (void)state;
    static const struct {
        const char *plant, *error;
    } cases[] = {
        {"awk -F, -v OFS=, 'NR == 4 { $22 = \"nan\" } 1' refused/stream-opencl.csv > t && "
         "mv t refused/stream-opencl.csv",
         "stream-opencl.csv:4: column 'figure': 'nan' is not a number"},
        {"sed -i '5s/triad/tri\\x00ad/' refused/stream-opencl.csv",
         "stream-opencl.csv:5: binary data (byte 0x00): not a CSV text file"},
        {"sed -i '4s/,[^,]*$//' refused/stream-opencl.csv", "stream-opencl.csv:4: 26 fields, the header has 27"},
    };
    for (size_t i = 0; i < countof(cases); ++i) {
        fixture_copy("refused");
        sh_in_tmp("find refused -name '*.csv' ! -name 'stream-opencl*' ! -name 'fma-opencl*' -delete && "
                  "echo old > refused/stream-opencl-footprint.png && %s",
                  cases[i].plant);
        run_result r = plot("", "refused");
        char want[512];
        snprintf(want, sizeof want, "%s/refused/%s", tmp, cases[i].error);
        expect_error_on_stderr(&r, "plot.sh", cases[i].plant, 1, want);
        expect_in(r.out, "plot.sh: 1 figure(s) in ");
        run_free(&r);
        expect_whole_figure("refused", "fma-opencl-gx");
        assert_int_equal(figures_in("refused"), 2);
    }
    fixture_copy("notool");
    run_result r = plot("CROSSROOF_TOOLS=/nonexistent/crossroof-tools", "notool");
    expect_error_line(&r, "plot.sh", "CROSSROOF_TOOLS=/nonexistent/crossroof-tools", 1,
                      "/nonexistent/crossroof-tools/report");
    run_free(&r);
    assert_int_equal(figures_in("notool"), 0);
}

/* What may stand where a device's metadata file goes (a link to nothing,
 * a FIFO, a folder), and the line plot.sh refuses it with. */
static const char *const metadata_no_file[][2] = {
    {"ln -s nowhere", "stream-opencl.meta.csv: a symbolic link to nothing"},
    {"mkfifo", "stream-opencl.meta.csv: not a regular file"},
    {"mkdir", "stream-opencl.meta.csv: not a regular file"},
};

/* Each is refused as a results file the readers refuse is: one line
 * naming it, its CSV's figures not drawn (the one of before gone), the
 * others drawn, exit 1. */
static void test_metadata_that_is_no_file_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < countof(metadata_no_file); ++i) {
        fixture_copy("nometa");
        sh_in_tmp("find nometa -name '*.csv' ! -name 'stream-opencl*' ! -name 'fma-opencl*' -delete && "
                  "echo old > nometa/stream-opencl-footprint.png && rm nometa/stream-opencl.meta.csv && "
                  "%s nometa/stream-opencl.meta.csv",
                  metadata_no_file[i][0]);
        char cmd[2048], want[512];
        snprintf(cmd, sizeof cmd, "timeout 20 '%s' '%s/nometa'", PLOT, tmp);
        run_result r = run_shell(cmd);
        snprintf(want, sizeof want, "%s/nometa/%s", tmp, metadata_no_file[i][1]);
        expect_error_on_stderr(&r, "plot.sh", metadata_no_file[i][0], 1, want);
        run_free(&r);
        expect_whole_figure("nometa", "fma-opencl-gx");
        assert_int_equal(figures_in("nometa"), 2);
    }
}

/* A directory where a figure goes: that figure is not drawn, one line in
 * plot.sh's words names the path, the other figures are, exit 1. */
static void test_directory_in_a_figures_place(void **state)
{
    (void)state;
    fixture_copy("blocked");
    sh_in_tmp("find blocked -name '*.csv' ! -name 'stream-opencl*' ! -name 'fma-opencl*' -delete && "
              "mkdir blocked/fma-opencl-gx.png");
    run_result r = plot("", "blocked");
    char want[512];
    snprintf(want, sizeof want, "%s/blocked/fma-opencl-gx.png", tmp);
    expect_error_on_stderr(&r, "plot.sh", "mkdir fma-opencl-gx.png", 1, want);
    run_free(&r);
    expect_whole_figure("blocked", "stream-opencl-footprint");
}

/* Bad usage: one line and exit 2, nothing drawn. */
/* A results file that is a FIFO or a link to /dev/zero is refused at once,
 * naming it: gnuplot would wait on the one and read the other without end. */
static void test_results_that_are_no_file_are_refused(void **state)
{
    (void)state;
    static const char *const plants[] = {"mkfifo", "ln -s /dev/zero"};
    for (size_t i = 0; i < sizeof plants / sizeof *plants; ++i) {
        fixture_copy("nofile");
        sh_in_tmp("rm nofile/stream-opencl.csv && %s nofile/stream-opencl.csv", plants[i]);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "timeout 20 '%s' '%s/nofile'", PLOT, tmp);
        run_result r = run_shell(cmd);
        expect_error_line(&r, "plot.sh", plants[i], 1, "stream-opencl.csv: not a regular file");
        run_free(&r);
    }
}

static void test_bad_usage(void **state)
{
    (void)state;
    expect_listed_bad_inputs("plot.sh", "plot/tests/bad_inputs.txt");
}

/* plot.sh is run from its folder in the source tree, as the benchmarks
 * are from theirs; it reads the CSVs with the report beside the executables
 * under test, as run_all.sh finds its tools (unless CROSSROOF_TOOLS says). */
static int setup_plot(void **state)
{
    int rc = setup(state);
    static char tools[1024];
    snprintf(tools, sizeof tools, "%s/../tools", bin_dir);
    setenv("CROSSROOF_TOOLS", tools, 0);
    bin_dir = CR_SOURCE_DIR "/plot";
    return rc;
}

TEST_MAIN(setup_plot, teardown, test_every_figure_is_whole, test_full_disk_leaves_no_partial_figure,
              test_stopped_drawing_leaves_no_partial_figure, test_old_figure_never_passes_for_new, test_cluster_headline,
              test_cluster_headline_is_the_memory_triad, test_energy_levels_figure,
              test_energy_levels_without_a_sensor, test_energy_levels_number_forms, test_paths_matrix_figure,
              test_results_that_are_no_file_are_refused, test_metadata_that_is_no_file_is_refused,
              test_directory_in_a_figures_place,
              test_results_the_readers_refuse_are_not_drawn, test_bad_usage)
