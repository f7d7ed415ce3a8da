# The database is SQLite's (Debian libsqlite3-dev); the CSVs are read with
# the shared reader. The tests of the tool are tests/test_db*.c.
db_LIBS := tool_shared.a
db_EXE := crossroof-db
DB_TEST_BINS := $(foreach d,tests tests-san,$(BUILD)/$(d)/test_db $(BUILD)/$(d)/test_db_%)
$(BUILD)/tools/crossroof-db $(BUILD)/san/tools/crossroof-db $(DB_TEST_BINS): LDLIBS += -lsqlite3
