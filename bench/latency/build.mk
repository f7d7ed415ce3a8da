# The chase loop is one header for the host's walk and the OpenCL C.
latency_CL_EMBED := latency_chase_h
$(call embed,latency_chase_h,bench/latency/chase.h)

# The CUDA chase as PTX for the lowest architecture the toolkit targets,
# for the static check that it chases pointers between two clock reads
# (tests/test_latency_ptx.c): the loop's shape is the same for every
# architecture. It needs no GPU, and skips, saying so, where there is no nvcc.
LATENCY_PTX := $(BUILD)/gen/latency_backend.ptx
$(LATENCY_PTX): cuda/latency/backend.cu $(CUDA_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -std=c++17 -Icommon -Ibench -Icuda $< -o $@
$(BUILD)/tests/test_latency_ptx $(BUILD)/tests-san/test_latency_ptx: CFLAGS += -DLATENCY_PTX='"$(abspath $(LATENCY_PTX))"'
ifneq ($(NVCC),)
$(BUILD)/tests/test_latency_ptx $(BUILD)/tests-san/test_latency_ptx: $(LATENCY_PTX)
endif
