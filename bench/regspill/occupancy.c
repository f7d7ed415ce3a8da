#define _POSIX_C_SOURCE 200809L
#include "regspill/occupancy.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Per-architecture resources.
 *
 * Sources:
 *  - NVIDIA CUDA C++ Programming Guide, "Technical Specifications per
 *    Compute Capability": registers per SM and per block, registers per
 *    thread, resident warps and blocks per SM, threads per block, shared
 *    memory per SM and per block (the opt-in maximum from cc 7.0).
 *  - The CUDA toolkit's cuda_occupancy.h (cc 3.0 and later): register and
 *    shared-memory allocation units, register-file partitions, block caps,
 *    the shared-memory configurations of cc 7.0+ (smem_per_sm is the largest
 *    one) and the 1 KB the driver reserves per block from cc 8.0.
 *  - NVIDIA's CUDA Occupancy Calculator spreadsheet for Fermi: register
 *    allocation unit 64, warp allocation granularity 2 (used as 2
 *    partitions), shared-memory unit 128.
 *  - Li's thesis, Table 4.1, for the Fermi, Kepler and Maxwell rows.
 *
 * sm_62 holds at most 32 K registers per block, like the other Tegra parts
 * (sm_32, sm_53), per the Programming Guide's table.
 *
 * Columns: name, family, example, regs/SM, regs/block, regs/thread,
 * register unit, partitions, warps/SM, blocks/SM, threads/block, smem/SM,
 * smem/block, smem unit, smem reserved per block, compatibility partitions. */
const occ_arch occ_archs[] = {
    {"sm_20", "Fermi", "GTX 570 / Tesla C2070", 32768, 32768, 63, 64, 2, 48, 8, 1024, 49152, 49152, 128, 0, 0},
    {"sm_21", "Fermi", "GTX 460", 32768, 32768, 63, 64, 2, 48, 8, 1024, 49152, 49152, 128, 0, 0},
    {"sm_30", "Kepler", "Tesla K10", 65536, 65536, 63, 256, 4, 64, 16, 1024, 49152, 49152, 256, 0, 0},
    {"sm_32", "Kepler", "Tegra K1", 65536, 32768, 255, 256, 4, 64, 16, 1024, 49152, 49152, 256, 0, 0},
    {"sm_35", "Kepler", "Tesla K40", 65536, 65536, 255, 256, 4, 64, 16, 1024, 49152, 49152, 256, 0, 0},
    {"sm_37", "Kepler", "Tesla K80", 131072, 65536, 255, 256, 4, 64, 16, 1024, 114688, 49152, 256, 0, 0},
    {"sm_50", "Maxwell", "GTX 750 Ti", 65536, 65536, 255, 256, 4, 64, 32, 1024, 65536, 49152, 256, 0, 0},
    {"sm_52", "Maxwell", "Tesla M40", 65536, 65536, 255, 256, 4, 64, 32, 1024, 98304, 49152, 256, 0, 0},
    {"sm_53", "Maxwell", "Jetson TX1", 65536, 32768, 255, 256, 4, 64, 32, 1024, 65536, 49152, 256, 0, 0},
    {"sm_60", "Pascal", "Tesla P100", 65536, 65536, 255, 256, 2, 64, 32, 1024, 65536, 49152, 256, 0, 4},
    {"sm_61", "Pascal", "GTX 1080", 65536, 65536, 255, 256, 4, 64, 32, 1024, 98304, 49152, 256, 0, 0},
    {"sm_62", "Pascal", "Jetson TX2", 65536, 32768, 255, 256, 4, 64, 32, 1024, 65536, 49152, 256, 0, 0},
    {"sm_70", "Volta", "Tesla V100", 65536, 65536, 255, 256, 4, 64, 32, 1024, 98304, 98304, 256, 0, 0},
    {"sm_72", "Volta", "Jetson AGX Xavier", 65536, 65536, 255, 256, 4, 64, 32, 1024, 98304, 98304, 256, 0, 0},
    {"sm_75", "Turing", "Tesla T4", 65536, 65536, 255, 256, 4, 32, 16, 1024, 65536, 65536, 256, 0, 0},
    {"sm_80", "Ampere", "A100", 65536, 65536, 255, 256, 4, 64, 32, 1024, 167936, 166912, 128, 1024, 0},
    {"sm_86", "Ampere", "RTX 3090 / A40", 65536, 65536, 255, 256, 4, 48, 16, 1024, 102400, 101376, 128, 1024, 0},
    {"sm_87", "Ampere", "Jetson AGX Orin", 65536, 65536, 255, 256, 4, 48, 16, 1024, 167936, 166912, 128, 1024, 0},
    {"sm_89", "Ada", "RTX 4090 / L40", 65536, 65536, 255, 256, 4, 48, 24, 1024, 102400, 101376, 128, 1024, 0},
    {"sm_90", "Hopper", "H100 / H200", 65536, 65536, 255, 256, 4, 64, 32, 1024, 233472, 232448, 128, 1024, 0},
    {"sm_100", "Blackwell", "B200", 65536, 65536, 255, 256, 4, 64, 32, 1024, 233472, 232448, 128, 1024, 0},
    {"sm_103", "Blackwell", "B300", 65536, 65536, 255, 256, 4, 64, 32, 1024, 233472, 232448, 128, 1024, 0},
    {"sm_120", "Blackwell", "RTX 5090", 65536, 65536, 255, 256, 4, 48, 24, 1024, 102400, 101376, 128, 1024, 0},
};
const size_t occ_arch_count = sizeof occ_archs / sizeof occ_archs[0];

#define WARP 32u

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static unsigned long long div_up(unsigned long long x, unsigned long long y) { return (x + y - 1) / y; }

static unsigned long long round_up(unsigned long long x, unsigned long long y) { return div_up(x, y) * y; }

/* Strips a case-insensitive prefix; returns the rest or NULL. */
static const char *skip_prefix(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncasecmp(s, prefix, n) == 0 ? s + n : NULL;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; ++i)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

const occ_arch *occ_arch_find(const char *name)
{
    if (!name || !*name)
        return NULL;
    for (size_t i = 0; i < occ_arch_count; ++i)
        if (strcasecmp(name, occ_archs[i].family) == 0)
            return &occ_archs[i];

    const char *rest = skip_prefix(name, "sm_");
    if (!rest)
        rest = skip_prefix(name, "compute_");
    if (!rest)
        rest = name;

    /* "9.0" -> "90", "10.3" -> "103"; otherwise digits only. */
    char digits[16];
    size_t len = strlen(rest);
    const char *dot = strchr(rest, '.');
    if (dot) {
        size_t maj = (size_t)(dot - rest), min = len - maj - 1;
        if (!all_digits(rest, maj) || !all_digits(dot + 1, min) || maj + min >= sizeof digits)
            return NULL;
        memcpy(digits, rest, maj);
        memcpy(digits + maj, dot + 1, min);
        digits[maj + min] = '\0';
    } else {
        if (!all_digits(rest, len) || len >= sizeof digits)
            return NULL;
        memcpy(digits, rest, len + 1);
    }
    for (size_t i = 0; i < occ_arch_count; ++i)
        if (strcmp(occ_archs[i].name + 3, digits) == 0)
            return &occ_archs[i];
    return NULL;
}

const char *occ_limiter_name(occ_limiter l)
{
    static const char *const names[] = {[OCC_LIMIT_NONE] = "none",           [OCC_LIMIT_BLOCKS] = "blocks",
                                        [OCC_LIMIT_WARPS] = "warps",         [OCC_LIMIT_REGISTERS] = "registers",
                                        [OCC_LIMIT_SMEM] = "smem"};
    return (size_t)l < sizeof names / sizeof names[0] && names[l] ? names[l] : "?";
}

const char *occ_rule_name(occ_rule r)
{
    static const char *const names[] = {[OCC_RULE_PER_BLOCK] = "per-block (Li Eq. 4.3)",
                                        [OCC_RULE_PER_WARP] = "per-warp (NVIDIA)"};
    return (size_t)r < sizeof names / sizeof names[0] && names[r] ? names[r] : "?";
}

static int check_kernel(const occ_arch *a, unsigned threads, unsigned smem, char *err, size_t errlen)
{
    if (!a) {
        set_err(err, errlen, "no architecture");
        return -1;
    }
    if (threads == 0 || threads > a->max_threads_per_block) {
        set_err(err, errlen, "threads per block %u outside 1..%u for %s", threads, a->max_threads_per_block, a->name);
        return -1;
    }
    if (smem > a->smem_per_block) {
        set_err(err, errlen, "shared memory per block %u B above the %u B maximum of %s", smem, a->smem_per_block,
                a->name);
        return -1;
    }
    return 0;
}

/* Blocks per SM allowed by registers, per-warp rule, with the register file
 * split into `parts` partitions. */
static unsigned per_warp_regs(const occ_arch *a, unsigned warps, unsigned r, unsigned parts)
{
    unsigned long long per_warp = round_up((unsigned long long)WARP * r, a->reg_unit);
    /* The hardware check assumes a block's warps fill every partition. */
    if (per_warp * warps > a->regs_per_block || per_warp * round_up(warps, parts) > a->regs_per_block)
        return 0;
    unsigned long long warps_per_part = (a->regs_per_sm / parts) / per_warp;
    return (unsigned)(warps_per_part * parts / warps);
}

int occ_compute(const occ_arch *a, const occ_kernel *k, occ_rule rule, occ_result *out, char *err, size_t errlen)
{
    if (!k || !out) {
        set_err(err, errlen, "no kernel or no result");
        return -1;
    }
    if (check_kernel(a, k->threads_per_block, k->smem_per_block, err, errlen) != 0)
        return -1;
    if (k->regs_per_thread == 0 || k->regs_per_thread > a->max_regs_per_thread) {
        set_err(err, errlen, "registers per thread %u outside 1..%u for %s", k->regs_per_thread,
                a->max_regs_per_thread, a->name);
        return -1;
    }
    if (rule != OCC_RULE_PER_BLOCK && rule != OCC_RULE_PER_WARP) {
        set_err(err, errlen, "unknown register rule %d", (int)rule);
        return -1;
    }

    const unsigned w = (unsigned)div_up(k->threads_per_block, WARP);
    const unsigned r = k->regs_per_thread;
    occ_result res = {0};

    res.by_blocks = a->max_blocks_per_sm;
    res.by_warps = a->max_warps_per_sm / w;

    if (rule == OCC_RULE_PER_BLOCK) {
        unsigned long long per_block = round_up((unsigned long long)WARP * w * r, a->reg_unit);
        res.by_regs = per_block > a->regs_per_block ? 0 : (unsigned)(a->regs_per_sm / per_block);
    } else {
        res.by_regs = per_warp_regs(a, w, r, a->partitions);
        if (res.by_regs > 0 && a->compat_partitions && per_warp_regs(a, w, r, a->compat_partitions) == 0)
            res.by_regs = 0;
    }

    unsigned long long smem_alloc =
        round_up((unsigned long long)k->smem_per_block + a->smem_reserved, a->smem_unit);
    if (smem_alloc > (unsigned long long)a->smem_per_block + a->smem_reserved)
        res.by_smem = 0;
    else
        res.by_smem = smem_alloc ? (unsigned)(a->smem_per_sm / smem_alloc) : OCC_UNLIMITED;

    /* Smallest limit; the first in enum order wins a tie. */
    unsigned blocks = res.by_blocks;
    occ_limiter lim = OCC_LIMIT_BLOCKS;
    if (res.by_warps < blocks) {
        blocks = res.by_warps;
        lim = OCC_LIMIT_WARPS;
    }
    if (res.by_regs < blocks) {
        blocks = res.by_regs;
        lim = OCC_LIMIT_REGISTERS;
    }
    if (res.by_smem < blocks) {
        blocks = res.by_smem;
        lim = OCC_LIMIT_SMEM;
    }
    if (blocks == 0)
        lim = OCC_LIMIT_NONE;

    res.blocks_per_sm = blocks;
    res.warps_per_sm = blocks * w;
    res.occupancy = (double)res.warps_per_sm / a->max_warps_per_sm;
    res.limiter = lim;
    *out = res;
    return 0;
}

int occ_critical_points(const occ_arch *a, unsigned threads_per_block, unsigned smem_per_block, unsigned r_min,
                        unsigned r_max, occ_rule rule, occ_level *levels, size_t cap, char *err, size_t errlen)
{
    if (check_kernel(a, threads_per_block, smem_per_block, err, errlen) != 0)
        return -1;
    if (r_min == 0 || r_min > r_max || r_max > a->max_regs_per_thread) {
        set_err(err, errlen, "register range %u:%u is empty or outside 1..%u for %s", r_min, r_max,
                a->max_regs_per_thread, a->name);
        return -1;
    }
    if (!levels && cap > 0) {
        set_err(err, errlen, "no room for the levels");
        return -1;
    }

    int n = 0;
    bool open = false; /* a level is being extended */
    occ_level cur = {0};
    for (unsigned r = r_min; r <= r_max; ++r) {
        occ_kernel k = {threads_per_block, smem_per_block, r};
        occ_result res;
        if (occ_compute(a, &k, rule, &res, err, errlen) != 0)
            return -1;
        if (open && res.blocks_per_sm == cur.at_cp.blocks_per_sm) {
            cur.r_hi = r;
            cur.at_cp = res;
            continue;
        }
        if (open) {
            if ((size_t)n < cap)
                levels[n] = cur;
            ++n;
            open = false;
        }
        if (res.blocks_per_sm > 0) {
            cur.r_lo = cur.r_hi = r;
            cur.at_cp = res;
            open = true;
        }
    }
    if (open) {
        if ((size_t)n < cap)
            levels[n] = cur;
        ++n;
    }
    return n;
}
