# The SFU benchmark's backend-free host code: the function table, sampling,
# special inputs, the MPFR reference (parallel with OpenMP) and the metrics.
TESTED_SRC += bench/sfu_functions.c bench/sfu_accuracy.c
$(BUILD)/obj/bench/sfu_accuracy.o $(BUILD)/san/obj/bench/sfu_accuracy.o: CFLAGS += -fopenmp
