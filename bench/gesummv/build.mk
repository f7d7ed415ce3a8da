# The row is one header for the OpenCL C and CUDA kernels. The host truth
# sums every row in long double; built for this machine and in parallel,
# so that checking takes no longer than the device's run.
gesummv_CL_EMBED := gesummv_row_h
$(call embed,gesummv_row_h,bench/gesummv/row.h)
$(call object_flags,bench/gesummv/truth,$(HOST_OPT))
$(BUILD)/san/obj/bench/gesummv/truth.o: SAN_OPT :=
