/* The CUDA bandwidth backend's path table (cuda/bandwidth/path_table.c),
 * linked as it is, without a GPU: every path that moves bytes has its
 * paths-matrix cell (where they start and end, what moves them), the
 * techniques none; the keys are unique; the paths that run several
 * transfers or span devices sit in the cells their transfers name, with
 * the shape and engine their keys say; every key a variant the
 * benchmark's descriptor lists; and the backend hands the design both of
 * the contract's new hooks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../bandwidth/path_table.h"
#include "row_names.h"
#include "tests/cuda_source.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <string.h>

#ifndef BW_CUDA_SRC
#error "build with -DBW_CUDA_SRC (bench/bandwidth/build.mk)"
#endif

static const bw_path *path_named(const char *key)
{
    for (size_t i = 0; i < bw_cuda_npaths; ++i)
        if (strcmp(bw_cuda_paths[i].key, key) == 0)
            return &bw_cuda_paths[i];
    fail_msg("no path %s", key);
    return NULL;
}

static void test_every_path_has_a_cell(void **state)
{
    (void)state;
    assert_true(bw_cuda_npaths >= 49);
    for (size_t i = 0; i < bw_cuda_npaths; ++i) {
        const bw_path *p = &bw_cuda_paths[i];
        for (size_t j = 0; j < i; ++j)
            if (strcmp(bw_cuda_paths[j].key, p->key) == 0)
                fail_msg("%s is listed twice", p->key);
        assert_true(p->from < BW_MEM_COUNT && p->to < BW_MEM_COUNT && p->engine < BW_ENGINE_COUNT);
        const bool none = p->from == BW_MEM_NONE || p->to == BW_MEM_NONE || p->engine == BW_ENGINE_NONE;
        if (p->kind == BW_TECHNIQUE) {
            assert_true(p->from == BW_MEM_NONE && p->to == BW_MEM_NONE && p->engine == BW_ENGINE_NONE);
        } else if (none) {
            fail_msg("%s has no paths-matrix cell", p->key);
        }
        /* The CPU moves bytes only through a map. */
        assert_int_equal(p->engine == BW_ENGINE_CPU, p->kind == BW_CPU_ACCESS);
    }
}

static void test_new_paths_sit_in_their_cells(void **state)
{
    (void)state;
    enum { NOT_PLANNED = -1 };
    static const struct {
        const char *key;
        bw_memory from, to;
        bw_engine engine;
        int shape;
    } cells[] = {
        {"h2d-kernel-copy-pinned", BW_MEM_HOST_PINNED, BW_MEM_DEVICE, BW_ENGINE_KERNEL, BW_SHAPE_H2D},
        {"d2h-kernel-copy-pinned", BW_MEM_DEVICE, BW_MEM_HOST_PINNED, BW_ENGINE_KERNEL, BW_SHAPE_D2H},
        {"duplex-copy-pinned", BW_MEM_HOST_PINNED, BW_MEM_DEVICE, BW_ENGINE_COPY, BW_SHAPE_DUPLEX},
        {"duplex-kernel-copy-pinned", BW_MEM_HOST_PINNED, BW_MEM_DEVICE, BW_ENGINE_KERNEL, BW_SHAPE_DUPLEX},
        {"kernel-read-malloc", BW_MEM_MALLOC, BW_MEM_DEVICE, BW_ENGINE_KERNEL, NOT_PLANNED},
        {"kernel-write-malloc", BW_MEM_DEVICE, BW_MEM_MALLOC, BW_ENGINE_KERNEL, NOT_PLANNED},
        {"p2p-read-copy", BW_MEM_PEER, BW_MEM_DEVICE, BW_ENGINE_COPY, BW_SHAPE_P2P_READ},
        {"p2p-write-copy", BW_MEM_DEVICE, BW_MEM_PEER, BW_ENGINE_COPY, BW_SHAPE_P2P_WRITE},
        {"p2p-read-kernel", BW_MEM_PEER, BW_MEM_DEVICE, BW_ENGINE_KERNEL, BW_SHAPE_P2P_READ},
        {"p2p-write-kernel", BW_MEM_DEVICE, BW_MEM_PEER, BW_ENGINE_KERNEL, BW_SHAPE_P2P_WRITE},
        {"all-to-one-copy", BW_MEM_PEER, BW_MEM_DEVICE, BW_ENGINE_COPY, BW_SHAPE_ALL_TO_ONE},
        {"all-to-one-kernel", BW_MEM_PEER, BW_MEM_DEVICE, BW_ENGINE_KERNEL, BW_SHAPE_ALL_TO_ONE},
        {"one-to-all-copy", BW_MEM_DEVICE, BW_MEM_PEER, BW_ENGINE_COPY, BW_SHAPE_ONE_TO_ALL},
        {"one-to-all-kernel", BW_MEM_DEVICE, BW_MEM_PEER, BW_ENGINE_KERNEL, BW_SHAPE_ONE_TO_ALL},
        {"all-to-host-copy", BW_MEM_DEVICE, BW_MEM_HOST_PINNED, BW_ENGINE_COPY, BW_SHAPE_ALL_TO_HOST},
        {"all-to-host-kernel", BW_MEM_DEVICE, BW_MEM_HOST_PINNED, BW_ENGINE_KERNEL, BW_SHAPE_ALL_TO_HOST},
        {"host-to-all-copy", BW_MEM_HOST_PINNED, BW_MEM_DEVICE, BW_ENGINE_COPY, BW_SHAPE_HOST_TO_ALL},
        {"host-to-all-kernel", BW_MEM_HOST_PINNED, BW_MEM_DEVICE, BW_ENGINE_KERNEL, BW_SHAPE_HOST_TO_ALL},
        {"h2d-memcpy-pageable", BW_MEM_HOST_PAGEABLE, BW_MEM_DEVICE, BW_ENGINE_COPY, NOT_PLANNED},
        {"kernel-read-managed", BW_MEM_SHARED, BW_MEM_DEVICE, BW_ENGINE_KERNEL, NOT_PLANNED},
        {"kernel-write-mapped", BW_MEM_DEVICE, BW_MEM_HOST_PINNED, BW_ENGINE_KERNEL, NOT_PLANNED},
        {"cpu-read-mapped", BW_MEM_HOST_PINNED, BW_MEM_HOST_PAGEABLE, BW_ENGINE_CPU, NOT_PLANNED},
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; ++i) {
        const bw_path *p = path_named(cells[i].key);
        if (p->from != cells[i].from || p->to != cells[i].to || p->engine != cells[i].engine)
            fail_msg("%s: cell (%d, %d, %d), want (%d, %d, %d)", p->key, p->from, p->to, p->engine, cells[i].from,
                     cells[i].to, cells[i].engine);
        if (cells[i].shape == NOT_PLANNED) {
            assert_true(p->id < P_TRANSFERS);
        } else {
            assert_int_equal(p->kind, BW_COPY);
            assert_int_equal(p->id, P_TRANSFERS + cells[i].shape);
        }
    }
    /* Every planned path is a copy of one shape. */
    for (size_t i = 0; i < bw_cuda_npaths; ++i)
        if (bw_cuda_paths[i].id >= P_TRANSFERS) {
            assert_int_equal(bw_cuda_paths[i].kind, BW_COPY);
            assert_true(bw_cuda_paths[i].id < P_END);
        }
}

/* The backend hands the design both new hooks. */
/* Every path's rows name a variant bench/bandwidth/descriptor lists, its
 * map's and unmap's too: the harness records no other. */
static void test_every_key_is_a_listed_variant(void **state)
{
    (void)state;
    for (size_t i = 0; i < bw_cuda_npaths; ++i) {
        char variant[64];
        for (int k = 0; k < 3; ++k) {
            snprintf(variant, sizeof variant, "%s%s", bw_cuda_paths[i].key, k == 0 ? "" : k == 1 ? ":map" : ":unmap");
            if (cr_row_name_unknown("bandwidth", variant, "size") != NULL)
                fail_msg("%s: no variant of bench/bandwidth/descriptor", variant);
        }
    }
}

static void test_backend_table_has_the_new_hooks(void **state)
{
    (void)state;
    static const char *const says[] = {"cuda_release, cuda_transfers, bw_cuda_peer_links", NULL};
    cuda_source_expect_part(BW_CUDA_SRC,
                            &(cuda_source_part){"const bw_backend bandwidth_cuda_backend = {", "};", says, NULL});
}

TEST_MAIN(NULL, NULL, test_every_path_has_a_cell, test_new_paths_sit_in_their_cells,
          test_every_key_is_a_listed_variant, test_backend_table_has_the_new_hooks)
