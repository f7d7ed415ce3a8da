# The element operations are one header for the host, the OpenCL C and the CUDA
# kernels. The host references are timed host code (Makefile, timed_host_code).
bandwidth_CL_EMBED := layout_cl bandwidth_elements_h
$(call embed,bandwidth_elements_h,bench/bandwidth/elements.h)
$(call timed_host_code,bench/bandwidth/host_ref)
# The CUDA backend's source, for the checks that need no GPU
# (tests/test_bandwidth_cuda_source.c, cuda/tests/test_bandwidth_cuda_cells.c).
$(BUILD)/tests/test_bandwidth_cuda_source $(BUILD)/tests-san/test_bandwidth_cuda_source \
$(BUILD)/tests/test_bandwidth_cuda_cells $(BUILD)/tests-san/test_bandwidth_cuda_cells: \
    CFLAGS += -DBW_CUDA_SRC='"$(abspath cuda/bandwidth/backend.cpp)"'
# The CUDA backend's path table, host-side plans and stream ordering, and its copy
# kernel as PTX and as ptxas sees it, for the checks in cuda/tests that
# need no GPU (test_bandwidth_*).
ifneq ($(NVCC),)
$(call object_flags,cuda/bandwidth/fork_join,-I$(CUDA_INC))
$(BUILD)/lib/cuda_bandwidth_host.a $(BUILD)/san/lib/cuda_bandwidth_host.a: \
    $(addprefix $(BUILD)/obj/cuda/bandwidth/,transfer_plan.o fork_join.o path_table.o)
BW_CUDA_HOST_TESTS := test_bandwidth_transfer_plan test_bandwidth_fork_join test_bandwidth_cuda_cells
$(BW_CUDA_HOST_TESTS:%=$(BUILD)/tests/%): $(BUILD)/lib/cuda_bandwidth_host.a
$(BW_CUDA_HOST_TESTS:%=$(BUILD)/tests-san/%): $(BUILD)/san/lib/cuda_bandwidth_host.a
$(BUILD)/tests/test_bandwidth_fork_join $(BUILD)/tests-san/test_bandwidth_fork_join: \
    CFLAGS += -DBW_CUDA_TRANSFERS_SRC='"$(abspath cuda/bandwidth/transfers.cu)"'
# Each kernel of its own file (copy_kernel.cu, local_kernel.cu) as PTX and as
# ptxas sees it for sm_80 and sm_90, for test_bandwidth_copy_ptx.
BW_PTX_KERNELS := copy local
$(BW_PTX_KERNELS:%=$(BUILD)/gen/bandwidth_%.ptx): $(BUILD)/gen/bandwidth_%.ptx: cuda/bandwidth/%_kernel.cu \
    cuda/bandwidth/%_kernel.h cuda/bandwidth/grid.cuh bench/bandwidth/elements.h
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_80 -O3 -std=c++17 -Icommon -Ibench -Icuda $< -o $@
define bw_kernel_checks
$(BUILD)/gen/bandwidth_$(1).sm_80.log $(BUILD)/gen/bandwidth_$(1).sm_90.log: \
    $(BUILD)/gen/bandwidth_$(1).%.log: $(BUILD)/gen/bandwidth_$(1).ptx
	$$(dir $$(NVCC))ptxas -arch=$$* -v $$< -o /dev/null 2> $$@.new && mv $$@.new $$@
$(BUILD)/tests/test_bandwidth_copy_ptx $(BUILD)/tests-san/test_bandwidth_copy_ptx: $(BUILD)/gen/bandwidth_$(1).ptx \
    $(BUILD)/gen/bandwidth_$(1).sm_80.log $(BUILD)/gen/bandwidth_$(1).sm_90.log
endef
$(foreach k,$(BW_PTX_KERNELS),$(eval $(call bw_kernel_checks,$(k))))
$(BUILD)/tests/test_bandwidth_copy_ptx $(BUILD)/tests-san/test_bandwidth_copy_ptx: \
    CFLAGS += -DBW_GEN_DIR='"$(abspath $(BUILD)/gen)"'
endif
