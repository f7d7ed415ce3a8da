# The gnuplot scripts and Li's Table 3.2 travel inside the executable.
xgraph_GEN  := xgraph_arch_gp xgraph_app_gp xgraph_li2016_csv
xgraph_LIBS := tool_shared.a
$(call embed,xgraph_arch_gp,plot/xgraph_arch.gp)
$(call embed,xgraph_app_gp,plot/xgraph_app.gp)
$(call embed,xgraph_li2016_csv,results/reference/li2016-table3.2.csv)
