report_LIBS := tool_shared.a
