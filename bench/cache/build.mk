# Every chase of the cache benchmark is the latency benchmark's walker: its
# chain helpers (perm, pieces, walk_steps) join the cache archive, its OpenCL backend
# and kernels the OpenCL executable, its CUDA backend the CUDA one. Every
# bench/cache/*.c is in the archive by the generic rule, the pattern
# modules included.
CC_LATENCY_HOST := perm pieces walk_steps
$(BUILD)/lib/bench_cache.a: $(CC_LATENCY_HOST:%=$(BUILD)/obj/bench/latency/%.o)
$(BUILD)/san/lib/bench_cache.a: $(CC_LATENCY_HOST:%=$(BUILD)/san/obj/bench/latency/%.o)
CC_LATENCY_CL := opencl/latency/backend.o gen/latency_kernels_cl.o gen/latency_chase_h.o
$(BUILD)/bin/cache-opencl: $(CC_LATENCY_CL:%=$(BUILD)/obj/%)
$(BUILD)/san/bin/cache-opencl: $(CC_LATENCY_CL:%=$(BUILD)/san/obj/%)
cache_CUDA_SRC := $(wildcard cuda/cache/*.cu cuda/cache/*.c) cuda/latency/backend.cu
# Those objects come after the archives on the link line and need the
# latency helpers in them: the archives once more at the end.
$(BUILD)/bin/cache-opencl $(BUILD)/bin/cache-cuda: LDLIBS := $(BUILD)/lib/bench_cache.a $(BUILD)/lib/common.a $(LDLIBS)
$(BUILD)/san/bin/cache-opencl: LDLIBS := $(BUILD)/san/lib/bench_cache.a $(BUILD)/san/lib/common.a $(LDLIBS)

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
