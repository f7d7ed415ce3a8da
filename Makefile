# crossroof build. `make` builds every OpenCL benchmark and, when nvcc is
# found, every CUDA benchmark; `make check` runs all tests.

CC       ?= gcc
BUILD    ?= build
GIT_REV  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# Warnings are errors in CI (CI=true) and whenever WERROR=1.
ifneq ($(strip $(CI)$(WERROR)),)
  WFLAGS := -Werror
endif
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra $(WFLAGS) -MMD -MP -Icommon -Ibench -Iopencl
HOST_OPT := -O3 -march=native -fopenmp
LDLIBS   := -lhwloc -lmpfr -lgmp -lm
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# ---- CUDA: nvcc from NVCC, CUDA_HOME, CUDA_PATH or PATH ----
NVCC ?= $(firstword $(wildcard $(CUDA_HOME)/bin/nvcc $(CUDA_PATH)/bin/nvcc) $(shell command -v nvcc 2>/dev/null))
CUDA_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O3 -std=c++17 $(CUDA_ARCH) -Icommon -Ibench -Icuda -Xcompiler -Wall,-Wextra$(if $(WFLAGS),$(comma)-Werror)
comma := ,

COMMON_SRC := $(wildcard common/*.c)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/obj/%.o)
STREAM_OBJ := $(addprefix $(BUILD)/obj/bench/,stream.o stream_kernels.o stream_verify.o stream_host.o)

BW_OBJ     := $(addprefix $(BUILD)/obj/bench/,bandwidth.o bandwidth_host.o transfer_model.o)
RS_OBJ     := $(addprefix $(BUILD)/obj/bench/,regspill.o regspill_reference.o ptxas_log.o occupancy.o)
AT_OBJ     := $(addprefix $(BUILD)/obj/bench/,atomics.o atomics_expect.o atomics_host.o)

OPENCL_BINS := $(BUILD)/bin/stream-opencl $(BUILD)/bin/bandwidth-opencl $(BUILD)/bin/regspill-opencl \
               $(BUILD)/bin/atomics-opencl
CUDA_BINS   := $(BUILD)/bin/stream-cuda $(BUILD)/bin/bandwidth-cuda $(BUILD)/bin/regspill-cuda \
               $(BUILD)/bin/atomics-cuda
# Host tools that need no device; run_all.sh runs only build/bin.
TOOLS       := $(BUILD)/tools/critical-points
# Built with ASan+UBSan for the end-to-end tests.
SAN_OPENCL_BINS := $(BUILD)/san/bin/stream-opencl $(BUILD)/san/bin/bandwidth-opencl \
                   $(BUILD)/san/bin/regspill-opencl $(BUILD)/san/bin/atomics-opencl
SAN_TOOLS       := $(BUILD)/san/tools/critical-points
# Host code under test: everything in common/ and the backend-free parts of bench/.
TESTED_SRC := $(COMMON_SRC) bench/stream_verify.c bench/stream_kernels.c bench/transfer_model.c \
              bench/occupancy.c bench/ptxas_log.c bench/regspill_reference.c bench/atomics_expect.c \
              bench/atomics_host.c

# The fragments below define rules of their own; plain `make` still means all.
.DEFAULT_GOAL := all

# One fragment per later benchmark or tool: its objects, executables and the
# host code its tests need, added to the lists above.
include $(sort $(wildcard mk/*.mk))

.PHONY: all opencl cuda tools check unit-tests unit-tests-san integration integration-san deps clean FORCE
all: opencl cuda tools

opencl: $(OPENCL_BINS)
tools: $(TOOLS)

ifneq ($(NVCC),)
cuda: $(CUDA_BINS)
else
cuda:
	@echo "crossroof: nvcc not found (set NVCC, CUDA_HOME or CUDA_PATH, or put it on PATH): skipping the CUDA benchmarks"
endif

# The git revision goes into metadata; rewrite its header only when it changes.
$(BUILD)/gen/git_rev.h: FORCE
	@mkdir -p $(@D)
	@echo '#define CR_GIT_REV "$(GIT_REV)"' > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
$(BUILD)/obj/common/metadata.o: $(BUILD)/gen/git_rev.h
$(BUILD)/obj/common/metadata.o: CFLAGS += -include $(BUILD)/gen/git_rev.h

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# The host references are compiled for this machine, as STREAM is.
$(BUILD)/obj/bench/stream_host.o $(BUILD)/obj/bench/bandwidth_host.o: CFLAGS += $(HOST_OPT)
# The register-spill reference checks every work-item, in parallel.
$(BUILD)/obj/bench/regspill_reference.o: CFLAGS += -fopenmp
# The host's C11 atomics run on OpenMP threads.
$(BUILD)/obj/bench/atomics_host.o: CFLAGS += -fopenmp

# OpenCL C sources are embedded as strings so binaries need no data files.
$(BUILD)/gen/%_cl.c: opencl/%.cl opencl/embed.sh
	@mkdir -p $(@D)
	opencl/embed.sh $*_cl $< > $@
# Headers the host and the kernels share, for the OpenCL builds.
$(BUILD)/gen/regspill_recurrence_h.c: bench/regspill_recurrence.h opencl/embed.sh
	@mkdir -p $(@D)
	opencl/embed.sh regspill_recurrence_h $< > $@
$(BUILD)/gen/atomics_pattern_h.c: bench/atomics_pattern.h opencl/embed.sh
	@mkdir -p $(@D)
	opencl/embed.sh atomics_pattern_h $< > $@
$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/bin/stream-opencl: $(BUILD)/obj/opencl/stream_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                            $(BUILD)/obj/gen/stream_kernels_cl.o $(BUILD)/obj/gen/layout_cl.o $(STREAM_OBJ) \
                            $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/bin/bandwidth-opencl: $(BUILD)/obj/opencl/bandwidth_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                               $(BUILD)/obj/gen/bandwidth_kernels_cl.o $(BUILD)/obj/gen/layout_cl.o $(BW_OBJ) \
                               $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/bin/regspill-opencl: $(BUILD)/obj/opencl/regspill_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                              $(BUILD)/obj/gen/regspill_kernels_cl.o $(BUILD)/obj/gen/regspill_recurrence_h.o \
                              $(RS_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/bin/atomics-opencl: $(BUILD)/obj/opencl/atomics_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                             $(BUILD)/obj/gen/atomics_kernels_cl.o $(BUILD)/obj/gen/atomics_pattern_h.o $(AT_OBJ) \
                             $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/tools/critical-points: $(BUILD)/obj/bench/critical_points_main.o $(BUILD)/obj/bench/occupancy.o \
                                $(BUILD)/obj/common/tool_die.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/cuda/%.o: cuda/%.cu $(wildcard cuda/*.h bench/*.h common/*.h)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

# The register-spill kernel as PTX, one per live-value count (the counts of
# regspill_standard_live), embedded; the backend JIT-compiles it with each
# register cap at run time and ptxas compiles it offline without a GPU.
RS_LIVE_LIST := 2 4 8 12 16 20 24 28 32 40 48 56 64 80 96 128 160 192 256
RS_PTX := $(RS_LIVE_LIST:%=$(BUILD)/gen/regspill_live_%.ptx)
$(BUILD)/gen/regspill_live_%.ptx: cuda/regspill_kernels.cu bench/regspill_recurrence.h
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Ibench -DRS_LIVE=$* $< -o $@
$(BUILD)/gen/regspill_ptx_table.c: $(RS_PTX) cuda/embed_ptx.sh
	@mkdir -p $(@D)
	cuda/embed_ptx.sh $(RS_PTX) > $@.new && mv $@.new $@
$(BUILD)/obj/cuda/regspill_cuda.o: NVCCFLAGS += -DCR_CUDA_BIN_DIR='"$(patsubst %/,%,$(dir $(NVCC)))"'
$(BUILD)/bin/regspill-cuda: $(BUILD)/obj/cuda/regspill_cuda.o $(BUILD)/obj/cuda/cuda_device.o \
                            $(BUILD)/obj/cuda/regspill_cuda_main.o $(BUILD)/obj/gen/regspill_ptx_table.o $(RS_OBJ) \
                            $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

$(BUILD)/bin/atomics-cuda: $(BUILD)/obj/cuda/atomics_cuda.o $(BUILD)/obj/cuda/cuda_device.o \
                           $(BUILD)/obj/cuda/atomics_cuda_main.o $(AT_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

$(BUILD)/bin/stream-cuda: $(BUILD)/obj/cuda/stream_cuda.o $(BUILD)/obj/cuda/cuda_device.o \
                          $(BUILD)/obj/cuda/stream_cuda_main.o $(STREAM_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

$(BUILD)/bin/bandwidth-cuda: $(BUILD)/obj/cuda/bandwidth_cuda.o $(BUILD)/obj/cuda/cuda_device.o \
                             $(BUILD)/obj/cuda/bandwidth_cuda_main.o $(BW_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

# ---- tests ----
# The cross-check against NVIDIA's own occupancy calculator needs the CUDA
# toolkit's cuda_occupancy.h; it runs wherever the toolkit is.
CUDA_INC  := $(if $(NVCC),$(abspath $(dir $(NVCC))../include))
NV_TEST   := $(if $(wildcard $(CUDA_INC)/cuda_occupancy.h),test_occupancy_nvidia)
TEST_SRC  := $(filter-out %/test_occupancy_nvidia.c,$(wildcard common/tests/test_*.c)) \
             $(NV_TEST:%=common/tests/%.c)
TEST_BINS := $(TEST_SRC:common/tests/%.c=$(BUILD)/tests/%)
SAN_BINS  := $(TEST_SRC:common/tests/%.c=$(BUILD)/tests-san/%)
$(BUILD)/tests/test_occupancy_nvidia $(BUILD)/tests-san/test_occupancy_nvidia: CFLAGS += -I$(CUDA_INC)
$(BUILD)/tests/%: common/tests/%.c $(TESTED_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fopenmp -o $@ $(filter %.c %.o,$^) -lcmocka $(LDLIBS)

# The same host code built with AddressSanitizer and UBSan.
$(BUILD)/san/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) -c $< -o $@
$(BUILD)/san/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) -c $< -o $@
$(BUILD)/san/obj/common/metadata.o: $(BUILD)/gen/git_rev.h
$(BUILD)/san/obj/common/metadata.o: CFLAGS += -include $(BUILD)/gen/git_rev.h
$(BUILD)/san/obj/bench/stream_host.o $(BUILD)/san/obj/bench/bandwidth_host.o: CFLAGS += $(HOST_OPT)
$(BUILD)/san/obj/bench/regspill_reference.o: CFLAGS += -fopenmp
$(BUILD)/san/obj/bench/atomics_host.o: CFLAGS += -fopenmp

$(BUILD)/tests-san/%: common/tests/%.c $(TESTED_SRC:%.c=$(BUILD)/san/obj/%.o)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) -fopenmp -o $@ $(filter %.c %.o,$^) -lcmocka $(LDLIBS)

# The OpenCL executables under the sanitizers, for the end-to-end tests; the
# CUDA ones are linked in unchanged so that the tests find them.
SAN_BIN := $(BUILD)/san/bin
$(SAN_BIN)/stream-opencl: $(addprefix $(BUILD)/san/obj/,opencl/stream_opencl.o opencl/cl_device.o \
                          gen/stream_kernels_cl.o gen/layout_cl.o) $(STREAM_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) \
                          $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)
$(SAN_BIN)/bandwidth-opencl: $(addprefix $(BUILD)/san/obj/,opencl/bandwidth_opencl.o opencl/cl_device.o \
                             gen/bandwidth_kernels_cl.o gen/layout_cl.o) $(BW_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) \
                             $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

deps:
	@common/deps.sh

unit-tests: $(TEST_BINS)
	@set -e; for t in $^; do echo "== $$t"; $$t; done

unit-tests-san: $(SAN_BINS)
	@set -e; for t in $^; do echo "== $$t (ASan+UBSan)"; \
	    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 $$t; done

CLI_TESTS := $(patsubst bench/tests/%.c,$(BUILD)/tests/%,$(wildcard bench/tests/test_*_cli.c))
$(BUILD)/tests/test_%_cli: bench/tests/test_%_cli.c bench/tests/cli_harness.h $(BUILD)/obj/common/results.o \
                           $(BUILD)/obj/common/csv.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/tests -o $@ $(filter %.c %.o,$^) -lcmocka $(LDLIBS)

integration: all $(CLI_TESTS)
	@set -e; for t in $(CLI_TESTS); do echo "== $$t"; CROSSROOF_BIN=$(BUILD)/bin $$t; done

$(SAN_BIN)/regspill-opencl: $(addprefix $(BUILD)/san/obj/,opencl/regspill_opencl.o opencl/cl_device.o \
                            gen/regspill_kernels_cl.o gen/regspill_recurrence_h.o) \
                            $(RS_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(SAN_BIN)/atomics-opencl: $(addprefix $(BUILD)/san/obj/,opencl/atomics_opencl.o opencl/cl_device.o \
                           gen/atomics_kernels_cl.o gen/atomics_pattern_h.o) \
                           $(AT_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/san/tools/critical-points: $(BUILD)/san/obj/bench/critical_points_main.o $(BUILD)/san/obj/bench/occupancy.o \
                                    $(BUILD)/san/obj/common/tool_die.o
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

integration-san: all $(CLI_TESTS) $(SAN_OPENCL_BINS) $(SAN_TOOLS)
	@for b in $(CUDA_BINS); do [ ! -e $$b ] || ln -sf $(abspath $$b) $(SAN_BIN)/; done
	@set -e; for t in $(CLI_TESTS); do echo "== $$t on the executables built with ASan+UBSan"; \
	    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 CROSSROOF_BIN=$(SAN_BIN) $$t; done

check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit-tests unit-tests-san integration integration-san

clean:
	rm -rf $(BUILD)

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
