#define _GNU_SOURCE
#include "cli.h"
#include "error.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char cs_cli_usage[] =
    "usage: cachesim TRACE SIZE_KB LINE_B ASSOC LRU|MFU|LFU|Rand WTNA|WBWA [options]\n"
    "\n"
    "Replays a memory trace (TRACE, or - for stdin) through a cache model and reports, per level,\n"
    "reads, read misses, writes, write misses, write-backs, cold/capacity/conflict misses and hit rate.\n"
    "\n"
    "  --level SIZE_KB,LINE_B,ASSOC,POLICY,WRITE  a further level below the last (repeatable)\n"
    "  --sector-bytes B     every level fetches B-byte sectors on a miss (default: whole lines)\n"
    "  --seed N             Rand's seed, not 0 (default 1)\n"
    "  --schedule trace|warp  issue order (default trace)\n"
    "  --warp-size N        work-items per warp: the WARP field / N is the warp (default 1)\n"
    "  --coalesce           a warp instruction's accesses to one L1 line count once\n"
    "  --prefetch KIND[:DEGREE[:DISTANCE]]  L1's prefetcher: next-line (on a miss, the DEGREE lines\n"
    "                       from DISTANCE lines on) or stride (once two accesses in a row moved by the\n"
    "                       same lines, that far ahead); off by default, as in Crawford's model\n"
    "  --csv                CSV, one row per level\n"
    "  --help               this text\n"
    "\n"
    "A trace holds at most 16 Mi (16777216) accesses.\n"
    "Exit status: 0 on success, 2 on bad input, 1 when out of memory.\n";

/* A decimal number from min to max: the option's value. */
static int parse_number(const char *opt, const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out, char *err, size_t errlen)
{
    errno = 0;
    char *end = NULL;
    unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (end == NULL || errno == ERANGE || *end != '\0' || v < min || v > max)
        return cr_errf(err, errlen, "%s needs a decimal number from %llu to %llu, not '%s'", opt, min, max, text);
    *out = v;
    return 0;
}

enum {
    OPT_LEVEL = 256,
    OPT_SECTOR,
    OPT_SEED,
    OPT_SCHEDULE,
    OPT_WARP_SIZE,
    OPT_COALESCE,
    OPT_PREFETCH,
    OPT_CSV,
    OPT_HELP
};

static const struct option long_options[] = {
    {"level", required_argument, NULL, OPT_LEVEL},
    {"sector-bytes", required_argument, NULL, OPT_SECTOR},
    {"seed", required_argument, NULL, OPT_SEED},
    {"schedule", required_argument, NULL, OPT_SCHEDULE},
    {"warp-size", required_argument, NULL, OPT_WARP_SIZE},
    {"coalesce", no_argument, NULL, OPT_COALESCE},
    {"prefetch", required_argument, NULL, OPT_PREFETCH},
    {"csv", no_argument, NULL, OPT_CSV},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* The first word that is a number below 0 (getopt reads it as options). */
static const char *negative_word(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9')
            return argv[i];
    return "-";
}

/* The options; positional words collected in order. */
static int parse_options(int argc, char **argv, cs_cli_options *o, char **words, int *word_count, unsigned *sector,
                         char *err, size_t errlen)
{
    unsigned long long v;
    opterr = 0;
    optind = 1;
    /* "-": positional words come back as 1, in place; ":": a missing value is told apart. */
    for (int c; (c = getopt_long(argc, argv, "-:", long_options, NULL)) != -1;) {
        switch (c) {
        case 1:
            if (*word_count == 6)
                return cr_errf(err, errlen, "unexpected argument '%s' (TRACE and five cache words already given)",
                               optarg);
            words[(*word_count)++] = optarg;
            break;
        case OPT_LEVEL: {
            /* levels[0] is the positional L1; each --level goes below the last. */
            if (o->sim.level_count == CS_LEVELS_MAX)
                return cr_errf(err, errlen, "more than %d levels", CS_LEVELS_MAX);
            char why[256];
            if (cs_geometry_parse(optarg, &o->sim.levels[o->sim.level_count], why, sizeof why) != 0)
                return cr_errf(err, errlen, "--level %s: %s", optarg, why);
            ++o->sim.level_count;
            break;
        }
        case OPT_SECTOR:
            if (parse_number("--sector-bytes", optarg, 1, UINT_MAX, &v, err, errlen) != 0)
                return -1;
            *sector = (unsigned)v;
            break;
        case OPT_SEED: /* not 0: xorshift's fixed point */
            if (parse_number("--seed", optarg, 1, ULLONG_MAX, &v, err, errlen) != 0)
                return -1;
            o->sim.seed = v;
            break;
        case OPT_SCHEDULE:
            if (strcmp(optarg, "trace") != 0 && strcmp(optarg, "warp") != 0)
                return cr_errf(err, errlen, "--schedule '%s' is neither trace nor warp", optarg);
            o->sim.schedule = optarg[0] == 'w' ? CS_SCHEDULE_WARP : CS_SCHEDULE_TRACE;
            break;
        case OPT_WARP_SIZE:
            if (parse_number("--warp-size", optarg, 1, 65536, &v, err, errlen) != 0)
                return -1;
            o->sim.warp_size = (unsigned)v;
            break;
        case OPT_COALESCE:
            o->sim.coalesce = true;
            break;
        case OPT_PREFETCH:
            if (cs_prefetch_parse(optarg, &o->sim.prefetch, err, errlen) != 0)
                return -1;
            break;
        case OPT_CSV:
            o->csv = true;
            break;
        case OPT_HELP:
            o->help = true;
            return 0;
        case ':':
            return cr_errf(err, errlen, "%s needs a value", argv[optind - 1]);
        default: /* a short option leaves optind inside its word: name it by optopt */
            /* "-32" where a size goes: a number below 0, not options 3 and 2 */
            if (optopt >= '0' && optopt <= '9')
                return cr_errf(err, errlen, "'%s' is below 0: sizes, lines and ways are whole numbers from 1",
                               negative_word(argc, argv));
            if (optopt > 0 && optopt < 256)
                return cr_errf(err, errlen, "unknown option '-%c'", optopt);
            return cr_errf(err, errlen, "unknown option '%s'", argv[optind - 1]);
        }
    }
    return 0;
}

int cs_cli_parse(int argc, char **argv, cs_cli_options *o, char *err, size_t errlen)
{
    *o = (cs_cli_options){.sim = {.seed = 1, .warp_size = 1, .level_count = 1}};
    char *words[6];
    int word_count = 0;
    unsigned sector = 0;
    if (parse_options(argc, argv, o, words, &word_count, &sector, err, errlen) != 0)
        return -1;
    if (o->help)
        return 0;
    if (word_count < 6)
        return cr_errf(err, errlen, "want TRACE SIZE_KB LINE_B ASSOC LRU|MFU|LFU|Rand WTNA|WBWA, got %d of the 6",
                       word_count);
    o->trace_path = words[0];
    char why[256];
    if (cs_geometry_parse_fields((const char *const *)&words[1], &o->sim.levels[0], why, sizeof why) != 0)
        return cr_errf(err, errlen, "L1: %s", why);
    for (size_t i = 0; i < o->sim.level_count; ++i) {
        if (sector)
            o->sim.levels[i].sector_bytes = sector;
        if (cs_geometry_check(&o->sim.levels[i], why, sizeof why) != 0)
            return cr_errf(err, errlen, "L%zu: %s", i + 1, why);
    }
    return 0;
}
