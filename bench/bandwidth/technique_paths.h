/* Lee's technique paths (each workload by each technique), under the keys
 * every backend gives them and in the order they run, so that the
 * backends' results line up key by key. A backend expands
 *     BW_TECHNIQUE_PATHS(ROW, its eight descriptions in this order)
 * in its path table, with ROW(key, description, workload, technique,
 * model) its table's row and DEFAULT_MODEL .. MIXED_MODEL defined: the keys
 * of its own paths that model each technique's stages. */
#ifndef CR_BANDWIDTH_TECHNIQUE_PATHS_H
#define CR_BANDWIDTH_TECHNIQUE_PATHS_H

#define BW_TECHNIQUE_PATHS(ROW, vectoradd_default, vectoradd_cpu_resident, vectoradd_gpu_resident,     \
                           vectoradd_mixed, reduce_default, reduce_cpu_resident, reduce_gpu_resident,  \
                           reduce_mixed)                                                               \
    ROW("vectoradd-default", vectoradd_default, BW_VECTOR_ADD, BW_DEFAULT, DEFAULT_MODEL),             \
    ROW("vectoradd-cpu-resident", vectoradd_cpu_resident, BW_VECTOR_ADD, BW_CPU_RESIDENT, CPU_RESIDENT_MODEL), \
    ROW("vectoradd-gpu-resident", vectoradd_gpu_resident, BW_VECTOR_ADD, BW_GPU_RESIDENT, GPU_RESIDENT_MODEL), \
    ROW("vectoradd-mixed", vectoradd_mixed, BW_VECTOR_ADD, BW_MIXED, MIXED_MODEL),                     \
    ROW("reduce-default", reduce_default, BW_REDUCE, BW_DEFAULT, DEFAULT_MODEL),                        \
    ROW("reduce-cpu-resident", reduce_cpu_resident, BW_REDUCE, BW_CPU_RESIDENT, CPU_RESIDENT_MODEL),    \
    ROW("reduce-gpu-resident", reduce_gpu_resident, BW_REDUCE, BW_GPU_RESIDENT, GPU_RESIDENT_MODEL),    \
    ROW("reduce-mixed", reduce_mixed, BW_REDUCE, BW_MIXED, MIXED_MODEL)

#endif
