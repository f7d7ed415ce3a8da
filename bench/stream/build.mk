# The host references are compiled for this machine, as STREAM is.
stream_CL_EMBED := layout_cl stream_elements_h
$(call embed,stream_elements_h,bench/stream/elements.h)
$(call object_flags,bench/stream/host_ref,$(HOST_OPT))
