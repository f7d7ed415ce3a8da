# The address pattern is one header for the host, the OpenCL C and the CUDA
# kernels; the host's C11 atomics run on OpenMP threads.
atomics_CL_EMBED := atomics_pattern_h
$(call embed,atomics_pattern_h,bench/atomics/pattern.h)
$(call object_flags,bench/atomics/host_ref,-fopenmp)
