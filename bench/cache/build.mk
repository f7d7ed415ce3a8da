# Every chase of the cache benchmark is the shared pointer-chase walker
# (opencl/chase, cuda/chase), on whose device its own kernels run; its
# design builds its chains with the latency benchmark's chain modules
# (perm, pieces, walk_steps of bench_latency.a).
cache_PIECES := chase
cache_LIBS := bench_latency.a

# The store kernel is one header for the OpenCL C and the CUDA kernel.
cache_CL_EMBED := cache_store_h
$(call embed,cache_store_h,bench/cache/store.h)

# The CUDA load variants as PTX, for the static check that each emits its
# own kind of load and no local memory (tests/test_cache_ptx.c).
CACHE_PTX := $(BUILD)/gen/cache_loads.ptx
$(call ptx_for_test,$(CACHE_PTX),cuda/cache/loads.cu,test_cache_ptx,CACHE_PTX)

# The pattern validation (patterns.c): the design runs the simulator in
# process, linking its library (tool_cachesim.a, the cs_ modules of
# tools/cachesim); the pattern index and the pattern kernels join the OpenCL
# program; the CUDA pattern kernel as PTX, for the static check that each
# access is one dependent load and nothing goes to local memory
# (tests/test_cache_patterns_ptx.c; skipped, saying so, without nvcc).
cache_LIBS += tool_cachesim.a
cache_CL_EMBED += cache_pattern_index_h cache_patterns_cl
$(call embed,cache_pattern_index_h,bench/cache/pattern_index.h)
$(call embed,cache_patterns_cl,opencl/cache/patterns.cl)
CACHE_PATTERNS_PTX := $(BUILD)/gen/cache_patterns.ptx
$(call ptx_for_test,$(CACHE_PATTERNS_PTX),cuda/cache/patterns.cu,test_cache_patterns_ptx,CACHE_PATTERNS_PTX)
