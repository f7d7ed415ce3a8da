# The run log and the result files are read with the shared reader.
gpu_check_LIBS := tool_shared.a
# What it judges is each benchmark's: bench/<name>/gpu_rules.c, where there
# is one, and their list in the benchmarks' order, generated from the
# descriptors and rewritten only where it changed.
GPU_RULES_SRC := $(wildcard $(BENCHMARKS:%=bench/%/gpu_rules.c))
$(BUILD)/gen/gpu_rules.c: FORCE
	@mkdir -p $(@D)
	@common/descriptor_gen.sh gpu-rules . > $@.new && { cmp -s $@.new $@ && rm $@.new || mv $@.new $@; } || { rm -f $@.new; exit 1; }
$(BUILD)/lib/tool_gpu_check.a: $(GPU_RULES_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/gpu_rules.o
$(BUILD)/san/lib/tool_gpu_check.a: $(GPU_RULES_SRC:%.c=$(BUILD)/san/obj/%.o) $(BUILD)/san/obj/gen/gpu_rules.o
