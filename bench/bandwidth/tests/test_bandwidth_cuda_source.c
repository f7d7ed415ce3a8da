/* The CUDA backend of the bandwidth benchmark, read as source (no GPU
 * needed): it gives the design its placement hook, and the hook returns
 * the pages of every managed kernel path to the host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/test_main.h"

#ifndef BW_CUDA_SRC
#error "build with -DBW_CUDA_SRC (bench/bandwidth/build.mk)"
#endif

static void test_backend_table_has_the_placement_hook(void **state)
{
    (void)state;
    static const char *const says[] = {"cuda_prepare, cuda_place, cuda_run", NULL};
    cuda_source_expect_part(BW_CUDA_SRC,
                            &(cuda_source_part){"const bw_backend bandwidth_cuda_backend = {", "};", says, NULL});
}

/* Every managed kernel path, with or without the timed prefetch, starts
 * its repetitions with the pages on the host. */
static void test_placement_covers_every_managed_kernel_path(void **state)
{
    (void)state;
    static const char *const managed_ids[] = {"P_KR_MANAGED ", "P_KW_MANAGED ", "P_KR_MANAGED_PREFETCH",
                                              "P_KW_MANAGED_PREFETCH", NULL};
    static const char *const sends_them_home[] = {"managed_kernel(p->id) ? managed_to_host(", NULL};
    static const cuda_source_part parts[] = {
        {"static bool managed_kernel(int id)", "}", managed_ids, NULL},
        {"static cr_status cuda_place(", "}", sends_them_home, NULL},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i)
        cuda_source_expect_part(BW_CUDA_SRC, &parts[i]);
}

TEST_MAIN(NULL, NULL, test_backend_table_has_the_placement_hook,
          test_placement_covers_every_managed_kernel_path)
