# The backends are the shared pointer-chase walker (opencl/chase,
# cuda/chase), whose OpenCL C takes the chase loop from the one header of
# the host's walk.
latency_PIECES := chase
chase_CL_EMBED := latency_chase_h
$(call embed,latency_chase_h,bench/latency/chase.h)

# The CUDA chase as PTX, for the static check that it chases pointers
# between two clock reads (tests/test_latency_ptx.c): the loop's shape is
# the same for every architecture.
LATENCY_PTX := $(BUILD)/gen/latency_backend.ptx
$(call ptx_for_test,$(LATENCY_PTX),cuda/chase/walker.cu,test_latency_ptx,LATENCY_PTX)
