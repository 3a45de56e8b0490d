# engine/: the rules engine (pure C; also built for wasm by web/part.mk).
ENGINE_SRC := engine/oware.c engine/search.c engine/analysis.c engine/ogn.c engine/togyz.c
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)

$(BUILD)/bench_perft: $(BUILD)/tests/bench/bench_perft.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-perft
bench-perft: $(BUILD)/bench_perft
	$(BUILD)/bench_perft 11
BENCHES += bench-perft

# Togyz Kumalak perft: speed, and the deep counts of tests/data/togyz-perft.txt.
$(BUILD)/bench_perft_togyz: $(BUILD)/tests/bench/bench_perft_togyz.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-perft-togyz
bench-perft-togyz: $(BUILD)/bench_perft_togyz
	$(BUILD)/bench_perft_togyz 9
BENCHES += bench-perft-togyz
