# The characterization report (build/tools/report): headline tables per
# device as Markdown and self-contained HTML, the comparison of two runs,
# and the check of a written report. Host code only; run_all.sh runs it.
REPORT_SRC := bench/report_model.c bench/report_text.c bench/report_extract.c bench/report_headlines.c \
              bench/report_render.c bench/report_compare.c bench/report_check.c bench/base64.c \
              bench/result_reader.c
REPORT_OBJ := $(REPORT_SRC:%.c=$(BUILD)/obj/%.o)
TOOLS      += $(BUILD)/tools/report
SAN_TOOLS  += $(BUILD)/san/tools/report
TESTED_SRC += $(REPORT_SRC)

$(BUILD)/tools/report: $(BUILD)/obj/bench/report_main.o $(REPORT_OBJ) $(BUILD)/obj/common/csv.o \
                       $(BUILD)/obj/common/tool_die.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/san/tools/report: $(BUILD)/san/obj/bench/report_main.o $(REPORT_OBJ:$(BUILD)/obj/%=$(BUILD)/san/obj/%) \
                           $(BUILD)/san/obj/common/csv.o $(BUILD)/san/obj/common/tool_die.o
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

# The run_all.sh test runs the script of this source tree.
$(BUILD)/tests/test_run_all_cli: CFLAGS += -DCR_SOURCE_DIR='"$(CURDIR)"'
