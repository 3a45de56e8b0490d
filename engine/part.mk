# engine/: the rules engine (pure C; also built for wasm by web/part.mk).
ENGINE_SRC := engine/oware.c engine/search.c engine/togyz.c
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)

$(BUILD)/bench_perft: $(BUILD)/tests/bench/bench_perft.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-perft
bench-perft: $(BUILD)/bench_perft
	$(BUILD)/bench_perft 11
BENCHES += bench-perft
