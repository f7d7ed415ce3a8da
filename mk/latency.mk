# The latency benchmark (pointer chase): latency-opencl, latency-cuda and
# their sanitizer build; its backend-free host code (the chain, the level
# rules, the host's walk) is unit-tested.

LT_SRC := bench/latency.c bench/latency_perm.c bench/latency_levels.c bench/latency_host.c
LT_OBJ := $(LT_SRC:%.c=$(BUILD)/obj/%.o)

OPENCL_BINS     += $(BUILD)/bin/latency-opencl
CUDA_BINS       += $(BUILD)/bin/latency-cuda
SAN_OPENCL_BINS += $(BUILD)/san/bin/latency-opencl
TESTED_SRC      += bench/latency_perm.c bench/latency_levels.c bench/latency_host.c

$(BUILD)/bin/latency-opencl: $(BUILD)/obj/opencl/latency_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                             $(BUILD)/obj/gen/latency_kernels_cl.o $(LT_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/bin/latency-cuda: $(BUILD)/obj/cuda/latency_cuda.o $(BUILD)/obj/cuda/cuda_device.o \
                           $(BUILD)/obj/cuda/latency_cuda_main.o $(LT_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

$(BUILD)/san/bin/latency-opencl: $(addprefix $(BUILD)/san/obj/,opencl/latency_opencl.o opencl/cl_device.o \
                                 gen/latency_kernels_cl.o) $(LT_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) \
                                 $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)
