/* The CUDA launch check's id range (regspill/kernel_ids.h): exactly the
 * 2^32 threads a 32-bit id numbers pass, one more is refused with a reason,
 * and no count wraps into passing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "regspill/kernel_ids.h"
#include "tests/test_main.h"

#include <string.h>

static void test_every_32_bit_id_passes(void **state)
{
    (void)state;
    char err[256] = "";
    assert_int_equal(regspill_check_cuda_ids(1, err, sizeof err), CR_OK);
    assert_int_equal(regspill_check_cuda_ids(UINT64_C(4294967296), err, sizeof err), CR_OK);
    assert_string_equal(err, "");
}

static void test_one_more_is_refused(void **state)
{
    (void)state;
    char err[256] = "";
    assert_int_equal(regspill_check_cuda_ids(UINT64_C(4294967297), err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "4294967297 work-items"));
    assert_non_null(strstr(err, "at most 4294967296"));
    /* Counts that are ids modulo 2^32 (2^33, 2^64 - 1) do not pass either. */
    assert_int_equal(regspill_check_cuda_ids(UINT64_C(1) << 33, err, sizeof err), CR_ERR);
    assert_int_equal(regspill_check_cuda_ids(UINT64_MAX, err, sizeof err), CR_ERR);
}

TEST_MAIN(NULL, NULL, test_every_32_bit_id_passes, test_one_more_is_refused)
