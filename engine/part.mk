# engine/: the rules engine (pure C; also built for wasm by web/part.mk).
ENGINE_SRC := engine/oware.c engine/egdb.c engine/search_common.c engine/search.c \
	engine/analysis.c engine/ogn.c engine/togyz.c engine/togyz_search.c
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

# The endgame database (engine/egdb.h): every board of up to EGDB_SEEDS
# seeds, by retrograde analysis (cli/egdb_gen.c), for the native tools
# ($(BUILD)/oware.egdb) and the web client (web/oware.egdb).
EGDB_SEEDS ?= 12
$(BUILD)/egdb_gen: $(BUILD)/cli/egdb_gen.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
$(BUILD)/oware.egdb: $(BUILD)/egdb_gen
	$(BUILD)/egdb_gen $(EGDB_SEEDS) $@.tmp && mv $@.tmp $@
web/oware.egdb: $(BUILD)/oware.egdb
	cp $< $@
.PHONY: egdb
egdb: $(BUILD)/oware.egdb web/oware.egdb
ALL += $(BUILD)/oware.egdb web/oware.egdb
CLEAN += web/oware.egdb
# Other builds (build/asan) use the normal build's database.
ifneq ($(BUILD),build)
.PHONY: build/oware.egdb
build/oware.egdb:
	$(MAKE) --no-print-directory BUILD=build build/oware.egdb
endif

# Togyz Kumalak levels against each other (tests/bench/bench_togyz_match.c).
$(BUILD)/bench_togyz_match: $(BUILD)/tests/bench/bench_togyz_match.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-togyz-match
bench-togyz-match: $(BUILD)/bench_togyz_match
	$(BUILD)/bench_togyz_match 40 100000
BENCHES += bench-togyz-match

# Togyz Kumalak search: depth and speed in 1 s, native and wasm under node.
.PHONY: bench-togyz-search
bench-togyz-search: $(BUILD)/oware web/togyz-ai.wasm
	OWARE=$(BUILD)/oware TOGYZ_AI_WASM=web/togyz-ai.wasm node tests/bench/bench_togyz_search.mjs
BENCHES += bench-togyz-search
