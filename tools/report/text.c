/* The report's fixed words: section titles and a short "how to read this"
 * per section, saying what the benchmark measures and what its headline
 * numbers mean (the README has the full account). */
#include "report/text.h"

#include <string.h>

static const struct {
    const char *slug;
    const char *prefix[3]; /* files of the section start with one of these */
    const char *title;
    const char *how;
} sections[RP_NSECTIONS] = {
    [RP_DEVICE] = {"device", {NULL}, "Device and host",
                   "What the run ran on, from the metadata every benchmark records beside its CSV. The benchmarks "
                   "table says what ran on this device, how long it took and how many of its rows failed "
                   "verification: an invalid row is a measurement whose kernel output did not check out, and no "
                   "number of it should be used. A skipped benchmark found no device of its kind; the note says why."},
    [RP_BANDWIDTH] = {"bandwidth", {"bandwidth"}, "Memory paths (bandwidth; Lee 2012, ch. 3)",
                      "Every path by which data moves between host and device. \"GB/s\" is the median bandwidth at "
                      "the largest transfer size, \"vs host\" the same over the host's own reference measured in "
                      "the same run (memcpy for copies and CPU access, an OpenMP read or write loop for kernels): "
                      "near 1 the path runs at the host memory's speed, far below 1 it has a cost of its own. b and "
                      "c are Lee's transfer model T(S) = c + S/b fitted over all sizes: b is the bandwidth a large "
                      "transfer approaches, c the fixed cost of one transfer, so transfers much smaller than b\xc2\xb7"
                      "c are latency-bound; the fit error says how far the model is from the measurements at worst. "
                      "Maps are latencies in microseconds (\"zero-copy\" when no bytes can have moved in that time). "
                      "The ranking says which memory-movement technique was fastest at the largest size, and "
                      "whether the model predicted the same order."},
    [RP_STREAM] = {"stream", {"stream"}, "Stream bandwidth",
                   "The five STREAM kernels on arrays of the size in the table's title (bytes counted as STREAM "
                   "counts them: arrays read plus arrays written, no write-allocate traffic), median and best of the "
                   "repetitions. \"vs host limit\" divides by the host's own triad on private arrays, measured "
                   "in the same run (interleaved with an APU; on a CPU device, which is the host, in a phase of its "
                   "own with the device idle): a CPU or APU device near 1 gets all the bandwidth the memory gives "
                   "the host, and above 1.05 is flagged. With a quick run the arrays may still fit in the last-level "
                   "cache, and are flagged so. A figure marked \"flagged\" is not to be taken as a fact: the table "
                   "of flagged figures says why. "
                   "The concurrency table is the peak of f(k), the bandwidth against the number k of work-items "
                   "running at once (the memory side of Li's X-model), and the k where it was reached."},
    [RP_XMODEL] = {"xmodel", {"xgraph", "fma", "latency"}, "X-model (Li 2016, ch. 3)",
                   "Li's cross-roofline model fitted to this device's measurements by build/tools/xgraph: f(k) "
                   "from the stream benchmark's concurrency sweep, g(x) from the fma benchmark (one curve per "
                   "instruction-level parallelism E), the latency from the latency benchmark's pointer chase. R is "
                   "the largest sustainable memory throughput (the plateau of f(k)), L the memory latency (L_ns: "
                   "Little's law at the knee of f(k) where the pointer chase confirms it within 2x, else the "
                   "chase's), M the computation "
                   "lanes (the peak of g(x); M_E_settled is where a curve that sags past its peak settles); delta and pi are where f(k) and g(x) saturate, in threads per "
                   "compute unit. Each value says which measurement it comes "
                   "from and how well the fit matched. In the X-graph, where f(k) and g(x)/Z cross is the machine's operating point "
                   "for a kernel of compute intensity Z."},
    [RP_ATOMICS] = {"atomics", {"atomics"}, "Atomics under contention (Lee 2012, ch. 4)",
                    "The ratio is the throughput of an atomic operation with one counter per work-item divided by "
                    "that with every work-item of the span on one counter (global memory: all work-items that run; "
                    "local memory: one work-group): how many times slower contention makes it (Lee's Fig. 4.3; Lee "
                    "measured 125 to 630 on the GPUs of 2012). Below 1 the contended case was faster. Launch latency is an empty kernel's enqueue-to-start time and round trip (Lee's "
                    "Table 4.1; his means, on four GPUs of 2012, follow the device's). Every count was checked "
                    "against the model of what the operations must leave."},
    [RP_SFU] = {"sfu", {"sfu"}, "Special functions (SFU; Li 2016, ch. 6)",
                "Each transcendental function in its precise and fast versions: the latency of a dependent chain, "
                "the throughput with independent chains, the speed-up of each version over the precise one, and "
                "its error against a correctly rounded reference over sampled inputs (mean and largest relative "
                "error, largest error in ulp on the typical domain and on a wide one). A fast version is worth "
                "it where its speed-up is large and its error "
                "is within what the application tolerates (Li's Table 6.4/6.5)."},
    [RP_REGSPILL] = {"regspill", {"regspill"}, "Register pressure and spilling (Li 2016, ch. 4)",
                     "The cliff is where throughput falls once the values a work-item keeps live no longer fit in "
                     "its registers (on a CPU: its vector registers) and the compiler spills: the last count that "
                     "fits and the first below 70% of the best. On a GPU the critical points are the register caps "
                     "at the end of each occupancy level (Li's Eq. 4.3); the tuner runs only those and says whether "
                     "they contain the best cap of the exhaustive sweep, and the speed-up over the compiler's "
                     "default. The effective region [r_min, r_max] is what the compiler can be asked for, from an "
                     "offline compile (no GPU needed)."},
    [RP_CACHE] = {"cache", {"cache"}, "Caches and the cache model (Crawford 2014)",
                  "The cache model's validation: the suite's access patterns (stream, a random chase, a stride, "
                  "a 2-D stencil, a naive transpose, a tiled matrix multiply) run by one work-item, each access "
                  "waiting for the load before, at a footprint inside each level the benchmark detected and one "
                  "beyond the last. The trace-driven simulator (cachesim), configured with the detected geometry, "
                  "says which level serves each access; the predicted time is the hits of each level times its "
                  "measured latency, plus memory accesses times the memory latency, over all accesses. The error "
                  "is Crawford's eq. 7.1, 100 |(measured - predicted) / measured|: a large one is reported as it "
                  "is. Stores do not wait (nothing loads their value), prefetchers serve regular patterns early "
                  "and the model indexes by virtual address: each makes the measurement faster than the model "
                  "says. What the model had to assume is in each model row's note. A prediction that has a "
                  "level serve more than it was seen to serve whole (a level shared with others or filling "
                  "unevenly, whose detected capacity the simulator takes as whole) is flagged model-premise."},
    [RP_ENERGY] = {"energy", {"energy"}, "Energy per byte and per operation (Ranasinghe 2014, ch. 5)",
                   "What one byte costs in energy at each level of the memory system, and one operation of each "
                   "kind, from the energy every benchmark measures where a sensor covers the device (NVML's "
                   "energy counter on a CUDA device, powercap/RAPL on a CPU or APU), the static power measured "
                   "first and subtracted: picojoules per byte (pJ/B) or per operation, the median over the rows "
                   "that stand for the level (build/tools/energy-levels says which: dram is stream at 4x the "
                   "last-level cache, llc stream resident in it, pcie the pinned copies, zero-copy kernels "
                   "reading host memory, atomic the uncontended atomics, sfu-op the fast special functions, "
                   "sp-op and dp-op the FMA chains, an FMA counting two operations). \"thesis pJ\" is "
                   "Ranasinghe's Table 5.1, almost certainly measured on a K20c, with e_gs (off-chip to shared "
                   "memory) and e_sr (shared memory to register) read as the energy of one 4-byte word; the "
                   "thesis has no value for the L2, PCIe, atomics or the SFU. A level that says no-sensor had "
                   "its rows but no sensor (the reason is the benchmark's), no-rows had no row to stand for it."},
    [RP_OTHER] = {"other", {NULL}, "Other results",
                  "Results this report has no headline table for: each CSV with its row count and how many rows "
                  "failed verification, and its figures."},
};

const char *rp_section_title(rp_section_id s)
{
    return sections[s].title;
}

const char *rp_section_slug(rp_section_id s)
{
    return sections[s].slug;
}

const char *rp_how_to_read(rp_section_id s)
{
    return sections[s].how;
}

rp_section_id rp_section_of_file(const char *name)
{
    for (int s = 0; s < RP_NSECTIONS; ++s) {
        for (int k = 0; k < 3 && sections[s].prefix[k]; ++k) {
            const char *p = sections[s].prefix[k];
            size_t n = strlen(p);
            if (strncmp(name, p, n) == 0 && (name[n] == '-' || name[n] == '.' || name[n] == '\0'))
                return (rp_section_id)s;
        }
    }
    return RP_OTHER;
}
