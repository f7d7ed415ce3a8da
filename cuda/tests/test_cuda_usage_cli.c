/* End to end: the CUDA executables refuse bad usage as usage, one line and
 * exit 2, with everything that needs no device checked before the device is
 * looked for: on a machine without a GPU such an input is never reported
 * as a skip (77, "no CUDA device"). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

/* "BIN ARGS" and what its one line says. */
typedef struct {
    const char *command, *text;
} cuda_bad_input;

static const cuda_bad_input cases[] = {
    {"stream-cuda --size 12", "size 12 is not a multiple of 8 bytes (one double)"},
    {"stream-cuda --concurrency 1:1G:x2", "--concurrency reaches 1073741824 work-items, above the 67108864"},
    {"stream-cuda --size 1T", "arrays of this size need 4 TiB of host memory"},
    {"stream-cuda --dtype float,float", "--dtype: 'float' is given twice"},
    {"stream-cuda --sweeps fixed --concurrency 1:4:x2", "--concurrency has no effect with --sweeps fixed"},
    {"bandwidth-cuda --sizes 1000", "--sizes: 1000 is not a multiple of 16 bytes"},
    {"bandwidth-cuda --sizes 1K:1T:x2", "transfers of this size need about 5 TiB of host memory"},
    {"atomics-cuda --strides 4G", "--strides reaches 4294967296 elements"},
    {"atomics-cuda --types float --ops min", "--ops min measures nothing with --types float"},
    {"atomics-cuda --sweeps host --strides 1:4:x2", "--strides has no effect with --sweeps host"},
    {"fma-cuda --per-cu 1T", "--per-cu reaches 1099511627776 per compute unit"},
    {"latency-cuda --footprint 4100", "footprint 4100 B is not a multiple of the line"},
    {"latency-cuda --footprint 1T", "--footprint reaches 1 TiB, above the"},
    {"latency-cuda --piece-bytes 8K", "--piece-bytes: the cuda backend holds the chain in one allocation"},
    {"sfu-cuda --versions intrinsic --types double --functions div",
     "--types double measures nothing with --functions div and --versions intrinsic"},
    {"sfu-cuda --versions half", "the cuda backend has no version 'half'"},
    {"regspill-cuda --offline --live 4", "--live has no effect with --offline"},
    {"cache-cuda --sweeps line", "--sweeps line needs capacity"},
};

/* The command's executable (its first word) refuses the rest as usage;
 * a build without it (no nvcc) skips. */
static void expect_usage_refused(const cuda_bad_input *c)
{
    size_t len = strcspn(c->command, " ");
    char bin[32];
    snprintf(bin, sizeof bin, "%.*s", (int)len, c->command);
    if (!cuda_binary_built(bin))
        skip();
    expect_error(bin, c->command + len + 1, 2, c->text);
}

static void test_usage_is_refused_before_the_device(void **state)
{
    (void)state;
    for (const cuda_bad_input *c = cases; c < cases + countof(cases); ++c)
        expect_usage_refused(c);
}

CLI_TEST_MAIN(test_usage_is_refused_before_the_device)
