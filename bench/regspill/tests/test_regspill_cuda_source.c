/* The CUDA backend of the regspill benchmark, read as source (no GPU
 * needed): its timed interval enqueues the launch and nothing that blocks
 * the host, and has no way out before the timer's stop, which opens the
 * gate that holds the stream (a failed launch too: its error is reported
 * after the stop), and the launch check holds launches to the ids the
 * kernel numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/test_main.h"

#ifndef RS_CUDA_SRC
#error "build with -DRS_CUDA_SRC (bench/regspill/build.mk)"
#endif

static void test_timed_interval_always_reaches_its_stop(void **state)
{
    (void)state;
    char *src = cuda_source_must_read(RS_CUDA_SRC);
    char *timed = cuda_source_sole_gated_interval(src);
    assert_non_null(strstr(timed, "cudaLaunchKernel("));
    free(timed);
    free(src);
}

static void test_launch_check_refuses_what_the_ids_cannot_number(void **state)
{
    (void)state;
    static const char *const says[] = {"regspill_check_cuda_ids(work_items,", NULL};
    cuda_source_expect_part(RS_CUDA_SRC, &(cuda_source_part){"static cr_status check_launch(", "\n}", says, NULL});
}

TEST_MAIN(NULL, NULL, test_timed_interval_always_reaches_its_stop,
          test_launch_check_refuses_what_the_ids_cannot_number)
