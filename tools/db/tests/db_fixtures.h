/* Small runs of run_all.sh with known figures, written by the tests of
 * the results database: one OpenCL device with stream (a verified triad at
 * the fixed size, a footprint row and an unverified float row) and latency
 * (memory), its metadata and the run log; and a cluster run of three such
 * nodes and a missing one. Include after cmocka.h. */
#ifndef CR_DB_FIXTURES_H
#define CR_DB_FIXTURES_H

#include "shared/tests/put_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    const char *host, *date, *device;
    double triad;       /* stream triad double, fixed sweep, GB/s */
    double latency;     /* latency memory uint64, ns; NaN: the benchmark failed */
    const char *bad_figure; /* written as triad's figure instead, to corrupt the file */
    const char *triad_flags; /* the fixed triad's flags; NULL none */
} fixture;

static inline void make_dir(const char *path)
{
    assert_int_equal(mkdir(path, 0777) == 0 || errno == EEXIST, 1);
}

static const char results_header[] =
    "benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,"
    "ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,"
    "flags,cycles,note\n";

/* One results row: the columns a headline reads, the others empty. */
static inline void row(FILE *f, const char *bench, const char *device, const char *variant, const char *dtype,
                const char *sweep, const char *params, const char *figure, const char *unit, int valid,
                const char *flags)
{
    fprintf(f, "%s,opencl,%s,%s,%s,%s,1024,,,%s,,,5,,,,,,,,,%s,,%s,,%d,%s,,\n", bench, device, variant, dtype, sweep,
            params, figure, unit, valid, flags);
}

/* Where a run was written: what the tests import and name in queries. */
typedef struct {
    char path[512];
} fixture_run;

/* root/name: one OpenCL device with stream and latency, and the run log. */
static inline fixture_run make_run(const char *root, const char *name, const fixture *x)
{
    fixture_run run;
    char dev[600], path[700], text[2048];
    snprintf(run.path, sizeof run.path, "%s/%s", root, name);
    snprintf(dev, sizeof dev, "%s/opencl-0-dev", run.path);
    make_dir(run.path);
    make_dir(dev);
    char triad[64];
    snprintf(triad, sizeof triad, "%s", x->bad_figure ? x->bad_figure : "");
    if (!x->bad_figure)
        snprintf(triad, sizeof triad, "%.17g", x->triad);
    snprintf(path, sizeof path, "%s/stream-opencl.csv", dev);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(results_header, f);
    row(f, "stream", x->device, "triad", "double", "fixed", "host_limit_GBps=30.5;kind=triad", triad, "GB/s", 1,
        x->triad_flags ? x->triad_flags : "");
    row(f, "stream", x->device, "triad", "double", "footprint", "k=8", "999", "GB/s", 1, "cache");
    row(f, "stream", x->device, "triad", "float", "fixed", "", "7", "GB/s", 0, "unstable");
    assert_int_equal(fclose(f), 0);
    snprintf(text, sizeof text, "key,value\ndate,%s\nhost,%s\ndevice.name,%s\nbackend,opencl\nbenchmark,stream\n",
             x->date, x->host, x->device);
    put_file(dev, "stream-opencl.meta.csv", text);
    if (!isnan(x->latency)) {
        snprintf(path, sizeof path, "%s/latency-opencl.csv", dev);
        f = fopen(path, "w");
        assert_non_null(f);
        fputs(results_header, f);
        char lat[64];
        snprintf(lat, sizeof lat, "%.17g", x->latency);
        row(f, "latency", x->device, "memory", "uint64", "level", "footprint=1024", lat, "ns", 1, "");
        assert_int_equal(fclose(f), 0);
    }
    snprintf(text, sizeof text,
             "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n"
             "stream-opencl,opencl,0,%s,opencl-0-dev,passed,0,1.5,quick,%s,\n"
             "latency-opencl,opencl,0,%s,opencl-0-dev,%s,%d,0.5,quick,%s,%s\n",
             x->device, x->date, x->device, isnan(x->latency) ? "failed" : "passed", isnan(x->latency) ? 1 : 0,
             x->date, isnan(x->latency) ? "exit 1: boom" : "");
    put_file(run.path, "run-log.csv", text);
    return run;
}

/* The cluster run root/name: n1, n2 and n3 ran, n4 was expected and never
 * started; n3's triad is half the others', n2's latency benchmark failed. */
static inline fixture_run make_cluster_run(const char *root, const char *name)
{
    fixture_run cluster;
    char nodes[600];
    snprintf(cluster.path, sizeof cluster.path, "%s/%s", root, name);
    snprintf(nodes, sizeof nodes, "%s/nodes", cluster.path);
    make_dir(cluster.path);
    make_dir(nodes);
    const fixture n1 = {"vm", "2026-03-01T00:00:00Z", "Dev X", 100, 100, NULL, NULL};
    fixture n2 = n1, n3 = n1;
    n2.triad = 102;
    n2.latency = NAN;
    n3.triad = 50;
    n3.latency = 104;
    make_run(nodes, "n1", &n1);
    make_run(nodes, "n2", &n2);
    make_run(nodes, "n3", &n3);
    put_file(cluster.path, "expected-nodes", "n1\nn2\nn3\nn4\n");
    return cluster;
}

#endif
