# The SFU benchmark: the design's host objects (the function table and the
# MPFR reference are linked as far as they exist), the OpenCL executable with
# its embedded kernels, and its build under the sanitizers.
SFU_OBJ := $(addprefix $(BUILD)/obj/bench/,sfu.o sfu_errors.o sfu_timing.o sfu_verify.o sfu_table.o) \
           $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bench/sfu_functions.c bench/sfu_accuracy.c))

# The chain check is backend-free; common/tests/test_sfu_verify.c tests it.
TESTED_SRC      += bench/sfu_verify.c

OPENCL_BINS     += $(BUILD)/bin/sfu-opencl
SAN_OPENCL_BINS += $(BUILD)/san/bin/sfu-opencl

$(BUILD)/bin/sfu-opencl: $(BUILD)/obj/opencl/sfu_opencl.o $(BUILD)/obj/opencl/cl_device.o \
                         $(BUILD)/obj/gen/sfu_kernels_cl.o $(SFU_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)

$(BUILD)/san/bin/sfu-opencl: $(addprefix $(BUILD)/san/obj/,opencl/sfu_opencl.o opencl/cl_device.o \
                             gen/sfu_kernels_cl.o) $(SFU_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) \
                             $(COMMON_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%)
	@mkdir -p $(@D)
	$(CC) $(SAN) -fopenmp -o $@ $^ -lOpenCL $(LDLIBS)
