# CUDA backend of the SFU benchmark (sfu-cuda) and the static check of its
# kernels' PTX (common/tests/test_sfu_ptx.c). The design's host objects,
# SFU_OBJ, come from mk/sfu.mk, which is included before this file.

SFU_KERNEL_UNITS := sfu_kernels sfu_kernels_intrinsic
SFU_KERNEL_DEPS  := cuda/sfu_kernels.cuh cuda/sfu_ops_ptx.cuh cuda/sfu_kernel_table.h bench/sfu.h \
                    bench/sfu_functions.h
# -ftz is per compilation. The intrinsics are Li's "intrinsic & -ftz=true";
# the precise versions keep subnormals, and the PTX versions flush by their
# own .ftz whatever this says.
sfu_ftz.sfu_kernels           := -ftz=false
sfu_ftz.sfu_kernels_intrinsic := -ftz=true
$(BUILD)/obj/cuda/sfu_kernels.o: NVCCFLAGS += $(sfu_ftz.sfu_kernels)
$(BUILD)/obj/cuda/sfu_kernels_intrinsic.o: NVCCFLAGS += $(sfu_ftz.sfu_kernels_intrinsic)
$(SFU_KERNEL_UNITS:%=$(BUILD)/obj/cuda/%.o): $(SFU_KERNEL_DEPS)

SFU_CUDA_OBJ := $(addprefix $(BUILD)/obj/cuda/,sfu_cuda.o cuda_device.o sfu_cuda_main.o) \
                $(SFU_KERNEL_UNITS:%=$(BUILD)/obj/cuda/%.o)

CUDA_BINS += $(BUILD)/bin/sfu-cuda
$(BUILD)/bin/sfu-cuda: $(SFU_CUDA_OBJ) $(SFU_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

# The same kernels as PTX for the lowest architecture the toolkit targets,
# with the same -ftz, for the static check; it needs no GPU.
SFU_PTX := $(SFU_KERNEL_UNITS:%=$(BUILD)/gen/%.ptx)
$(SFU_PTX): $(BUILD)/gen/%.ptx: cuda/%.cu $(SFU_KERNEL_DEPS)
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Icommon -Ibench -Icuda $(sfu_ftz.$*) $< -o $@

# The test is built everywhere (common/tests/test_*.c) and skips, saying
# so, where there is no PTX because there is no nvcc.
$(BUILD)/tests/test_sfu_ptx $(BUILD)/tests-san/test_sfu_ptx: CFLAGS += -DSFU_PTX_DIR='"$(abspath $(BUILD)/gen)"'
ifneq ($(NVCC),)
$(BUILD)/tests/test_sfu_ptx $(BUILD)/tests-san/test_sfu_ptx: $(SFU_PTX)
endif
