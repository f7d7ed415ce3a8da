# The comparison reads both runs through the results database (tools/db).
report_LIBS := tool_db.a tool_shared.a
$(BUILD)/tools/report $(BUILD)/san/tools/report \
  $(foreach d,tests tests-san,$(BUILD)/$(d)/test_report $(BUILD)/$(d)/test_report_%): LDLIBS += -lsqlite3
# Lee 2012 Table 4.1 travels inside the report, which is installed and reads
# no source tree. Its object goes into the report's archive rather than
# report_GEN, so that the tests link the very table the tool shows.
$(call embed,report_lee2012_table41_csv,results/reference/lee2012-table4.1.csv)
$(BUILD)/lib/tool_report.a: $(BUILD)/obj/gen/report_lee2012_table41_csv.o
$(BUILD)/san/lib/tool_report.a: $(BUILD)/san/obj/gen/report_lee2012_table41_csv.o
# The parts of the report each benchmark and tool contributes from its own
# folder (report_section.c and the report_*.c beside it), gathered into one
# table by tools/report/parts.sh; all go into the report's archive, where
# the tool and its tests find them. The table is rewritten only when it
# changes, so that a part added or removed is seen.
REPORT_PART_SRC := $(wildcard bench/*/report_*.c tools/*/report_section.c)
$(BUILD)/gen/report_parts.c: tools/report/parts.sh FORCE
	@mkdir -p $(@D)
	@tools/report/parts.sh > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
$(BUILD)/lib/tool_report.a: $(REPORT_PART_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/report_parts.o
$(BUILD)/san/lib/tool_report.a: $(REPORT_PART_SRC:%.c=$(BUILD)/san/obj/%.o) $(BUILD)/san/obj/gen/report_parts.o
