# xgraph: the X-model's parameters (R, L, M, delta, pi) fitted from a results
# directory, the architectural and application X-graphs (Li 2016, ch. 3).
# Host only: it reads CSVs and runs gnuplot, it needs no device.

# The fits, the model and the CSV reader: pure, unit-tested.
XG_SRC      := bench/result_reader.c bench/xgraph_fit.c bench/xgraph_cache.c bench/xgraph_model.c
# The tool around them: loading a results directory, parameter rows, figures.
XG_TOOL_SRC := $(XG_SRC) bench/xgraph_main.c bench/xgraph_data.c bench/xgraph_params.c bench/xgraph_plot.c \
               bench/xgraph_gnuplot.c bench/xgraph_reference.c bench/xgraph_app.c common/csv.c \
               common/tool_die.c
# The gnuplot scripts and Li's Table 3.2 travel inside the executable.
XG_GEN      := xgraph_arch_gp xgraph_app_gp xgraph_li2016_csv

TESTED_SRC += $(XG_SRC)
TOOLS      += $(BUILD)/tools/xgraph
SAN_TOOLS  += $(BUILD)/san/tools/xgraph

$(BUILD)/gen/xgraph_%_gp.c: plot/xgraph_%.gp opencl/embed.sh
	@mkdir -p $(@D)
	opencl/embed.sh xgraph_$*_gp $< > $@
$(BUILD)/gen/xgraph_li2016_csv.c: results/reference/li2016-table3.2.csv opencl/embed.sh
	@mkdir -p $(@D)
	opencl/embed.sh xgraph_li2016_csv $< > $@

$(BUILD)/tools/xgraph: $(XG_TOOL_SRC:%.c=$(BUILD)/obj/%.o) $(XG_GEN:%=$(BUILD)/obj/gen/%.o)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/san/tools/xgraph: $(XG_TOOL_SRC:%.c=$(BUILD)/san/obj/%.o) $(XG_GEN:%=$(BUILD)/san/obj/gen/%.o)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)
