# The run log and the result files are read with the shared reader.
gpu_check_LIBS := tool_shared.a
# What it judges is each benchmark's: bench/<name>/gpu_rules.c, where there
# is one, and their list in the benchmarks' order, generated from the
# descriptors and rewritten only where it changed.
$(eval $(call bench_parts_rules,gpu_check,gpu_rules,gpu-rules))
