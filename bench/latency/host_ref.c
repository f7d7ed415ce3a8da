/* Host reference backend of the latency benchmark: the same chain walked by
 * one host thread in plain C, timed with the host monotonic clock, so that
 * a CPU or APU device's latency can be set against its own cores'. */
#define _GNU_SOURCE
#include "latency/backend.h"
#include "latency/perm.h"
#include "metadata.h"
#include "topology.h"

#define LT_U64 uint64_t
#include "latency/chase.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t *Chain;
static uint64_t Words;

static cr_status host_list(FILE *f)
{
    fprintf(f, "0  host CPU (one thread)\n");
    return CR_OK;
}

/* The nominal clock in MHz: cpufreq's maximum where the kernel has it,
 * else what /proc/cpuinfo says (x86), else 0 (unknown). Cycles derived
 * from it are nominal cycles: a core running above or below it shifts
 * them, not the nanoseconds. */
static unsigned host_clock_mhz(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    unsigned long khz = 0;
    if (f) {
        if (fscanf(f, "%lu", &khz) != 1)
            khz = 0;
        fclose(f);
        if (khz)
            return (unsigned)(khz / 1000);
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[256];
    double mhz = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "cpu MHz", 7) == 0) {
            const char *colon = strchr(line, ':');
            if (colon)
                mhz = strtod(colon + 1, NULL);
            break;
        }
    fclose(f);
    return mhz > 0 ? (unsigned)(mhz + 0.5) : 0;
}

static cr_status host_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen; /* there is only the one host */
    memset(info, 0, sizeof *info);
    cr_cpu_model(info->name, sizeof info->name);
    snprintf(info->vendor, sizeof info->vendor, "host");
    snprintf(info->api_version, sizeof info->api_version, "C, one thread, CLOCK_MONOTONIC");
    info->is_cpu = info->unified_memory = info->has_fp64 = true;
    info->compute_units = 1;
    info->clock_mhz = host_clock_mhz();
    info->max_work_group = 1;
    info->warp_size = 1;
    info->global_mem_bytes = info->max_alloc_bytes = cr_host_memory_bytes();
    return CR_OK;
}

/* The design reads the host's levels from hwloc; only the line size is
 * said here, for hosts where hwloc has none. */
static void host_caches(lt_caches *out)
{
    memset(out, 0, sizeof *out);
    long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    if (line > 0) {
        out->line_bytes = (unsigned)line;
        snprintf(out->line_source, sizeof out->line_source, "sysconf(_SC_LEVEL1_DCACHE_LINESIZE)");
    }
}

static void host_release(void)
{
    free(Chain);
    Chain = NULL;
    Words = 0;
}

static cr_status host_prepare(const lt_layout *layout, const uint64_t *next, char *err, size_t errlen)
{
    host_release();
    if (lt_layout_check(layout, 1, "the host's walk", err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t words = layout->words;
    if (words == 0 || words > SIZE_MAX / sizeof(uint64_t)) {
        snprintf(err, errlen, "a chain of %" PRIu64 " words cannot be allocated", words);
        return CR_ERR;
    }
    /* Page-aligned like a device allocation, so lines never straddle. */
    void *p = NULL;
    if (posix_memalign(&p, 4096, (size_t)words * sizeof(uint64_t)) != 0) {
        snprintf(err, errlen, "cannot allocate %" PRIu64 " bytes for the host's chain", words * 8);
        return CR_ERR;
    }
    Chain = p;
    Words = words;
    memcpy(Chain, next, (size_t)words * sizeof(uint64_t));
    return CR_OK;
}

/* Out of line so that the timed interval holds the walk and nothing else. */
__attribute__((noinline)) static uint64_t walk(const uint64_t *next, uint64_t steps, uint64_t idx)
{
    LT_CHASE(next, idx, steps);
    return idx;
}

/* No cycles: no portable counter runs at the core's own clock (the x86
 * TSC ticks at a constant rate, whatever the core's), so the design falls
 * back on the nominal clock. */
static cr_status host_run(uint64_t steps, uint64_t start, cr_timing *t, lt_walk_out *out, char *err, size_t errlen)
{
    if (lt_chain_check_start(start, Words, err, errlen) != CR_OK)
        return CR_ERR;
    uint64_t t0 = cr_now_ns();
    uint64_t idx = walk(Chain, steps, start);
    uint64_t t1 = cr_now_ns();
    *t = (cr_timing){.has_event = false, .host_ns = t1 - t0};
    *out = (lt_walk_out){.end = idx};
    return CR_OK;
}

const lt_backend lt_host_backend = {
    .base = {.name = "host", .list_devices = host_list, .open = host_open, .close = host_release},
    .caches = host_caches, .prepare = host_prepare, .run = host_run, .max_pieces = 1,
    .one_piece_why = "the host's walk takes one buffer (malloc has no cap below the host's memory)",
};
