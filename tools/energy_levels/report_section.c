/* The energy levels' part of the report: build/tools/energy-levels' table
 * beside Ranasinghe's Table 5.1; on the first screen, each level measured.
 * A run without a sensor anywhere has no such section at all. */
#include "report/part.h"

#include <stdio.h>
#include <string.h>

static void level_row(rp_table *e, const cr_csv_table *t, size_t i)
{
    rp_row *r = rp_row_for(e, "%s", rp_get(t, i, "level"));
    rp_set_text(r, 0, "%s", rp_get(t, i, "basis"));
    rp_set_num(r, 1, rp_num(t, i, "pj"), 3);
    rp_set_num(r, 2, rp_num(t, i, "thesis_pj"), 3);
    rp_set_text(r, 3, "%s", rp_get(t, i, "thesis_symbol"));
    rp_set_text(r, 4, "%s", rp_get(t, i, "status"));
    rp_set_text(r, 5, "%s", rp_get(t, i, rp_is(t, i, "status", "measured") ? "source" : "reason"));
}

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    if (strcmp(file, "energy-levels.csv") != 0) {
        rp_extract_other(sec, file, t);
        return;
    }
    rp_table *e = rp_add_table(sec, "energy-levels",
                               "Energy at each level (median over the rows that stand for it, static power subtracted)",
                               "level", "basis", "pJ", "thesis pJ", "thesis", "status", "rows used, or why none", NULL);
    size_t measured = 0;
    for (size_t i = 0; i < t->nrows; ++i) {
        level_row(e, t, i);
        measured += rp_is(t, i, "status", "measured");
    }
    if (measured == 0 && t->nrows > 0)
        rp_strings_push(&sec->notes, "No level was measured on this device: the figure shows Ranasinghe's values alone.");
}

static void headline(rp_device *d, int s)
{
    const rp_table *e = rp_find_table(&d->sections[s], "energy-levels");
    char value[128] = "";
    for (const rp_row *r = e ? e->rows : NULL; e && r < e->rows + e->nrows; ++r)
        if (strcmp(r->cells[4].text, "measured") == 0)
            rp_appendf(value, sizeof value, ", ", "%s %s pJ/%s", r->key, r->cells[1].text,
                       strcmp(r->cells[0].text, "per-byte") == 0 ? "B" : "op");
    rp_headline_text(d, s, "Energy per level (measured)", value);
}

const rp_part rp_part_energy_levels = {
    .name = "energy",
    .title = "Energy per byte and per operation (Ranasinghe 2014, ch. 5)",
    .how = "What one byte costs in energy at each level of the memory system, and one operation of each kind, from "
           "the energy every benchmark measures where a sensor covers the device (NVML's energy counter on a CUDA "
           "device, powercap/RAPL on a CPU or APU), the static power measured first and subtracted: picojoules per "
           "byte (pJ/B) or per operation, the median over the rows that stand for the level "
           "(the source column says which; each measuring benchmark's folder gives its rule: dram a bandwidth sweep "
           "at 4x the last-level cache, llc one resident in it, pcie the pinned copies, zero-copy kernels reading host memory, atomic the uncontended atomics, "
           "sfu-op the fast special functions, sp-op and dp-op the FMA chains, an FMA counting two operations). "
           "\"thesis pJ\" is Ranasinghe's Table 5.1, almost certainly measured on a K20c, with e_gs (off-chip to "
           "shared memory) and e_sr (shared memory to register) read as the energy of one 4-byte word; the thesis "
           "has no value for the L2, PCIe, atomics or the SFU. A level that says no-sensor had its rows but no "
           "sensor (the reason is the benchmark's), no-rows had no row to stand for it.",
    .only_with_results = true,
    .rank = 80,
    .extract = extract,
    .headline = headline,
};
