/* The OpenCL backend of the stream benchmark, read as source: every
 * kernel, dot included, is timed alone by the shared timed launch (the
 * host clock around enqueue and wait, and the kernel's own events), and
 * dot's partial sums are read back only after it, so that dot's figure is
 * its kernel's, as the other kernels' are and as the CUDA backend's dot
 * is (test_stream_cuda_static.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cuda_source.h"
#include "tests/test_main.h"

#ifndef STREAM_OPENCL_SRC
#error "build with -DSTREAM_OPENCL_SRC (bench/stream/build.mk)"
#endif

static void test_each_kernel_is_timed_alone(void **state)
{
    (void)state;
    static const char *const timed_alone[] = {"cr_cl_launch_timed(", NULL};
    static const char *const no_interval_of_its_own[] = {"clFinish", "cr_now_ns", "ev_read", NULL};
    cuda_source_expect_part(STREAM_OPENCL_SRC, &(cuda_source_part){"static cr_status cl_run(", "\n}", timed_alone,
                                                                   no_interval_of_its_own});
}

static void test_dot_partials_are_read_after_the_interval(void **state)
{
    (void)state;
    static const char *const read_after[] = {"clEnqueueReadBuffer(S.cl.queue, S.partial, CL_TRUE", NULL};
    cuda_source_expect_part(STREAM_OPENCL_SRC, &(cuda_source_part){"cr_cl_launch_timed(", "sum_partials(groups)",
                                                                   read_after, NULL});
}

TEST_MAIN(NULL, NULL, test_each_kernel_is_timed_alone, test_dot_partials_are_read_after_the_interval)
