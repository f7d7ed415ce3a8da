# fma: FMA throughput against concurrency per compute unit for 1..8
# independent chains per work-item, the X-model's g(x) (bench/fma.h).
FMA_OBJ := $(addprefix $(BUILD)/obj/bench/,fma.o fma_reference.o fma_launch.o)

OPENCL_BINS     += $(BUILD)/bin/fma-opencl
CUDA_BINS       += $(BUILD)/bin/fma-cuda
SAN_OPENCL_BINS += $(BUILD)/san/bin/fma-opencl
TESTED_SRC      += bench/fma_reference.c bench/fma_launch.c

# The host recomputes the checked chains; built for this machine's vector
# width (as STREAM's host kernels are) and in parallel, so that checking
# takes no longer than the device's run.
$(BUILD)/obj/bench/fma_reference.o $(BUILD)/san/obj/bench/fma_reference.o: CFLAGS += $(HOST_OPT)

$(BUILD)/bin/fma-opencl: $(BUILD)/obj/opencl/fma_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                         $(BUILD)/obj/gen/fma_kernels_cl.o $(FMA_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/bin/fma-cuda: $(BUILD)/obj/cuda/fma_cuda.o $(BUILD)/obj/cuda/cuda_device.o \
                       $(BUILD)/obj/cuda/fma_cuda_main.o $(FMA_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(NVCC) -o $@ $^ -Xcompiler -fopenmp $(LDLIBS)

$(BUILD)/san/bin/fma-opencl: $(addprefix $(BUILD)/san/obj/,opencl/fma_opencl.o opencl/cl_device.o \
                             gen/fma_kernels_cl.o) $(FMA_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) \
                             $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)
