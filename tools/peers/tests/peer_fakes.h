/* Stand-ins of the peer suites, for the tests of tools/peers.sh and of
 * run_all.sh --gpu-check: small scripts that print what the real tools
 * print, as their sources at these versions have it:
 * - cuda-stream, BabelStream's CUDA build (UoB-HPC/BabelStream at
 *   v6.0-rc-2-g57637d5): with --csv, src/cuda/CUDAStream.cu's constructor
 *   prints its device lines on stdout first, then src/main.cpp's run()
 *   the header "function,num_times,n_elements,sizeof,max_MB_per_sec,
 *   min_runtime,max_runtime,avg_runtime" and one line per kernel (Copy,
 *   Mul, Add, Triad, Dot) in the stream's default format; a failed check
 *   (check_solution) says "FAILED validation of ..." on stderr, exit 1.
 * - nvbandwidth (NVIDIA/nvbandwidth v0.8), plain text: output.cpp's version,
 *   CUDA and driver lines, the host and device list, then per testcase
 *   "Running <testcase>.", the description, and inline_common.h's matrix:
 *   a header of device columns, the row "0" with the GB/s at two decimals,
 *   a blank line, "SUM <testcase> <GB/s>"; a testcase that throws prints
 *   "Error: <why>" after its "Running" line. */
#ifndef CR_PEER_FAKES_H
#define CR_PEER_FAKES_H

/* Each stand-in lists one device, or none where FAKE_NO_DEVICE says why
 * (as a benchmark says it: exit 77); otherwise it appends its name to
 * $FAKE_STATE/calls and its arguments to $FAKE_STATE/args; its slice is
 * its count of calls over FAKE_COMBOS (the runs of it in one slice). */
#define FAKE_PROLOGUE                                                                                                        \
    "#!/bin/bash\n"                                                                                                     \
    "[ \"$1\" = --list-devices ] && { [ -z \"${FAKE_NO_DEVICE:-}\" ] && { echo '0  Fake GPU'; exit 0; }\n"              \
    "  echo \"${0##*/}: skipped: no CUDA device: $FAKE_NO_DEVICE\" >&2; exit 77; }\n"                                  \
    "S=${FAKE_STATE:?}; me=${0##*/}; echo \"$me\" >> \"$S/calls\"; echo \"$me $*\" >> \"$S/args\"\n"                  \
    "c=$(grep -cx \"$me\" \"$S/calls\"); slice=$(( (c - 1) / ${FAKE_COMBOS:-1} + 1 ))\n"

/* stream-opencl for the OpenCL mode: the fixed-size rows of the five
 * kernels, verified, at 1 and 2 ms (min, median), in --out's CSV. */
static const char stream_opencl[] =
    "#!/bin/sh\n[ \"$1\" = --list-devices ] && { echo '0  (0:0)  Fake CPU  [Fake; CPU]'; exit 0; }\n"
    "while [ $# -gt 0 ]; do [ \"$1\" = --out ] && out=$2; shift; done\nmkdir -p \"$out\"\n"
    "{ echo benchmark,backend,variant,dtype,sweep,min_s,median_s,valid\n"
    "  for k in copy mul add triad dot; do echo stream,opencl,$k,float,fixed,0.001,0.002,1; done; }"
    " > \"$out/stream-opencl.csv\"\n";

/* cuda-stream, BabelStream: slice 1 at min 1.25 ms and mean 2.5 ms, slice 2
 * at 1 ms and 2.5 ms; FAKE_BS_FAIL: its check fails. */
static const char cuda_stream[] =
    FAKE_PROLOGUE
    "n=33554432 times=100 width=8\n"
    "while [ $# -gt 0 ]; do case $1 in --arraysize) n=$2; shift;; --numtimes) times=$2; shift;; --float) width=4;;"
    " esac; shift; done\n"
    "min=0.00125 avg=0.0025; [ $slice = 1 ] || min=0.001\n"
    "echo 'CUDA Driver: 13000'\n"
    "echo 'CUDA Device 0: \"NVIDIA H200\" 132 SMs(9,0) Memory: 3201 MHz x 6144-bit = 4917.25 GB/s PEAK, ECC is ON'\n"
    "echo 'Memory Allocation: DEFAULT'\n"
    "echo 'Parallel for kernel config: thread blocks of size 256'\n"
    "echo 'Reduction kernel config: 528 groups of (fixed) size 1024'\n"
    "[ -z \"${FAKE_BS_FAIL:-}\" ] || { echo 'FAILED validation of a[0]: 0.1 (is) != 0.2 (should), diff=0.1 > 2e-05 "
    "(largest=0.2, max_rel=0.0001)' >&2; exit 1; }\n"
    "echo function,num_times,n_elements,sizeof,max_MB_per_sec,min_runtime,max_runtime,avg_runtime\n"
    "for f in Copy Mul Add Triad Dot; do echo \"$f,$times,$n,$width,3.1e+06,$min,0.003,$avg\"; done\n";

/* nvbandwidth: h2d 55.12, d2h 53.00, bidirectional 48.00, local copy
 * 1750.50 GB/s; FAKE_NVB_ERROR names a testcase that fails; on its
 * FAKE_SLOW-th call it sleeps (%d: this test's pid, to find it by). */
static const char nvbandwidth_fmt[] =
    FAKE_PROLOGUE
    "[ \"${FAKE_SLOW:-0}\" = \"$c\" ] && exec sleep 61.%d\n"
    "tests=()\n"
    "while [ $# -gt 0 ]; do case $1 in -t) shift; while [ $# -gt 0 ] && [ \"${1#-}\" = \"$1\" ]; do tests+=(\"$1\");"
    " shift; done; continue;; esac; shift; done\n"
    "printf 'nvbandwidth Version: v0.8\\nBuilt from Git version: v0.8\\n\\nCUDA Runtime Version: 13000\\n"
    "CUDA Driver Version: 13000\\nDriver Version: 580.65.06\\n\\nfakehost\\n"
    "Device 0: NVIDIA H200 (00000000:19:00)\\n\\n'\n"
    "for t in \"${tests[@]}\"; do\n"
    "  case $t in\n"
    "    host_to_device_memcpy_ce) v=55.12 d='memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)';;\n"
    "    device_to_host_memcpy_ce) v=53.00 d='memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)';;\n"
    "    host_to_device_bidirectional_memcpy_ce) v=48.00 d='memcpy CE CPU(row) <-> GPU(column) bandwidth (GB/s)';;\n"
    "    device_local_copy) v=1750.50 d='memcpy local GPU(column) bandwidth (GB/s)';;\n"
    "  esac\n"
    "  if [ \"$t\" = \"${FAKE_NVB_ERROR:-}\" ]; then printf 'Running %%s.\\nError: cuMemHostAlloc failed\\n' \"$t\";"
    " continue; fi\n"
    "  printf 'Running %%s.\\n%%s\\n           0\\n 0 %%9s\\n\\nSUM %%s %%s\\n\\n' \"$t\" \"$d\" \"$v\" \"$t\" \"$v\"\n"
    "done\n"
    "printf 'NOTE: The reported results may not reflect the full capabilities of the platform.\\n"
    "Performance can vary with software drivers, hardware clocks, and system topology.\\n\\n'\n";

#endif
