# engine/: the rules engine (pure C; also built for wasm by web/part.mk).
ENGINE_SRC := engine/oware.c engine/search.c
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)

$(BUILD)/test_engine: $(BUILD)/tests/unit/test_engine.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(CHECK_LIBS)
EXTRA_CFLAGS_tests := $(CHECK_CFLAGS) $(JANSSON_CFLAGS)

.PHONY: test-engine
test-engine: $(BUILD)/test_engine
	$(BUILD)/test_engine
UNIT_TESTS += test-engine

$(BUILD)/bench_perft: $(BUILD)/tests/bench/bench_perft.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-perft
bench-perft: $(BUILD)/bench_perft
	$(BUILD)/bench_perft 11
BENCHES += bench-perft
