# tests/tools/: the tests' own tools. cpu-of: a command's CPU seconds with
# every process under it, those handed over by their ended parents too
# (tests/run-suites.sh's cpu column).
$(BUILD)/cpu-of: $(BUILD)/tests/tools/cpu-of.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
