/* critical-points: the concurrency levels and critical points of a kernel's
 * register count on one GPU architecture (Li, Eq. 4.1-4.5), under Li's
 * per-block register rule, NVIDIA's per-warp rule, or both. Host only: it
 * reads the architecture table, not a device. */
#define _GNU_SOURCE
#include "regspill/occupancy.h"
#include "shared/output_check.h"
#include "error.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "critical-points"

static const char usage_text[] =
    "usage: " PROG " --arch ARCH --threads N | --warps W [--smem BYTES] [--regs MIN:MAX]\n"
    "                       [--rule per-block|per-warp|both] [--csv] [--list-archs] [--help]\n"
    "\n"
    "Concurrency levels (blocks per SM) of a kernel over its registers per thread,\n"
    "and the critical points: the last register count of each level.\n"
    "\n"
    "  --arch ARCH      sm_90, compute_90, 90, 9.0 or a family name (hopper)\n"
    "  --threads N      threads per block\n"
    "  --warps W        warps per block (32 threads each), instead of --threads\n"
    "  --smem BYTES     shared memory per block, static + dynamic (default 0)\n"
    "  --regs MIN:MAX   registers per thread to scan (default 1:the architecture's maximum);\n"
    "                   a single N scans N only\n"
    "  --rule RULE      per-block, per-warp or both (default both)\n"
    "  --csv            CSV: rule,r_lo,r_hi,critical_point,blocks_per_sm,warps_per_sm,occupancy,limiter\n"
    "  --list-archs     list the known architectures and exit\n"
    "  --help           this text\n"
    "\n"
    "Exit status: 0 on success, 2 on bad input.\n";

static const char note_per_block[] = "per-block: Li Eq. 4.3, registers of a whole block rounded to the allocation unit";
static const char note_per_warp[] =
    "per-warp: NVIDIA's rule, registers rounded per warp, warps placed per scheduler partition";

#define die(status, ...) cr_die(PROG, status, __VA_ARGS__)

#define bad_input(...) die(2, __VA_ARGS__)

/* A decimal number without sign, space or trailing characters that fits an
 * unsigned int; false otherwise. */
static bool parse_uint(const char *s, size_t len, unsigned *out)
{
    if (len == 0 || len > 32)
        return false;
    char buf[40];
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (buf[0] < '0' || buf[0] > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno == ERANGE || *end != '\0' || v > UINT_MAX)
        return false;
    *out = (unsigned)v;
    return true;
}

static unsigned number_option(const char *opt, const char *arg)
{
    unsigned v;
    if (!parse_uint(arg, strlen(arg), &v))
        bad_input("%s needs a non-negative decimal number that fits 32 bits, not '%s'", opt, arg);
    return v;
}

static void list_archs(void)
{
    printf("%-7s %-9s %-22s %7s %7s %4s %5s %4s %5s %6s %7s %7s %7s %4s %4s\n", "arch", "family", "example",
           "regs/SM", "regs/bk", "r/th", "rUnit", "part", "warps", "blocks", "thr/bk", "smem/SM", "smem/bk", "sU",
           "res");
    for (size_t i = 0; i < occ_arch_count; ++i) {
        const occ_arch *a = &occ_archs[i];
        printf("%-7s %-9s %-22s %7u %7u %4u %5u %4u %5u %6u %7u %7u %7u %4u %4u\n", a->name, a->family, a->example,
               a->regs_per_sm, a->regs_per_block, a->max_regs_per_thread, a->reg_unit, a->partitions,
               a->max_warps_per_sm, a->max_blocks_per_sm, a->max_threads_per_block, a->smem_per_sm,
               a->smem_per_block, a->smem_unit, a->smem_reserved);
    }
}

static const char *rule_short(occ_rule r) { return r == OCC_RULE_PER_BLOCK ? "per-block" : "per-warp"; }

static void print_rule_text(occ_rule rule, const occ_level *lv, int n)
{
    printf("\n%s\n", occ_rule_name(rule));
    if (n == 0) {
        printf("  no register count in the range can launch a block\n");
        printf("  critical points: none\n");
        return;
    }
    printf("  %-9s  %9s  %8s  %9s  %s\n", "registers", "blocks/SM", "warps/SM", "occupancy", "limiter");
    for (int i = 0; i < n; ++i) {
        char range[24];
        snprintf(range, sizeof range, "%u-%u", lv[i].r_lo, lv[i].r_hi);
        printf("  %-9s  %9u  %8u  %8.1f%%  %s\n", range, lv[i].at_cp.blocks_per_sm, lv[i].at_cp.warps_per_sm,
               100.0 * lv[i].at_cp.occupancy, occ_limiter_name(lv[i].at_cp.limiter));
    }
    printf("  critical points:");
    for (int i = 0; i < n; ++i)
        printf(" %u", lv[i].r_hi);
    printf("\n");
}

static void print_rule_csv(occ_rule rule, const occ_level *lv, int n)
{
    for (int i = 0; i < n; ++i)
        printf("%s,%u,%u,%u,%u,%u,%.6f,%s\n", rule_short(rule), lv[i].r_lo, lv[i].r_hi, lv[i].r_hi,
               lv[i].at_cp.blocks_per_sm, lv[i].at_cp.warps_per_sm, lv[i].at_cp.occupancy,
               occ_limiter_name(lv[i].at_cp.limiter));
}

static void known_archs(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < occ_arch_count && used < len; ++i) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "", occ_archs[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* What the command line asked for. */
typedef struct {
    const char *arch_name, *regs_arg;
    bool have_threads, have_warps, csv, list, help;
    unsigned threads, warps, smem;
    bool rules[2]; /* by occ_rule */
} cp_options;

static void rule_option(cp_options *o, const char *arg)
{
    if (strcmp(arg, "per-block") == 0) {
        o->rules[OCC_RULE_PER_BLOCK] = true;
        o->rules[OCC_RULE_PER_WARP] = false;
    } else if (strcmp(arg, "per-warp") == 0) {
        o->rules[OCC_RULE_PER_BLOCK] = false;
        o->rules[OCC_RULE_PER_WARP] = true;
    } else if (strcmp(arg, "both") == 0) {
        o->rules[OCC_RULE_PER_BLOCK] = o->rules[OCC_RULE_PER_WARP] = true;
    } else {
        bad_input("unknown rule '%s' (per-block, per-warp or both)", arg);
    }
}

enum { OPT_ARCH = 1000, OPT_THREADS, OPT_WARPS, OPT_SMEM, OPT_REGS, OPT_RULE, OPT_CSV, OPT_LIST, OPT_HELP };

/* A getopt_long result other than an option: one line, exit 2. */
static void bad_option(int c, char **argv)
{
    if (c == ':')
        bad_input("option %s needs a value", argv[optind - 1]);
    if (optopt >= OPT_ARCH)
        bad_input("option '%s' takes no value", argv[optind - 1]);
    if (optopt > 0 && optopt < 128)
        bad_input("unknown option '-%c' (see --help)", optopt);
    bad_input("unknown option '%s' (see --help)", argv[optind - 1]);
}

static void parse_options(int argc, char **argv, cp_options *o)
{
    static const struct option longopts[] = {
        {"arch", required_argument, NULL, OPT_ARCH},   {"threads", required_argument, NULL, OPT_THREADS},
        {"warps", required_argument, NULL, OPT_WARPS}, {"smem", required_argument, NULL, OPT_SMEM},
        {"regs", required_argument, NULL, OPT_REGS},   {"rule", required_argument, NULL, OPT_RULE},
        {"csv", no_argument, NULL, OPT_CSV},           {"list-archs", no_argument, NULL, OPT_LIST},
        {"help", no_argument, NULL, OPT_HELP},         {NULL, 0, NULL, 0},
    };
    *o = (cp_options){.rules = {true, true}};
    opterr = 0; /* our own one-line messages */
    for (int c; (c = getopt_long(argc, argv, ":", longopts, NULL)) != -1;) {
        switch (c) {
        case OPT_ARCH: o->arch_name = optarg; break;
        case OPT_THREADS:
            o->threads = number_option("--threads", optarg);
            o->have_threads = true;
            break;
        case OPT_WARPS:
            o->warps = number_option("--warps", optarg);
            o->have_warps = true;
            break;
        case OPT_SMEM: o->smem = number_option("--smem", optarg); break;
        case OPT_REGS: o->regs_arg = optarg; break;
        case OPT_RULE: rule_option(o, optarg); break;
        case OPT_CSV: o->csv = true; break;
        case OPT_LIST: o->list = true; break;
        case OPT_HELP: o->help = true; break;
        default: bad_option(c, argv);
        }
    }
    if (optind < argc)
        bad_input("unexpected argument '%s' (see --help)", argv[optind]);
}

static const occ_arch *find_arch(const char *name)
{
    if (!name)
        bad_input("missing --arch (see --list-archs)");
    const occ_arch *a = occ_arch_find(name);
    if (!a) {
        char known[512];
        known_archs(known, sizeof known);
        bad_input("unknown architecture '%s' (known: %s, or a family name)", name, known);
    }
    return a;
}

/* The block's threads and shared memory, within what the architecture takes. */
static void check_block(cp_options *o, const occ_arch *a)
{
    if (o->have_threads && o->have_warps)
        bad_input("give --threads or --warps, not both");
    if (!o->have_threads && !o->have_warps)
        bad_input("missing --threads or --warps");
    if (o->have_warps) {
        if (o->warps == 0 || o->warps > a->max_threads_per_block / 32)
            bad_input("--warps %u outside 1..%u for %s", o->warps, a->max_threads_per_block / 32, a->name);
        o->threads = o->warps * 32;
    }
    if (o->threads == 0 || o->threads > a->max_threads_per_block)
        bad_input("--threads %u outside 1..%u for %s", o->threads, a->max_threads_per_block, a->name);
    if (o->smem > a->smem_per_block)
        bad_input("--smem %u above the %u B per-block maximum of %s", o->smem, a->smem_per_block, a->name);
}

/* --regs MIN:MAX or N, within the architecture's registers per thread;
 * without it, all of them. */
static void register_range(const char *arg, const occ_arch *a, unsigned *r_min, unsigned *r_max)
{
    *r_min = 1, *r_max = a->max_regs_per_thread;
    if (!arg)
        return;
    const char *colon = strchr(arg, ':');
    bool ok;
    if (colon) {
        ok = parse_uint(arg, (size_t)(colon - arg), r_min) && parse_uint(colon + 1, strlen(colon + 1), r_max);
    } else {
        ok = parse_uint(arg, strlen(arg), r_min);
        *r_max = *r_min;
    }
    if (!ok)
        bad_input("--regs needs MIN:MAX (decimal numbers), not '%s'", arg);
    if (*r_min == 0 || *r_max == 0 || *r_min > a->max_regs_per_thread || *r_max > a->max_regs_per_thread)
        bad_input("--regs %s outside 1..%u for %s", arg, a->max_regs_per_thread, a->name);
    if (*r_min > *r_max)
        bad_input("--regs %s: MIN above MAX", arg);
}

static void print_text(const cp_options *o, const occ_arch *a, unsigned r_min, unsigned r_max,
                       occ_level levels[2][256], const int nlev[2])
{
    printf("architecture: %s (%s, e.g. %s)\n", a->name, a->family, a->example);
    printf("  per SM: %u registers in %u partitions (unit %u), %u warps, %u blocks, %u B shared memory\n",
           a->regs_per_sm, a->partitions, a->reg_unit, a->max_warps_per_sm, a->max_blocks_per_sm, a->smem_per_sm);
    printf("  per block: %u registers, %u threads, %u B shared memory (unit %u B, %u B reserved)\n",
           a->regs_per_block, a->max_threads_per_block, a->smem_per_block, a->smem_unit, a->smem_reserved);
    printf("kernel: %u threads (%u warps) per block, %u B shared memory per block, registers per thread %u..%u\n",
           o->threads, (o->threads + 31) / 32, o->smem, r_min, r_max);
    if (o->rules[OCC_RULE_PER_BLOCK])
        printf("%s\n", note_per_block);
    if (o->rules[OCC_RULE_PER_WARP])
        printf("%s\n", note_per_warp);
    for (int r = 0; r < 2; ++r)
        if (o->rules[r])
            print_rule_text((occ_rule)r, levels[r], nlev[r]);
}

int main(int argc, char **argv)
{
    cr_check_output_at_exit(PROG);
    cp_options o;
    parse_options(argc, argv, &o);
    if (o.help) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (o.list) {
        list_archs();
        return 0;
    }
    const occ_arch *a = find_arch(o.arch_name);
    check_block(&o, a);
    unsigned r_min, r_max;
    register_range(o.regs_arg, a, &r_min, &r_max);

    occ_level levels[2][256];
    int nlev[2] = {0, 0};
    for (int r = 0; r < 2; ++r) {
        if (!o.rules[r])
            continue;
        char err[256];
        nlev[r] = occ_critical_points(a, o.threads, o.smem, r_min, r_max, (occ_rule)r, levels[r], 256, err, sizeof err);
        if (nlev[r] < 0)
            bad_input("%s", err);
        if (nlev[r] > 256)
            nlev[r] = 256; /* cannot happen: at most 255 register counts */
    }
    if (o.csv) {
        printf("rule,r_lo,r_hi,critical_point,blocks_per_sm,warps_per_sm,occupancy,limiter\n");
        for (int r = 0; r < 2; ++r)
            if (o.rules[r])
                print_rule_csv((occ_rule)r, levels[r], nlev[r]);
    } else {
        print_text(&o, a, r_min, r_max, levels, nlev);
    }
    return 0;
}
