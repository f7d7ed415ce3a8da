# The chase loop is one header for the host's walk, the OpenCL C and the
# CUDA kernel.
latency_CL_EMBED := latency_chase_h
$(call embed,latency_chase_h,bench/latency/chase.h)
