# The results are read with the shared reader; the theses' values and
# claims travel inside the tool, which reads no source tree.
reproduce_LIBS := tool_shared.a
$(call embed,reproduce_values_csv,results/reference/thesis-values.csv)
$(call embed,reproduce_claims_csv,results/reference/thesis-claims.csv)
$(BUILD)/lib/tool_reproduce.a: $(BUILD)/obj/gen/reproduce_values_csv.o $(BUILD)/obj/gen/reproduce_claims_csv.o
$(BUILD)/san/lib/tool_reproduce.a: $(BUILD)/san/obj/gen/reproduce_values_csv.o $(BUILD)/san/obj/gen/reproduce_claims_csv.o
# The unit test checks each thesis value against its line of the seed text
# beside the tree, where the texts are.
$(BUILD)/tests/test_reproduce $(BUILD)/tests-san/test_reproduce: CFLAGS += -DCR_SOURCE_DIR='"$(CURDIR)"'
# The targets each benchmark's rows answer are its own: bench/<name>/reproduce.c,
# where there is one, and their list in the benchmarks' order, generated
# from the descriptors and rewritten only where it changed.
$(eval $(call bench_parts_rules,reproduce,reproduce,reproduce))
