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

# Each unit's object, and its PTX for the static check
# (tests/test_sfu_ptx.c): the PTX nvcc makes on the way to the object (it
# keeps its intermediates, of which the PTX of the lowest architecture built
# is taken), so that the test reads what the executable carries and the 384
# kernels are compiled once, not again for the test.
SFU_UNITS := kernels_plain kernels_partition kernels_intrinsic
SFU_PTX := $(SFU_UNITS:%=$(BUILD)/gen/sfu_%.ptx)
define sfu_unit_rule
$(BUILD)/obj/cuda/sfu/$(1).o $(BUILD)/gen/sfu_$(1).ptx &: cuda/sfu/$(1).cu $$(CUDA_HEADERS)
	@rm -rf $(BUILD)/gen/keep-sfu_$(1) && mkdir -p $(BUILD)/obj/cuda/sfu $(BUILD)/gen/keep-sfu_$(1)
	$$(NVCC) $$(NVCCFLAGS) $(sfu_ftz.$(1)) --keep --keep-dir $(BUILD)/gen/keep-sfu_$(1) -c $$< -o $(BUILD)/obj/cuda/sfu/$(1).o
	@ptx=$$$$(ls $(BUILD)/gen/keep-sfu_$(1)/*.compute_*.ptx | sort -V | head -n 1) && [ -n "$$$$ptx" ] && \
	    mv -f "$$$$ptx" $(BUILD)/gen/sfu_$(1).ptx && rm -rf $(BUILD)/gen/keep-sfu_$(1)
endef
$(foreach u,$(SFU_UNITS),$(eval $(call sfu_unit_rule,$(u))))
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
