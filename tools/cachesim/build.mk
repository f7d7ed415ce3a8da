# A trace is opened as every file a tool reads (tools/shared/bounded_file.h).
cachesim_LIBS := tool_shared.a
