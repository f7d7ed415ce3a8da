# The chase loop is one header for the host's walk and the OpenCL C.
latency_CL_EMBED := latency_chase_h
$(call embed,latency_chase_h,bench/latency/chase.h)

# The CUDA chase as PTX, for the static check that it chases pointers
# between two clock reads (tests/test_latency_ptx.c): the loop's shape is
# the same for every architecture.
LATENCY_PTX := $(BUILD)/gen/latency_backend.ptx
$(call ptx_for_test,$(LATENCY_PTX),cuda/latency/backend.cu,test_latency_ptx,LATENCY_PTX)
