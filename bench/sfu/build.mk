# The MPFR reference runs in parallel with OpenMP.
$(call object_flags,bench/sfu/accuracy,-fopenmp)

# The chain's step is one header for the host's replay and both backends'
# kernels.
sfu_CL_EMBED := sfu_chain_h
$(call embed,sfu_chain_h,bench/sfu/chain.h)

# CUDA: -ftz is per compilation. The intrinsics are Li's "intrinsic &
# -ftz=true"; the precise versions keep subnormals, and the PTX versions
# flush by their own .ftz whatever this says.
sfu_ftz.kernels_plain     := -ftz=false
sfu_ftz.kernels_partition := -ftz=false
sfu_ftz.kernels_intrinsic := -ftz=true
$(BUILD)/obj/cuda/sfu/kernels_plain.o: NVCCFLAGS += $(sfu_ftz.kernels_plain)
$(BUILD)/obj/cuda/sfu/kernels_partition.o: NVCCFLAGS += $(sfu_ftz.kernels_partition)
$(BUILD)/obj/cuda/sfu/kernels_intrinsic.o: NVCCFLAGS += $(sfu_ftz.kernels_intrinsic)

# The same kernels as PTX for the lowest architecture the toolkit targets,
# with the same -ftz, for the static check (tests/test_sfu_ptx.c); it needs
# no GPU, and skips, saying so, where there is no nvcc.
SFU_UNITS := kernels_plain kernels_partition kernels_intrinsic
SFU_PTX := $(SFU_UNITS:%=$(BUILD)/gen/sfu_%.ptx)
$(SFU_PTX): $(BUILD)/gen/sfu_%.ptx: cuda/sfu/%.cu $(CUDA_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Icommon -Ibench -Icuda $(sfu_ftz.$*) $< -o $@
$(BUILD)/tests/test_sfu_ptx $(BUILD)/tests-san/test_sfu_ptx: CFLAGS += -DSFU_PTX_DIR='"$(abspath $(BUILD)/gen)"'
ifneq ($(NVCC),)
$(BUILD)/tests/test_sfu_ptx $(BUILD)/tests-san/test_sfu_ptx: $(SFU_PTX)
endif
# Their machine code, as cuobjdump lists it where there is one
# (tests/test_sfu_sass.c): the objects the executable links, listed once
# (cuobjdump takes seconds over them) for the test and its sanitizer twin.
SFU_SASS := $(SFU_UNITS:%=$(BUILD)/gen/sfu_%.sass)
# (Empty where there is no cuobjdump: the test then skips, saying so.)
$(SFU_SASS): $(BUILD)/gen/sfu_%.sass: $(BUILD)/obj/cuda/sfu/%.o
	@mkdir -p $(@D)
	@if [ -n '$(CUOBJDUMP)' ]; then '$(CUOBJDUMP)' -sass $< > $@.tmp && mv $@.tmp $@; else : > $@; fi
$(BUILD)/tests/test_sfu_sass $(BUILD)/tests-san/test_sfu_sass: \
    CFLAGS += -DCUOBJDUMP='"$(CUOBJDUMP)"' -DSFU_SASS_DIR='"$(abspath $(BUILD)/gen)"'
ifneq ($(NVCC),)
$(BUILD)/tests/test_sfu_sass $(BUILD)/tests-san/test_sfu_sass: $(SFU_SASS)
endif
