# The run log and the result files are read with the shared reader.
gpu_check_LIBS := tool_shared.a
