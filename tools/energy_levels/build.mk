# The results are read with the shared reader.
energy_levels_LIBS := tool_shared.a
# Ranasinghe's Table 5.1 travels inside the tool, which reads no source
# tree; its object goes into the tool's archive so that the tests compare
# with the very table the tool writes.
$(call embed,energy_levels_table51_csv,results/reference/ranasinghe2014-table5.1.csv)
$(BUILD)/lib/tool_energy_levels.a: $(BUILD)/obj/gen/energy_levels_table51_csv.o
$(BUILD)/san/lib/tool_energy_levels.a: $(BUILD)/san/obj/gen/energy_levels_table51_csv.o
# Which rows stand for each level is each benchmark's word:
# bench/<name>/energy_levels.c, where there is one, and their list in the
# benchmarks' order, generated from the descriptors and rewritten only where
# it changed.
$(eval $(call bench_parts_rules,energy_levels,energy_levels,energy-levels))
