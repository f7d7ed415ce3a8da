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
