/* The targets, in the order of the summary: Li's, then Lee's, then the
 * others'. A thesis value of a target not listed here is an error of the
 * reference table (the tests check both ways). */
#include "reproduce/targets.h"

const rr_target rr_targets[] = {
    {"li-table3.2", "Li 2016, Table 3.2: the memory system's plateau R", rr_li_table32},
    {"li-table6.4", "Li 2016, Table 6.4: SFU against SPU, single precision", rr_li_table64},
    {"li-table6.5", "Li 2016, Table 6.5: SFU against DPU, double precision", rr_li_table65},
    {"li-partition", "Li 2016, Figs 6.3-6.4: the fast/precise partition", rr_li_partition},
    {"li-fig4.1", "Li 2016, Fig. 4.1: register spill", rr_li_fig41},
    {"lee-table3.2", "Lee 2012, Table 3.2: the memory paths of an APU", rr_lee_table32},
    {"lee-table3.3", "Lee 2012, Table 3.3: a host buffer by the Onion and the Garlic route", rr_lee_table33},
    {"lee-fig4.3", "Lee 2012, Fig. 4.3: contended against uncontended atomics", rr_lee_fig43},
    {"lee-table4.1", "Lee 2012, Table 4.1: the launch of an empty kernel", rr_lee_table41},
    {"samadi-fig5.3a", "Samadi 2014, Fig. 5.3a: atomic add against conflicts", rr_samadi_fig53a},
    {"ranasinghe-table5.1", "Ranasinghe 2014, Table 5.1: energy per level", rr_ranasinghe_table51},
};
const size_t rr_ntargets = sizeof rr_targets / sizeof *rr_targets;
