/* The CUDA bandwidth backend's multi-stream paths as planned on the host
 * (cuda/bandwidth/transfer_plan.c), without a GPU: which transfers each
 * shape makes and on which device, why a node cannot run one (one device,
 * no peer access, no mapping of host memory), when the timer may gate the
 * stream, how kernels running at once share a device's wave, and how
 * malloc'd memory is reached. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../bandwidth/transfer_plan.h"
#include "tests/test_main.h"

#include <string.h>

/* A node of n devices, the benchmark on self, every peer reachable and
 * every device mapping host memory. */
static bw_cuda_topology node(unsigned n, int self)
{
    bw_cuda_topology t;
    memset(&t, 0, sizeof t);
    t.devices = n;
    t.self = self;
    for (unsigned k = 0; k < n; ++k) {
        t.peer_access[k] = (int)k != self;
        t.maps_host[k] = true;
    }
    return t;
}

static void expect_end(bw_cuda_end e, bool host, int device)
{
    assert_int_equal(e.host, host);
    if (!host)
        assert_int_equal(e.device, device);
}

static void expect_transfer(const bw_cuda_transfer *x, int runner, int from, int to)
{
    assert_int_equal(x->runner, runner);
    expect_end(x->from, from < 0, from);
    expect_end(x->to, to < 0, to);
}

enum { HOST = -1 };

/* Why the node refuses, "" where it does not. */
static const char *refusal(bw_cuda_shape shape, bool kernel, const bw_cuda_topology *t)
{
    static char why[256];
    why[0] = '\0';
    if (!bw_cuda_refusal(shape, kernel, t, why, sizeof why))
        assert_string_equal(why, "");
    return why;
}

/* Whether the shape's copy-engine transfers on t are all asynchronous to
 * the host, so that the timer may gate them. */
static bool copies_async(bw_cuda_shape shape, const bw_cuda_topology *t)
{
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    const unsigned n = bw_cuda_plan(shape, t, plan);
    return bw_cuda_plan_async(plan, n, false, t);
}

static void test_one_device_refuses_every_multi_device_shape(void **state)
{
    (void)state;
    bw_cuda_topology t = node(1, 0);
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    for (int s = 0; s < BW_SHAPE_COUNT; ++s)
        for (int kernel = 0; kernel < 2; ++kernel) {
            const char *why = refusal((bw_cuda_shape)s, kernel, &t);
            if (bw_cuda_shape_multi_device((bw_cuda_shape)s)) {
                assert_string_equal(why, "needs >= 2 devices (1 present)");
                assert_int_equal(bw_cuda_plan((bw_cuda_shape)s, &t, plan), 0);
            } else {
                assert_string_equal(why, "");
            }
        }
    assert_int_equal(bw_cuda_first_peer(&t), -1);
    t.devices = 0;
    assert_string_equal(refusal(BW_SHAPE_ALL_TO_HOST, false, &t), "needs >= 2 devices (0 present)");
}

static void test_single_device_shapes(void **state)
{
    (void)state;
    bw_cuda_topology t = node(1, 0);
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    assert_int_equal(bw_cuda_plan(BW_SHAPE_H2D, &t, plan), 1);
    expect_transfer(&plan[0], 0, HOST, 0);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_D2H, &t, plan), 1);
    expect_transfer(&plan[0], 0, 0, HOST);
    /* Duplex: host -> device first, then device -> host, as result() delivers them. */
    assert_int_equal(bw_cuda_plan(BW_SHAPE_DUPLEX, &t, plan), 2);
    expect_transfer(&plan[0], 0, HOST, 0);
    expect_transfer(&plan[1], 0, 0, HOST);
}

/* Three devices, the benchmark on the middle one: its peer is device 0;
 * all-to-one and one-to-all are run by it, one transfer per other device;
 * all-to-host and host-to-all by every device, its own. */
static void test_three_devices(void **state)
{
    (void)state;
    bw_cuda_topology t = node(3, 1);
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    assert_int_equal(bw_cuda_first_peer(&t), 0);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_P2P_READ, &t, plan), 1);
    expect_transfer(&plan[0], 1, 0, 1);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_P2P_WRITE, &t, plan), 1);
    expect_transfer(&plan[0], 1, 1, 0);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_ALL_TO_ONE, &t, plan), 2);
    expect_transfer(&plan[0], 1, 0, 1);
    expect_transfer(&plan[1], 1, 2, 1);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_ONE_TO_ALL, &t, plan), 2);
    expect_transfer(&plan[0], 1, 1, 0);
    expect_transfer(&plan[1], 1, 1, 2);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_ALL_TO_HOST, &t, plan), 3);
    for (int k = 0; k < 3; ++k)
        expect_transfer(&plan[k], k, k, HOST);
    assert_int_equal(bw_cuda_plan(BW_SHAPE_HOST_TO_ALL, &t, plan), 3);
    for (int k = 0; k < 3; ++k)
        expect_transfer(&plan[k], k, HOST, k);
    for (int s = 0; s < BW_SHAPE_COUNT; ++s)
        for (int kernel = 0; kernel < 2; ++kernel)
            assert_string_equal(refusal((bw_cuda_shape)s, kernel, &t), "");
}

/* Kernels dereference a peer's memory only where the benchmark's device
 * can address it; copy engines run either way (staged by the driver), but
 * then not behind the timer's gate. */
static void test_peer_access_decides_kernels_and_the_gate(void **state)
{
    (void)state;
    bw_cuda_topology t = node(3, 0);
    t.peer_access[2] = false;
    assert_string_equal(refusal(BW_SHAPE_ALL_TO_ONE, true, &t),
                        "no peer access between devices 0 and 2 (cudaDeviceCanAccessPeer is 0)");
    assert_string_equal(refusal(BW_SHAPE_ONE_TO_ALL, true, &t),
                        "no peer access between devices 0 and 2 (cudaDeviceCanAccessPeer is 0)");
    assert_string_equal(refusal(BW_SHAPE_P2P_READ, true, &t), ""); /* its peer is device 1 */
    assert_string_equal(refusal(BW_SHAPE_ALL_TO_ONE, false, &t), "");
    assert_string_equal(refusal(BW_SHAPE_ALL_TO_HOST, true, &t), ""); /* no peer memory in it */

    assert_false(copies_async(BW_SHAPE_ALL_TO_ONE, &t));
    assert_true(copies_async(BW_SHAPE_P2P_WRITE, &t));
    assert_true(copies_async(BW_SHAPE_ALL_TO_HOST, &t));
    t.peer_access[1] = false;
    assert_false(copies_async(BW_SHAPE_P2P_WRITE, &t));
    assert_string_equal(refusal(BW_SHAPE_P2P_WRITE, true, &t),
                        "no peer access between devices 0 and 1 (cudaDeviceCanAccessPeer is 0)");
}

static void test_mapping_host_memory_decides_host_kernels(void **state)
{
    (void)state;
    bw_cuda_topology t = node(2, 0);
    t.maps_host[1] = false;
    assert_string_equal(refusal(BW_SHAPE_HOST_TO_ALL, true, &t),
                        "device 1 cannot map host memory (cudaDevAttrCanMapHostMemory is 0)");
    assert_string_equal(refusal(BW_SHAPE_HOST_TO_ALL, false, &t), "");
    assert_string_equal(refusal(BW_SHAPE_DUPLEX, true, &t), "");
    t.maps_host[0] = false;
    assert_string_equal(refusal(BW_SHAPE_DUPLEX, true, &t),
                        "device 0 cannot map host memory (cudaDevAttrCanMapHostMemory is 0)");
    assert_string_equal(refusal(BW_SHAPE_DUPLEX, false, &t), "");
}

/* One thread per 16 bytes up to the wave; kernels at once on one device
 * split it, so that all of them are resident together. */
static void test_kernels_at_once_share_the_wave(void **state)
{
    (void)state;
    const uint64_t wave = 132 * 2048; /* an H100's SMs, full */
    assert_int_equal(bw_cuda_blocks(UINT64_C(1) << 30, wave, 1, 256), 1056);
    assert_int_equal(bw_cuda_blocks(UINT64_C(1) << 30, wave, 2, 256), 528);
    assert_int_equal(bw_cuda_blocks(UINT64_C(1) << 30, wave, 7, 256), 150);
    assert_int_equal(bw_cuda_blocks(UINT64_C(64) << 30, wave, 1, 256), 1056); /* 2^32 uint4: no 32-bit wrap */
    assert_int_equal(bw_cuda_blocks(4096 * 16, wave, 1, 256), 16);
    assert_int_equal(bw_cuda_blocks(16, wave, 2, 256), 1);
    assert_int_equal(bw_cuda_blocks(4, wave, 1, 256), 1);
    assert_int_equal(bw_cuda_blocks(UINT64_C(1) << 30, 256, 4, 256), 1); /* never none */

    bw_cuda_topology t = node(3, 0);
    bw_cuda_transfer plan[BW_CUDA_MAX_DEVICES];
    unsigned n = bw_cuda_plan(BW_SHAPE_DUPLEX, &t, plan);
    assert_int_equal(bw_cuda_kernels_on(plan, n, 0), 2);
    n = bw_cuda_plan(BW_SHAPE_ALL_TO_ONE, &t, plan);
    assert_int_equal(bw_cuda_kernels_on(plan, n, 0), 2);
    assert_int_equal(bw_cuda_kernels_on(plan, n, 1), 0);
    n = bw_cuda_plan(BW_SHAPE_HOST_TO_ALL, &t, plan);
    for (int k = 0; k < 3; ++k)
        assert_int_equal(bw_cuda_kernels_on(plan, n, k), 1);
}

static void test_malloc_memory_is_labelled(void **state)
{
    (void)state;
    const char *no = bw_cuda_pageable_refusal(0);
    assert_non_null(no);
    assert_non_null(strstr(no, "cudaDevAttrPageableMemoryAccess is 0"));
    assert_null(bw_cuda_pageable_refusal(1));
    assert_memory_equal(bw_cuda_pageable_label(1), "ATS:", 4);
    assert_memory_equal(bw_cuda_pageable_label(0), "HMM:", 4);
}

TEST_MAIN(NULL, NULL, test_one_device_refuses_every_multi_device_shape, test_single_device_shapes, test_three_devices,
          test_peer_access_decides_kernels_and_the_gate, test_mapping_host_memory_decides_host_kernels,
          test_kernels_at_once_share_the_wave, test_malloc_memory_is_labelled)
