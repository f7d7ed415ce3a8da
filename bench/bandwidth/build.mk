# The element operations are one header for the host, the OpenCL C and the CUDA
# kernels. The host references are compiled for this machine, as STREAM is.
bandwidth_CL_EMBED := layout_cl bandwidth_elements_h
$(call embed,bandwidth_elements_h,bench/bandwidth/elements.h)
$(call object_flags,bench/bandwidth/host_ref,$(HOST_OPT))
# The CUDA backend's source, for the checks that need no GPU
# (tests/test_bandwidth_cuda_source.c).
$(BUILD)/tests/test_bandwidth_cuda_source $(BUILD)/tests-san/test_bandwidth_cuda_source: \
    CFLAGS += -DBW_CUDA_SRC='"$(abspath cuda/bandwidth/backend.cu)"'
