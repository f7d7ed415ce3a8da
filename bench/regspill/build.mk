# The recurrence is one header for the host truth and both kernels; the host
# truth checks every work-item, in parallel.
regspill_CL_EMBED := regspill_recurrence_h
$(call embed,regspill_recurrence_h,bench/regspill/recurrence.h)
$(call object_flags,bench/regspill/truth,-fopenmp)

# The CUDA kernel as PTX, one per live-value count (the counts of
# regspill_standard_live), embedded; the backend JIT-compiles it with each
# register cap at run time and ptxas compiles it offline without a GPU.
RS_LIVE_LIST := 2 4 8 12 16 20 24 28 32 40 48 56 64 80 96 128 160 192 256
RS_PTX := $(RS_LIVE_LIST:%=$(BUILD)/gen/regspill_live_%.ptx)
$(BUILD)/gen/regspill_live_%.ptx: cuda/regspill/kernels.cu bench/regspill/recurrence.h
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Ibench -DRS_LIVE=$* $< -o $@
$(BUILD)/gen/regspill_ptx_table.c: $(RS_PTX) cuda/embed_ptx.sh
	@mkdir -p $(@D)
	cuda/embed_ptx.sh $(RS_PTX) > $@.new && mv $@.new $@
regspill_CUDA_SRC   := cuda/regspill/backend.cpp cuda/regspill/main.c
regspill_CUDA_EXTRA := $(BUILD)/obj/gen/regspill_ptx_table.o
$(BUILD)/obj/cuda/regspill/backend.o: CUDA_CXXFLAGS += -DCR_CUDA_BIN_DIR='"$(patsubst %/,%,$(dir $(NVCC)))"'

# The cross-check against NVIDIA's own occupancy calculator needs the
# toolkit's cuda_occupancy.h; it is built wherever the toolkit is.
ifneq ($(wildcard $(CUDA_INC)/cuda_occupancy.h),)
$(BUILD)/tests/test_occupancy_nvidia $(BUILD)/tests-san/test_occupancy_nvidia: CFLAGS += -I$(CUDA_INC)
else
TESTS_LEFT_OUT += test_occupancy_nvidia
endif

# The CUDA backend read as source by a test that needs no GPU
# (tests/test_regspill_cuda_source.c).
$(BUILD)/tests/test_regspill_cuda_source $(BUILD)/tests-san/test_regspill_cuda_source: \
    CFLAGS += -DRS_CUDA_SRC='"$(abspath cuda/regspill/backend.cpp)"'

# critical-points, the benchmark's own host tool, checks its output at exit
# as every host tool does (tools/shared/output_check.h).
critical_points_LIBS += tool_shared.a
