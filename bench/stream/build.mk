# The host references are timed host code (Makefile, timed_host_code).
stream_CL_EMBED := layout_cl stream_elements_h
$(call embed,stream_elements_h,bench/stream/elements.h)
$(call timed_host_code,bench/stream/host_ref)

# The CUDA kernels as PTX for the architectures the build targets, and what
# ptxas makes of them (-v: registers and spills per kernel), for the static
# check (tests/test_stream_cuda_static.c), which needs no GPU and skips,
# saying so, where there is no nvcc; beside them the OpenCL backend's
# source, whose timed interval the same test reads.
STREAM_PTX := $(BUILD)/gen/stream_kernels.ptx
STREAM_PTXAS_LOGS := $(BUILD)/gen/stream_kernels.sm_80.log $(BUILD)/gen/stream_kernels.sm_90.log
$(STREAM_PTX): cuda/stream/kernels.cu cuda/stream/kernels.h bench/stream/backend.h bench/stream/elements.h
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_80 -O3 -std=c++17 -Icommon -Ibench -Icuda $< -o $@
$(STREAM_PTXAS_LOGS): $(BUILD)/gen/stream_kernels.%.log: $(STREAM_PTX)
	$(dir $(NVCC))ptxas -arch=$* -v $< -o /dev/null 2> $@.new && mv $@.new $@
$(BUILD)/tests/test_stream_cuda_static $(BUILD)/tests-san/test_stream_cuda_static: \
    CFLAGS += -DSTREAM_GEN_DIR='"$(abspath $(BUILD)/gen)"' -DSTREAM_CUDA_SRC='"$(abspath cuda/stream/backend.cpp)"' \
              -DSTREAM_OPENCL_SRC='"$(abspath opencl/stream/backend.c)"'
ifneq ($(NVCC),)
$(BUILD)/tests/test_stream_cuda_static $(BUILD)/tests-san/test_stream_cuda_static: $(STREAM_PTX) $(STREAM_PTXAS_LOGS)
endif
