# crossroof build. `make` builds every OpenCL benchmark and, when nvcc is
# found, every CUDA benchmark, and the host tools; `make check` runs all tests.
#
# A benchmark is a folder bench/<name>/ (its descriptor, design, backend
# contract, host truth and references, figures/, tests/) with backends in
# opencl/<name>/ and cuda/<name>/; the rules below are written once and
# generated for every benchmark. Its descriptor (bench/<name>/descriptor,
# common/descriptor.sh) makes it one: BENCHMARKS and each one's backends come
# from the descriptors (build/gen/descriptors.mk), checked on every build. A
# bench/<name>/build.mk beside it, where there is one, says only what is
# particular to it (compiler flags of one file, embedded headers, generated
# sources). Adding a benchmark is adding its folders.

# Host tools: tools/<name>/ (main.c and its modules, tests/), executable
# build/tools/<exe>; a benchmark's own, bench/<b>/<name>/ (below). tools/shared/
# holds what several tools read.
TOOLS_LIST := xgraph report gpu_check db cachesim energy_levels reproduce

CC       ?= gcc
BUILD    ?= build
# The descriptors, remade (and checked) on every run of make, rewritten only
# where what they say changed; make reads them again when they are.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
include $(BUILD)/gen/descriptors.mk
endif
# $(call from_descriptors,MODE): the recipe of a file that
# common/descriptor_gen.sh MODE writes, rewritten only where it changed.
from_descriptors = @mkdir -p $(@D) && common/descriptor_gen.sh $(1) . > $@.new && \
                   { cmp -s $@.new $@ && rm $@.new || mv $@.new $@; } || { rm -f $@.new; exit 1; }
$(BUILD)/gen/descriptors.mk: FORCE
	$(call from_descriptors,make)
GIT_REV  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# Warnings are errors in CI (CI=true) and whenever WERROR=1.
ifneq ($(strip $(CI)$(WERROR)),)
  WFLAGS := -Werror
endif
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra $(WFLAGS) -MMD -MP -Icommon -Ibench -Itools -Iopencl
HOST_OPT := -O3 -march=native -fopenmp
LDLIBS   := -lhwloc -lmpfr -lgmp -lm
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The sanitizer build's optimisation, after CFLAGS': -O1, as ASan's own
# documentation advises, compiles in 60% of -O2's time and checks the same
# accesses (timed host code keeps its own: timed_host_code).
SAN_OPT  := -O1
SAN_ENV  := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
# The fuzz tests' (test_*_fuzz.c): a mutant that makes a reader grow
# without bound stops it at 2 GiB of resident memory, as a failure.
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:hard_rss_limit_mb=2048 UBSAN_OPTIONS=print_stacktrace=1

# ---- CUDA: nvcc from NVCC, CUDA_HOME, CUDA_PATH or PATH ----
NVCC ?= $(firstword $(wildcard $(CUDA_HOME)/bin/nvcc $(CUDA_PATH)/bin/nvcc) $(shell command -v nvcc 2>/dev/null))
CUDA_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
comma := ,
NVCCFLAGS ?= -O3 -std=c++17 $(CUDA_ARCH) -Icommon -Ibench -Icuda -Xcompiler -Wall,-Wextra$(if $(WFLAGS),$(comma)-Werror)
CUDA_HEADERS = $(wildcard common/*.h bench/*/*.h cuda/*.h cuda/*/*.h cuda/*/*.cuh)
# A CUDA backend's host side, which holds no kernel and launches none
# (*.cpp: the runtime API, the driver checks, the results), is compiled by
# the C++ compiler against the toolkit's headers; nvcc compiles *.cu only,
# the files with device code, where it costs a pass per architecture.
CUDA_CXXFLAGS = -O3 -std=c++17 -Wall -Wextra $(WFLAGS) -Icommon -Ibench -Icuda -I$(CUDA_INC)
# What every CUDA executable links beside its backend: cuda/*.cu and
# cuda/*.cpp (the device layer: discovery, driver checks, the timer).
CUDA_SHARED_OBJ := $(patsubst %.cpp,%.o,$(patsubst %.cu,%.o,$(wildcard cuda/*.cu cuda/*.cpp)))
# The toolkit's own headers, for the test against NVIDIA's occupancy calculator.
CUDA_INC := $(if $(NVCC),$(abspath $(dir $(NVCC))../include))

.DEFAULT_GOAL := all
.PHONY: all opencl cuda tools check unit-tests unit-tests-san integration integration-san layout-check docs-check deps clean FORCE

# ---- what the rules below fill in ----
OPENCL_BINS :=
CUDA_BINS   :=
TOOL_BINS   :=
UNIT_TESTS  :=
CLI_TESTS   :=
FAULTY_BINS :=

# ---- compiling ----
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/san/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_OPT) $(SAN) -c $< -o $@
$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/san/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_OPT) $(SAN) -c $< -o $@
$(BUILD)/obj/cuda/%.o: cuda/%.cu $(CUDA_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@
$(BUILD)/obj/cuda/%.o: cuda/%.cpp $(CUDA_HEADERS)
	@mkdir -p $(@D)
	$(CXX) $(CUDA_CXXFLAGS) -c $< -o $@
# A module's objects, as an archive: an executable or a test links only the
# members it uses.
$(BUILD)/lib/%.a:
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/san/lib/%.a:
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# Flags for one host source, in the plain and the sanitizer build:
# $(call object_flags,bench/stream/host_ref,FLAGS)
object_flags = $(eval $(BUILD)/obj/$(1).o $(BUILD)/san/obj/$(1).o: CFLAGS += $(2))
# Host code that is timed (the host's limit, the host references):
# compiled for this machine, as STREAM is, and in the sanitizer build with
# UBSan's checks that sit on no load or store (shifts, division,
# conversions, unreachable code). ASan's check of every access, and UBSan's
# of every pointer and index, would be timed with the kernel and keep it from
# being vectorized: the host's limit would read a fraction of what it is,
# below what an uninstrumented OpenCL device reaches, and each run would
# spend seconds measuring it. $(call timed_host_code,common/host_limit)
SAN_TIMED := -fsanitize=undefined -fno-sanitize=alignment,pointer-overflow,null,bounds,object-size,signed-integer-overflow \
             -fno-omit-frame-pointer -fno-sanitize-recover=all
timed_host_code = $(call object_flags,$(1),$(HOST_OPT))$(eval $(BUILD)/san/obj/$(1).o: SAN := $(SAN_TIMED))$(eval $(BUILD)/san/obj/$(1).o: SAN_OPT :=)

# Text files (OpenCL C, shared headers, gnuplot scripts, CSV) embedded as C
# strings: $(call embed,SYMBOL,FILE) makes $(BUILD)/gen/SYMBOL.c.
define embed_rule
$(BUILD)/gen/$(1).c: $(2) opencl/embed.sh
	@mkdir -p $$(@D)
	opencl/embed.sh $(1) $$< > $$@
endef
embed = $(eval $(call embed_rule,$(1),$(2)))

# A CUDA kernel as PTX for the lowest architecture the toolkit targets, for
# a test that reads its code statically (needs no GPU; the test skips,
# saying so, where there is no nvcc): $(call ptx_for_test,PTX,CU,TEST,MACRO)
# makes PTX from CU and hands its path to tests/TEST as the string MACRO.
define ptx_for_test_rule
$(1): $(2) $$(CUDA_HEADERS)
	@mkdir -p $$(@D)
	$$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Icommon -Ibench -Icuda $$< -o $$@
$(BUILD)/tests/$(3) $(BUILD)/tests-san/$(3): CFLAGS += -D$(4)='"$(abspath $(1))"'
ifneq ($(NVCC),)
$(BUILD)/tests/$(3) $(BUILD)/tests-san/$(3): $(1)
endif
endef
ptx_for_test = $(eval $(call ptx_for_test_rule,$(1),$(2),$(3),$(4)))

# ---- the harness every executable shares ----
# With it, the sweeps and variants each benchmark's rows name, from the
# descriptors (common/row_names.h).
COMMON_SRC := $(wildcard common/*.c)
$(BUILD)/gen/row_names.c: FORCE
	$(call from_descriptors,row-names)
$(BUILD)/lib/common.a: $(COMMON_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/row_names.o
$(BUILD)/san/lib/common.a: $(COMMON_SRC:%.c=$(BUILD)/san/obj/%.o) $(BUILD)/san/obj/gen/row_names.o
# The host limit's and the host FMA reference's kernels stand for what the
# cores reach.
$(call timed_host_code,common/host_limit)
$(call timed_host_code,common/host_fma)
# The git revision goes into metadata; its header is rewritten only when it changes.
$(BUILD)/gen/git_rev.h: FORCE
	@mkdir -p $(@D)
	@echo '#define CR_GIT_REV "$(GIT_REV)"' > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
$(BUILD)/obj/common/metadata.o $(BUILD)/san/obj/common/metadata.o: $(BUILD)/gen/git_rev.h
$(call object_flags,common/metadata,-include $(BUILD)/gen/git_rev.h)
$(call embed,layout_cl,opencl/layout.cl)

# ---- tests ----
# $(call unit_test,SOURCE,ARCHIVES): build/tests/<name> and its sanitizer twin.
define unit_test_rule
UNIT_TESTS += $(basename $(notdir $(1)))
$(BUILD)/tests/$(basename $(notdir $(1))): $(1) $(addprefix $(BUILD)/lib/,$(2) common.a)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -fopenmp -o $$@ $$(filter %.c %.a,$$^) -lcmocka $$(LDLIBS)
$(BUILD)/tests-san/$(basename $(notdir $(1))): $(1) $(addprefix $(BUILD)/san/lib/,$(2) common.a)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(SAN_OPT) $$(SAN) -fopenmp -o $$@ $$(filter %.c %.a,$$^) -lcmocka $$(LDLIBS)

endef
# $(call cli_test,SOURCE): an end-to-end test, run against build/bin and build/san/bin;
# CR_SOURCE_DIR is this tree (run_all.sh, the lists of bad inputs).
define cli_test_rule
CLI_TESTS += $(basename $(notdir $(1)))
$(BUILD)/tests/$(basename $(notdir $(1))): $(1) common/tests/cli_harness.h $(BUILD)/lib/common.a
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -DCR_SOURCE_DIR='"$$(CURDIR)"' -o $$@ $$(filter %.c %.a,$$^) -lcmocka $$(LDLIBS)

endef
# Every tests/test_*.c of a folder but those in TESTS_LEFT_OUT: *_cli.c end to
# end, the others unit tests.
TESTS_LEFT_OUT :=
define folder_tests
$(foreach t,$(filter-out %_cli.c $(addprefix %/,$(TESTS_LEFT_OUT:=.c)),$(wildcard $(1)/tests/test_*.c)),$(call unit_test_rule,$(t),$(2)))
$(foreach t,$(wildcard $(1)/tests/test_*_cli.c),$(call cli_test_rule,$(t)))
endef
$(eval $(call folder_tests,common,))
$(eval $(call folder_tests,bench,))
$(eval $(call folder_tests,plot,))

# ---- benchmarks ----
# Per benchmark B: the archive of bench/B/*.c (but its parts of tools:
# gpu_rules.c, the GPU check's, energy_levels.c, csv_schemas.c and reproduce.c); for each of its backends (B_BACKENDS): B-opencl from
# opencl/B/*.c, opencl/B/kernels.cl where there is one and B_CL_EMBED
# (further embedded symbols), B-cuda from B_CUDA_SRC (default cuda/B/*.cu, *.cpp
# and *.c) and B_CUDA_EXTRA objects; the tests in bench/B/tests/. B_LIBS:
# archives its design builds on (another benchmark's bench_X.a, a tool's
# library), linked after its own by its executables and tests. B_PIECES:
# the shared backend pieces (below) its backends build on, linked before
# its own archive.
BENCH_TOOL_PARTS := gpu_rules energy_levels csv_schemas reproduce
# A tool's parts in the benchmarks' folders, bench/<b>/FILE.c, into the
# tool's archive with their list in the benchmarks' order, generated from
# the descriptors (common/descriptor_gen.sh MODE) and rewritten only where it
# changed: $(call bench_parts_rules,TOOL,FILE,MODE) in the tool's build.mk.
define bench_parts_rules
$(1)_PART_SRC := $$(wildcard $$(BENCHMARKS:%=bench/%/$(2).c))
$(BUILD)/gen/$(2).c: FORCE
	$$(call from_descriptors,$(3))
$(BUILD)/lib/tool_$(1).a: $$($(1)_PART_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/$(2).o
$(BUILD)/san/lib/tool_$(1).a: $$($(1)_PART_SRC:%.c=$(BUILD)/san/obj/%.o) $(BUILD)/san/obj/gen/$(2).o
endef
define benchmark_rules
$(1)_SRC := $(filter-out $(BENCH_TOOL_PARTS:%=bench/$(1)/%.c),$(wildcard bench/$(1)/*.c))
$(BUILD)/lib/bench_$(1).a: $$($(1)_SRC:%.c=$(BUILD)/obj/%.o)
$(BUILD)/san/lib/bench_$(1).a: $$($(1)_SRC:%.c=$(BUILD)/san/obj/%.o)
$$(foreach api,$$($(1)_BACKENDS),$$(eval $$(call $$(api)_benchmark_rules,$(1))))
$$(eval $$(call folder_tests,bench/$(1),bench_$(1).a $$($(1)_LIBS)))
endef
# What B's OpenCL executables link, in order: $(call opencl_links,B,LIBDIR).
opencl_links = $(addprefix $(2)/,$($(1)_PIECES:%=opencl_%.a) bench_$(1).a $($(1)_LIBS) common.a)
define opencl_benchmark_rules
$(1)_CL_KERNELS := $(if $(wildcard opencl/$(1)/kernels.cl),$(1)_kernels_cl)
$$(if $$($(1)_CL_KERNELS),$$(call embed,$(1)_kernels_cl,opencl/$(1)/kernels.cl))
$(1)_CL_OBJ := $(patsubst %.c,%.o,$(wildcard opencl/$(1)/*.c)) opencl/cl_device.o \
               $$(addprefix gen/,$$(addsuffix .o,$$($(1)_CL_KERNELS) $$($(1)_CL_EMBED)))
OPENCL_BINS += $(BUILD)/bin/$(1)-opencl
$(BUILD)/bin/$(1)-opencl: $$(addprefix $(BUILD)/obj/,$$($(1)_CL_OBJ)) $$(call opencl_links,$(1),$(BUILD)/lib)
	@mkdir -p $$(@D)
	$$(CC) -fopenmp -o $$@ $$^ -lOpenCL $$(LDLIBS)
$(BUILD)/san/bin/$(1)-opencl: $$(addprefix $(BUILD)/san/obj/,$$($(1)_CL_OBJ)) $$(call opencl_links,$(1),$(BUILD)/san/lib)
	@mkdir -p $$(@D)
	$$(CC) $$(SAN) -fopenmp -o $$@ $$^ -lOpenCL $$(LDLIBS)
$$(if $$(wildcard bench/$(1)/tests/fault_backend.c),$$(eval $$(call faulty_rules,$(1))))
endef
define cuda_benchmark_rules
$(1)_CUDA_SRC ?= $(wildcard cuda/$(1)/*.cu cuda/$(1)/*.cpp cuda/$(1)/*.c)
$(1)_CUDA_OBJ := $$(addsuffix .o,$$(basename $$($(1)_CUDA_SRC))) $(CUDA_SHARED_OBJ)
CUDA_BINS += $(BUILD)/bin/$(1)-cuda
$(BUILD)/bin/$(1)-cuda: $$(addprefix $(BUILD)/obj/,$$($(1)_CUDA_OBJ)) $$($(1)_CUDA_EXTRA) \
                        $$(addprefix $(BUILD)/lib/,$$($(1)_PIECES:%=cuda_%.a) bench_$(1).a $$($(1)_LIBS) common.a)
	@mkdir -p $$(@D)
	$$(NVCC) -o $$@ $$^ -Xcompiler -fopenmp $$(LDLIBS)
endef

# The OpenCL executable with faults planted, for the end-to-end tests only:
# B-opencl's own objects and bench/B/tests/fault_backend.c, which wraps B_main
# (-Wl,--wrap) to hand the design a decorator of the backend that spoils
# what it returns (common/tests/planted_fault.h). It goes to build/faulty/,
# never among the executables that run_all.sh runs.
define faulty_rules
FAULTY_BINS += $(BUILD)/faulty/$(1)-opencl
$(BUILD)/faulty/$(1)-opencl: $$(addprefix $(BUILD)/obj/,$$($(1)_CL_OBJ) bench/$(1)/tests/fault_backend.o) \
                             $$(call opencl_links,$(1),$(BUILD)/lib)
	@mkdir -p $$(@D)
	$$(CC) -fopenmp -Wl,--wrap=$(1)_main -o $$@ $$^ -lOpenCL $$(LDLIBS)
$(BUILD)/san/faulty/$(1)-opencl: $$(addprefix $(BUILD)/san/obj/,$$($(1)_CL_OBJ) bench/$(1)/tests/fault_backend.o) \
                                 $$(call opencl_links,$(1),$(BUILD)/san/lib)
	@mkdir -p $$(@D)
	$$(CC) $$(SAN) -fopenmp -Wl,--wrap=$(1)_main -o $$@ $$^ -lOpenCL $$(LDLIBS)
$(BUILD)/tests/test_$(1)_cli: $(BUILD)/faulty/$(1)-opencl
endef

# ---- shared backend pieces ----
# opencl/P/ and cuda/P/ of no benchmark: what the backends of several
# benchmarks build on (chase: the pointer-chase walker that latency measures
# with and cache chases with). Per API one archive: opencl_P.a of
# opencl/P/*.c, opencl/P/kernels.cl (embedded as P_kernels_cl) and
# P_CL_EMBED; cuda_P.a of cuda/P/*.cu and *.cpp. A benchmark names those it links in
# B_PIECES.
BACKEND_PIECES := $(sort $(filter-out $(BENCHMARKS) tests,$(notdir $(patsubst %/,%,$(wildcard opencl/*/ cuda/*/)))))
define piece_rules
$$(call embed,$(1)_kernels_cl,opencl/$(1)/kernels.cl)
$(1)_PIECE_CL_OBJ := $(patsubst %.c,%.o,$(wildcard opencl/$(1)/*.c)) \
                     $$(addprefix gen/,$$(addsuffix .o,$(1)_kernels_cl $$($(1)_CL_EMBED)))
$(BUILD)/lib/opencl_$(1).a: $$(addprefix $(BUILD)/obj/,$$($(1)_PIECE_CL_OBJ))
$(BUILD)/san/lib/opencl_$(1).a: $$(addprefix $(BUILD)/san/obj/,$$($(1)_PIECE_CL_OBJ))
$(BUILD)/lib/cuda_$(1).a: $(addprefix $(BUILD)/obj/,$(addsuffix .o,$(basename $(wildcard cuda/$(1)/*.cu cuda/$(1)/*.cpp))))
endef

# ---- host tools ----
# Per tool T in its folder T_DIR (tools/T, or bench/B/T for a benchmark's
# own tool): build/tools/<T with - for _, or T_EXE> from T_DIR/main.c and
# the archive of its other modules, T_LIBS (further archives) and T_GEN
# (embedded symbols); its tests link the same archives. A benchmark's own
# tool, bench/B/T/main.c, links bench_B.a.
BENCH_TOOL_DIRS := $(patsubst %/main.c,%,$(wildcard $(BENCHMARKS:%=bench/%/*/main.c)))
$(foreach d,$(BENCH_TOOL_DIRS),$(eval $(notdir $(d))_DIR := $(d))$(eval $(notdir $(d))_LIBS += bench_$(word 2,$(subst /, ,$(d))).a))
TOOLS_LIST += $(notdir $(BENCH_TOOL_DIRS))
tool_exe = $(or $($(1)_EXE),$(subst _,-,$(1)))
tool_dir = $(or $($(1)_DIR),tools/$(1))
define tool_rules
$(1)_SRC := $(filter-out $(call tool_dir,$(1))/main.c,$(wildcard $(call tool_dir,$(1))/*.c))
$(BUILD)/lib/tool_$(1).a: $$($(1)_SRC:%.c=$(BUILD)/obj/%.o)
$(BUILD)/san/lib/tool_$(1).a: $$($(1)_SRC:%.c=$(BUILD)/san/obj/%.o)
TOOL_BINS += $(BUILD)/tools/$(call tool_exe,$(1))
$(BUILD)/tools/$(call tool_exe,$(1)): $(BUILD)/obj/$(call tool_dir,$(1))/main.o $$($(1)_GEN:%=$(BUILD)/obj/gen/%.o) \
        $$(addprefix $(BUILD)/lib/,tool_$(1).a $$($(1)_LIBS) common.a)
	@mkdir -p $$(@D)
	$$(CC) -o $$@ $$^ $$(LDLIBS)
$(BUILD)/san/tools/$(call tool_exe,$(1)): $(BUILD)/san/obj/$(call tool_dir,$(1))/main.o $$($(1)_GEN:%=$(BUILD)/san/obj/gen/%.o) \
        $$(addprefix $(BUILD)/san/lib/,tool_$(1).a $$($(1)_LIBS) common.a)
	@mkdir -p $$(@D)
	$$(CC) $$(SAN) -o $$@ $$^ $$(LDLIBS)
$$(eval $$(call folder_tests,$(call tool_dir,$(1)),tool_$(1).a $$($(1)_LIBS)))
endef
# The benchmarks' descriptors as a C table (tools/shared/descriptors.h),
# rewritten only where what they say changed.
TOOLS_SHARED_SRC := $(wildcard tools/shared/*.c)
$(BUILD)/gen/descriptor_table.c: FORCE
	$(call from_descriptors,c)
$(BUILD)/lib/tool_shared.a: $(TOOLS_SHARED_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/descriptor_table.o
$(BUILD)/san/lib/tool_shared.a: $(TOOLS_SHARED_SRC:%.c=$(BUILD)/san/obj/%.o) $(BUILD)/san/obj/gen/descriptor_table.o
# The schemas of the files a benchmark writes beside its results are its own.
$(eval $(call bench_parts_rules,shared,csv_schemas,csv-schemas))
$(eval $(call folder_tests,tools/shared,tool_shared.a))
# tools/peers.sh, a script: its end-to-end test, on stand-ins of both suites.
$(eval $(call folder_tests,tools/peers,))
# run_all.sh's own steps (tools/run/*.sh): read in tests through a driver.
$(eval $(call folder_tests,tools/run,))
# tools/gpu_bundle/: bundle.sh (make gpu-bundle) and its end-to-end test.
$(eval $(call folder_tests,tools/gpu_bundle,))

# What is particular to a benchmark or tool, then the rules of each.
include $(wildcard $(BENCHMARKS:%=bench/%/build.mk) $(TOOLS_LIST:%=tools/%/build.mk))
$(foreach p,$(BACKEND_PIECES),$(eval $(call piece_rules,$(p))))
$(foreach b,$(BENCHMARKS),$(eval $(call benchmark_rules,$(b))))
$(foreach t,$(TOOLS_LIST),$(eval $(call tool_rules,$(t))))

# NVIDIA's binary tools, for offline checks of the machine code (cuobjdump
# -sass, nvdisasm): beside nvcc, on PATH, or from the PyPI wheels that
# common/deps.sh installs (bin/ folders under the Python package nvidia).
# Empty where there are none; a check that needs one then skips, saying so.
ifneq ($(NVCC),)
NV_PY_DIRS := $(shell python3 -c 'import nvidia; print(" ".join(nvidia.__path__))' 2>/dev/null)
nv_tool = $(firstword $(wildcard $(dir $(NVCC))$(1)) $(shell command -v $(1) 2>/dev/null) \
                      $(wildcard $(addsuffix /*/bin/$(1),$(NV_PY_DIRS))))
ifeq ($(origin CUOBJDUMP),undefined)
CUOBJDUMP := $(call nv_tool,cuobjdump)
endif
ifeq ($(origin NVDISASM),undefined)
NVDISASM := $(call nv_tool,nvdisasm)
endif
endif

# ---- the CUDA device layer ----
# cuda/tests/: the device layer's unit tests, linked with it and the
# static runtime (they play the driver and the runtime through its seams,
# cr_cuda_probe and cr_cuda_timer_runtime, and need no GPU), the timing
# gate's PTX and machine-code checks, and the CUDA executables end to end;
# all only where nvcc is. The unit tests are C,
# linked by the C compiler; their sanitizer twins link the same
# uninstrumented object, the runtime's calls being outside what ASan sees.
ifneq ($(NVCC),)
CUDA_LIBDIR := $(abspath $(dir $(NVCC))../lib64)
$(BUILD)/lib/cuda_shared.a $(BUILD)/san/lib/cuda_shared.a: $(addprefix $(BUILD)/obj/,$(CUDA_SHARED_OBJ))
CUDA_UNIT_TESTS := $(basename $(notdir $(filter-out %_cli.c,$(wildcard cuda/tests/test_*.c))))
$(CUDA_UNIT_TESTS:%=$(BUILD)/tests/%) $(CUDA_UNIT_TESTS:%=$(BUILD)/tests-san/%): CFLAGS += -Icuda -I$(CUDA_INC)
$(CUDA_UNIT_TESTS:%=$(BUILD)/tests/%) $(CUDA_UNIT_TESTS:%=$(BUILD)/tests-san/%): \
    LDLIBS += -L$(CUDA_LIBDIR) -lcudart_static -ldl -lpthread -lrt -lstdc++
# The gate kernel as PTX, read by tests/test_cuda_gate_ptx.c.
CUDA_TIMER_PTX := $(BUILD)/gen/cuda_timer.ptx
$(CUDA_TIMER_PTX): cuda/cuda_timer.cu $(CUDA_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Icommon -Ibench -Icuda $< -o $@
$(BUILD)/tests/test_cuda_gate_ptx $(BUILD)/tests-san/test_cuda_gate_ptx: $(CUDA_TIMER_PTX)
$(BUILD)/tests/test_cuda_gate_ptx $(BUILD)/tests-san/test_cuda_gate_ptx: \
    CFLAGS += -DCUDA_TIMER_PTX='"$(abspath $(CUDA_TIMER_PTX))"'
# The gate's machine code, read with cuobjdump where there is one.
$(BUILD)/tests/test_cuda_gate_sass $(BUILD)/tests-san/test_cuda_gate_sass: $(BUILD)/obj/cuda/cuda_timer.o
$(BUILD)/tests/test_cuda_gate_sass $(BUILD)/tests-san/test_cuda_gate_sass: \
    CFLAGS += -DCUOBJDUMP='"$(CUOBJDUMP)"' -DCUDA_TIMER_OBJ='"$(abspath $(BUILD)/obj/cuda/cuda_timer.o)"'
$(eval $(call folder_tests,cuda,cuda_shared.a))
endif

# ---- goals ----
all: opencl cuda tools
opencl: $(OPENCL_BINS)
tools: $(TOOL_BINS)
ifneq ($(NVCC),)
cuda: $(CUDA_BINS)
else
cuda:
	@echo "crossroof: nvcc not found (set NVCC, CUDA_HOME or CUDA_PATH, or put it on PATH): skipping the CUDA benchmarks"
endif

SAN_BIN := $(BUILD)/san/bin
# What each pass runs. A test in one pass only: the fuzz tests under the
# sanitizers alone (what they look for is what ASan and UBSan see); the
# truth tests heavy with arithmetic (dots of 16 Mi elements, chains of
# millions of steps) plain alone (their code runs under the sanitizers in
# the other unit tests); of the end-to-end tests, those of scripts that run
# none of our executables (on trees and stand-ins of their own), the GPU
# bundle's (it carries the plain build) and the new benchmark's (it builds a
# tree of its own) plain alone; under the sanitizers alone, the hostile
# inputs' (what it feeds, the tools parse) and, but for their TIMED cases,
# run_all.sh's and the GPU check's (their code is a script, the same in
# both passes: the sanitizer pass runs it and, beside it, the tools it
# calls; those tools have plain tests of their own). Within a test, a case
# that only costs time in the sanitizer pass is plain_pass_only
# (common/tests/cli_harness.h).
UNIT_SAN_ONLY   := $(filter %_fuzz,$(UNIT_TESTS))
UNIT_PLAIN_ONLY := test_dot_verification test_fma_truth
CLI_SAN_ONLY    := test_injection_cli test_run_all_cli test_gpu_check_cli
CLI_PLAIN_ONLY  := test_docs_check_cli test_layout_check_cli test_peers_cli test_gpu_bundle_cli test_new_benchmark_cli
UNIT_PLAIN := $(filter-out $(UNIT_SAN_ONLY),$(UNIT_TESTS))
UNIT_SAN   := $(filter-out $(UNIT_PLAIN_ONLY),$(UNIT_TESTS))
CLI_PLAIN  := $(filter-out $(CLI_SAN_ONLY),$(CLI_TESTS))
CLI_SAN    := $(filter-out $(CLI_PLAIN_ONLY),$(CLI_TESTS))
unit-tests: $(UNIT_PLAIN:%=$(BUILD)/tests/%)
	@set -e; for t in $^; do echo "== $$t"; $$t; done
unit-tests-san: $(UNIT_SAN:%=$(BUILD)/tests-san/%)
	@set -e; for t in $^; do echo "== $$t (ASan+UBSan)"; case $$t in *_fuzz) $(FUZZ_ENV) $$t;; *) $(SAN_ENV) $$t;; esac; done
# The fuzz tests for longer than make check gives them: FUZZ_SECONDS each
# (default 300), as many mutants as fit, under the sanitizers and the
# memory cap, each stopped at twice its time; CR_FUZZ_SEED=N fuzzes other
# mutants.
FUZZ_TESTS := $(filter %_fuzz,$(UNIT_SAN))
FUZZ_SECONDS ?= 300
.PHONY: fuzz
fuzz: $(FUZZ_TESTS:%=$(BUILD)/tests-san/%)
	@set -e; for t in $^; do echo "== $$t, $(FUZZ_SECONDS) s"; \
	    $(FUZZ_ENV) CR_FUZZ_SECONDS=$(FUZZ_SECONDS) CR_FUZZ_ITERS=1000000000 timeout $$(($(FUZZ_SECONDS) * 2 + 60)) $$t; done
integration: all $(CLI_TESTS:%=$(BUILD)/tests/%) $(FAULTY_BINS)
	@set -e; for t in $(CLI_PLAIN:%=$(BUILD)/tests/%); do echo "== $$t"; CROSSROOF_BIN=$(BUILD)/bin $$t; done; \
	for t in $(CLI_SAN_ONLY:%=$(BUILD)/tests/%); do echo "== $$t, its timed cases"; \
	    CROSSROOF_CASES=timed CROSSROOF_BIN=$(BUILD)/bin $$t; done
# The OpenCL executables and tools under the sanitizers; the CUDA ones are
# linked in unchanged so that the tests find them.
integration-san: all $(CLI_SAN:%=$(BUILD)/tests/%) $(OPENCL_BINS:$(BUILD)/%=$(BUILD)/san/%) \
                 $(TOOL_BINS:$(BUILD)/%=$(BUILD)/san/%) $(FAULTY_BINS:$(BUILD)/%=$(BUILD)/san/%)
	@$(MAKE) --no-print-directory san-cuda-links
	@set -e; for t in $(CLI_SAN:%=$(BUILD)/tests/%); do \
	    echo "== $$t on the executables built with ASan+UBSan"; \
	    $(SAN_ENV) CROSSROOF_SANITIZED=1 CROSSROOF_BIN=$(SAN_BIN) $$t; done

san-cuda-links:
	@mkdir -p $(SAN_BIN); for b in $(abspath $(CUDA_BINS)); do [ ! -e $$b ] || ln -sf $$b $(SAN_BIN)/; done

# ---- the GPU bundle: run_all.sh and all it runs, for a machine with only a driver ----
# A build of its own: SASS for GPU_BUNDLE_SM (those this nvcc has: Ampere,
# Hopper, Blackwell) and compute_90 PTX for later GPUs, host code for any
# x86-64 CPU with AVX2 (-march=native would be this machine's). Then
# tools/gpu_bundle/bundle.sh gathers it with its libraries, and the peers of
# build/peers where there are any (docs/gpu-check.md, GPU bundle), under
# GPU_BUNDLE_MAX_MIB. The toolkit's ptxas (36 MiB), which regspill's offline
# spill table runs, goes in only where GPU_BUNDLE_PTXAS names it: a machine
# without a toolkit reports that table as not supported.
GPU_BUNDLE       := $(BUILD)/gpu-bundle
GPU_BUNDLE_BUILD := $(BUILD)/gpu-bundle-build
GPU_BUNDLE_MAX_MIB ?= 64
GPU_BUNDLE_SM    ?= sm_80 sm_90 sm_100 sm_120
GPU_BUNDLE_PTXAS ?=
gpu_bundle_sm = $(filter $(GPU_BUNDLE_SM),$(shell $(NVCC) --list-gpu-code 2>/dev/null))
GPU_BUNDLE_ARCH = $(foreach s,$(gpu_bundle_sm),-gencode arch=compute_$(s:sm_%=%),code=$(s)) \
                  -gencode arch=compute_90,code=compute_90
GPU_BUNDLE_HOST_OPT = -O3 $(if $(filter x86_64,$(shell uname -m)),-march=x86-64-v3) -fopenmp
.PHONY: gpu-bundle
gpu-bundle:
	@[ -n "$(NVCC)" ] || { echo "make gpu-bundle: nvcc not found (set NVCC, CUDA_HOME or CUDA_PATH): a bundle without the CUDA benchmarks would check nothing" >&2; exit 1; }
	@# Objects do not know the flags they were compiled with: other flags, a fresh build.
	@flags="$(GPU_BUNDLE_ARCH) $(GPU_BUNDLE_HOST_OPT)"; stamp=$(GPU_BUNDLE_BUILD)/flags; \
	    [ -f $$stamp ] && [ "$$(cat $$stamp)" = "$$flags" ] || \
	    { rm -rf $(GPU_BUNDLE_BUILD) && mkdir -p $(GPU_BUNDLE_BUILD) && echo "$$flags" >$$stamp; }
	@$(MAKE) --no-print-directory BUILD=$(GPU_BUNDLE_BUILD) CUDA_ARCH='$(GPU_BUNDLE_ARCH)' \
	    HOST_OPT='$(GPU_BUNDLE_HOST_OPT)' opencl cuda tools
	@tools/gpu_bundle/bundle.sh --bin $(GPU_BUNDLE_BUILD)/bin --tools $(GPU_BUNDLE_BUILD)/tools \
	    --peers $(BUILD)/peers $(if $(GPU_BUNDLE_PTXAS),--ptxas $(GPU_BUNDLE_PTXAS)) --out $(GPU_BUNDLE) \
	    --max-mib $(GPU_BUNDLE_MAX_MIB) \
	    --about "revision: $(GIT_REV), built $$(date -u +%Y-%m-%dT%H:%M:%SZ) on $$(uname -m)" \
	    --about "CUDA: $$($(NVCC) --version | grep -o 'release [0-9.]*'), SASS for $(gpu_bundle_sm), PTX for compute_90" \
	    --about "host code: $(GPU_BUNDLE_HOST_OPT)"

# No two modules may depend on each other, by include or by symbol.
layout-check: all
	@common/tests/include_cycles.sh $(BUILD)

# Every path and source name README.md, ARCHITECTURE.md and docs/ give is in
# the tree, and every link between them leads somewhere.
docs-check:
	@common/tests/doc_names.sh

deps:
	@common/deps.sh

# Everything the tests run or read is built first, CHECK_JOBS at a time
# (default: every CPU). Then every case that times nothing, CHECK_JOBS
# programs at a time, each one's output printed whole when it ends: the
# unit tests in both builds, and the end-to-end tests in both passes (the
# sanitizer pass and the plain pass, CROSSROOF_CASES=untimed). Then the
# cases whose verdict rests on timing, TIMED() in their test's list
# (common/tests/test_main.h), in the plain pass, and the unit tests that
# time sleeps (TIMED_UNIT_TESTS), one program at a time, alone, as a
# measurement must be.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# Unit tests that sleep and read the clock (a time budget spent, a sampling
# thread): alone, in both builds.
TIMED_UNIT_TESTS := test_stats test_timer test_energy_nvml test_measure_energy
# The sanitizer pass first: its tests are the longest, and the last to start should be short.
CHECK_TOGETHER := $(CLI_SAN:%=check-run/cli-san/%) $(CLI_PLAIN:%=check-run/cli/%) \
                  $(patsubst %,check-run/unit-san/%,$(filter-out $(TIMED_UNIT_TESTS),$(UNIT_SAN))) \
                  $(patsubst %,check-run/unit/%,$(filter-out $(TIMED_UNIT_TESTS),$(UNIT_PLAIN)))
.PHONY: check-together check-alone san-cuda-links
check-together: $(CHECK_TOGETHER)
check-alone: $(patsubst %,check-run/unit/%,$(filter $(TIMED_UNIT_TESTS),$(UNIT_PLAIN))) \
             $(patsubst %,check-run/unit-san/%,$(filter $(TIMED_UNIT_TESTS),$(UNIT_SAN))) \
             $(CLI_TESTS:%=check-run/cli-timed/%)
check-run/unit/%: FORCE
	@echo "== $(BUILD)/tests/$*"; $(BUILD)/tests/$*
check-run/unit-san/%: FORCE
	@echo "== $(BUILD)/tests-san/$* (ASan+UBSan)"; $(if $(filter %_fuzz,$*),$(FUZZ_ENV),$(SAN_ENV)) $(BUILD)/tests-san/$*
check-run/cli/%: FORCE
	@echo "== $(BUILD)/tests/$*, the cases that time nothing"; CROSSROOF_CASES=untimed CROSSROOF_BIN=$(BUILD)/bin $(BUILD)/tests/$*
check-run/cli-timed/%: FORCE
	@echo "== $(BUILD)/tests/$*, the timed cases, alone"; CROSSROOF_CASES=timed CROSSROOF_BIN=$(BUILD)/bin $(BUILD)/tests/$*
check-run/cli-san/%: san-cuda-links FORCE
	@echo "== $(BUILD)/tests/$* on the executables built with ASan+UBSan"; \
	    $(SAN_ENV) CROSSROOF_SANITIZED=1 CROSSROOF_BIN=$(SAN_BIN) $(BUILD)/tests/$*
.PHONY: check-build
check-build: all $(UNIT_PLAIN:%=$(BUILD)/tests/%) $(UNIT_SAN:%=$(BUILD)/tests-san/%) $(CLI_TESTS:%=$(BUILD)/tests/%) \
             $(FAULTY_BINS) $(OPENCL_BINS:$(BUILD)/%=$(BUILD)/san/%) $(TOOL_BINS:$(BUILD)/%=$(BUILD)/san/%) \
             $(FAULTY_BINS:$(BUILD)/%=$(BUILD)/san/%)
check: deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-build
	@$(MAKE) --no-print-directory -j1 layout-check docs-check
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) -Otarget check-together
	@$(MAKE) --no-print-directory -j1 check-alone

# run_all.sh --slurm: its options without a cluster, then for real on a
# private cluster of local daemons (as root; exit 77 where they cannot start,
# and why). A few minutes; apart from check, which needs no Slurm.
.PHONY: check-slurm
# A machine where the daemons cannot run (the test says why, exit 77) is
# reported as skipped, loudly; any other failure fails.
check-slurm: all
	@common/deps.sh --slurm
	@tools/slurm/tests/options.sh
	@rc=0; CROSSROOF_BIN=$(abspath $(BUILD))/bin CROSSROOF_TOOLS=$(abspath $(BUILD))/tools \
	    tools/slurm/tests/local_cluster.sh || rc=$$?; \
	if [ $$rc = 77 ]; then echo "check-slurm: SKIPPED: no local Slurm cluster could run here (the reason is above)"; \
	else exit $$rc; fi

clean:
	rm -rf $(BUILD)

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
