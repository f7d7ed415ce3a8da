/* The atomics backends read as source (no GPU needed): the CUDA one's
 * timed intervals, which start behind the stream's gate, enqueue the
 * kernel alone, with no call the host blocks in; and both size a group's
 * local memory by the shared at_local_fits/at_local_bytes, not a formula
 * of their own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/test_main.h"

#if !defined(AT_CUDA_SRC) || !defined(AT_OPENCL_SRC)
#error "build with -DAT_CUDA_SRC and -DAT_OPENCL_SRC (bench/atomics/build.mk)"
#endif

/* run() and run_lock(): two intervals, both gated, neither blocking. */
static void test_gated_intervals_do_not_block(void **state)
{
    (void)state;
    char *src = cuda_source_must_read(AT_CUDA_SRC);
    cuda_source_expect_gated_intervals(src, 2);
    assert_null(strstr(src, "cr_cuda_timer_start_ungated"));
    free(src);
}

static void test_local_memory_sized_by_the_shared_formula(void **state)
{
    (void)state;
    static const char *const shared_formula[] = {"at_local_fits(r, ", "at_local_bytes(r)", NULL};
    static const char *const own_formula[] = {"slots", NULL};
    const cuda_source_part cuda = {"static cr_status shared_bytes(", "\n}\n", shared_formula, own_formula};
    const cuda_source_part opencl = {"static cr_status local_counters(", "\n}\n", shared_formula, own_formula};
    cuda_source_expect_part(AT_CUDA_SRC, &cuda);
    cuda_source_expect_part(AT_OPENCL_SRC, &opencl);
}

TEST_MAIN(NULL, NULL, test_gated_intervals_do_not_block, test_local_memory_sized_by_the_shared_formula)
