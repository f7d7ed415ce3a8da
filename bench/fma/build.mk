# The chain step is one header for the host truth, the OpenCL C and the CUDA
# kernels. The host recomputes the checked chains; built for this machine's
# vector width (as STREAM's host kernels are) and in parallel, so that
# checking takes no longer than the device's run.
fma_CL_EMBED := fma_chain_h
$(call embed,fma_chain_h,bench/fma/chain.h)
$(call object_flags,bench/fma/truth,$(HOST_OPT))
$(BUILD)/san/obj/bench/fma/truth.o: SAN_OPT :=
