# The address pattern is one header for the host, the OpenCL C and the CUDA
# kernels; the host's C11 atomics run on OpenMP threads.
atomics_CL_EMBED := atomics_pattern_h
$(call embed,atomics_pattern_h,bench/atomics/pattern.h)
$(call object_flags,bench/atomics/host_ref,-fopenmp)
# The backends' sources, for the checks that need no GPU
# (tests/test_atomics_cuda_source.c).
$(BUILD)/tests/test_atomics_cuda_source $(BUILD)/tests-san/test_atomics_cuda_source: \
    CFLAGS += -DAT_CUDA_SRC='"$(abspath cuda/atomics/backend.cu)"' -DAT_OPENCL_SRC='"$(abspath opencl/atomics/backend.c)"'
