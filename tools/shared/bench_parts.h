/* A tool's parts that the benchmarks define in their own folders
 * (bench/<name>/gpu_rules.c, energy_levels.c): each a list of the tool's
 * items, gathered in the benchmarks' order into one array that
 * common/descriptor_gen.sh generates at build time. */
#ifndef CR_SHARED_BENCH_PARTS_H
#define CR_SHARED_BENCH_PARTS_H

#include <stddef.h>

/* One benchmark's items: n of the tool's type, one after the other. */
typedef struct {
    const void *items;
    size_t n;
} cr_bench_part;

/* How many items the lists hold in all. */
size_t cr_bench_parts_count(const cr_bench_part *const *lists, size_t nlists);

/* The i-th item of the lists taken one after another, each item_size
 * bytes; NULL past the last. */
const void *cr_bench_parts_at(const cr_bench_part *const *lists, size_t nlists, size_t item_size, size_t i);

#endif
