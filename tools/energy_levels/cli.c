#define _GNU_SOURCE
#include "energy_levels/cli.h"

#include "energy_levels/device_dir.h"
#include "energy_levels/levels.h"
#include "energy_levels/output.h"
#include "energy_levels/thesis.h"

#include <math.h>
#include <string.h>

#define PROG "energy-levels"

static const char usage_text[] =
    "usage: " PROG " DEVICE_DIR\n"
    "       " PROG " --help\n"
    "\n"
    "What one byte costs in energy at each level of the device's memory system (dram, llc,\n"
    "shared, pcie, zero-copy) and what one operation costs (atomic, sfu-op, sp-op, dp-op),\n"
    "from the energy columns of the results CSVs in DEVICE_DIR (a device directory of a run),\n"
    "beside Ranasinghe's Table 5.1 (2014, K20c). Writes DEVICE_DIR/energy-levels.csv:\n"
    "level,basis,pj,rows,sensor,status,thesis_pj,thesis_symbol,source,reason, status being\n"
    "measured, no-sensor (rows, no energy: the reason of the sensor row) or no-rows (why).\n"
    "Exit status: 0 written; 1 a CSV that does not read (FILE:LINE named) or a write that\n"
    "failed; 2 bad usage or no such directory.\n";

/* One line on err, as every tool of the suite says it. */
static int fail(FILE *err, int status, const char *what)
{
    fprintf(err, PROG ": error: %s\n", what);
    return status;
}

static void summary(FILE *out, const el_level *l, size_t n, const char *path)
{
    for (size_t i = 0; i < n; ++i) {
        fprintf(out, "%-10s %-8s ", l[i].level, el_basis_name(l[i].basis));
        if (isfinite(l[i].pj))
            fprintf(out, "%10.4g pJ", l[i].pj);
        else
            fprintf(out, "%13s", "-");
        fprintf(out, "  %s", el_status_name(l[i].status));
        if (isfinite(l[i].thesis_pj))
            fprintf(out, "%*s  thesis %.4g pJ (%s)", 9 - (int)strlen(el_status_name(l[i].status)), "",
                    l[i].thesis_pj, l[i].thesis_symbol);
        fputc('\n', out);
    }
    fprintf(out, PROG ": %s: %zu level(s)\n", path, n);
}

int el_main(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        fputs(usage_text, out);
        return EL_EXIT_OK;
    }
    if (argc != 2 || argv[1][0] == '\0' || argv[1][0] == '-')
        return fail(err, EL_EXIT_USAGE, "usage: " PROG " DEVICE_DIR (--help says more)");
    char why[4600];
    el_device d;
    int loaded = el_device_load(&d, argv[1], why, sizeof why);
    if (loaded != 0)
        return fail(err, loaded == EL_BAD_FILE ? EL_EXIT_BAD_DATA : EL_EXIT_USAGE, why);
    el_level levels[EL_MAX_LEVELS];
    size_t n = el_levels_compute(&d, levels, EL_MAX_LEVELS);
    int status = EL_EXIT_OK;
    if (el_thesis_apply_builtin(levels, n, why, sizeof why) != 0) {
        status = fail(err, EL_EXIT_BAD_DATA, why);
    } else {
        char path[sizeof d.path + 32];
        snprintf(path, sizeof path, "%s/energy-levels.csv", d.path);
        if (el_write_file(path, levels, n, why, sizeof why) != 0)
            status = fail(err, EL_EXIT_BAD_DATA, why);
        else
            summary(out, levels, n, path);
    }
    el_device_free(&d);
    return status;
}
