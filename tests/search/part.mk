# tests/search/: the search (engine/search.h) from the command line, in
# wasm and in the browser, and its benchmarks; its Check unit tests
# (test_search.c) are built by tests/unit/part.mk.

# Benchmarks: depth and speed in 1 s from the start (native, and wasm under
# node), and the match table of the levels (hard limited to 100k nodes a
# move to keep `make bench` near a minute; see tests/bench/bench_match.c).
$(BUILD)/bench_search: $(BUILD)/tests/bench/bench_search.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
$(BUILD)/bench_match: $(BUILD)/tests/bench/bench_match.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
BENCH_WASM_SRC := $(ENGINE_SRC) web/wasm/search_exports.c tests/bench/wasm_search.c
$(BUILD)/bench_search.wasm: $(BENCH_WASM_SRC) $(wildcard engine/*.h)
	@mkdir -p $(dir $@)
	clang-14 --target=wasm32 -std=c11 -O2 -nostdlib -mbulk-memory $(WARN) -I. \
		-fuse-ld=lld -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=1048576 \
		-o $@ $(BENCH_WASM_SRC)

.PHONY: bench-search bench-search-wasm bench-match
bench-search: $(BUILD)/bench_search
	$(BUILD)/bench_search 1000 10000000
bench-search-wasm: $(BUILD)/bench_search.wasm
	node tests/bench/bench_search.mjs $(BUILD)/bench_search.wasm 1000
bench-match: $(BUILD)/bench_match
	$(BUILD)/bench_match 100 100000
BENCHES += bench-search bench-search-wasm bench-match

# `oware best` on the command line .
.PHONY: test-best
test-best: $(BUILD)/oware
	sh tests/search/test_best.sh $(BUILD)/oware
TESTS += test-best

# web/ai.wasm under node: legal games, reproducible, same as native `oware
# best --depth N`; its analysis the same as `oware analyse --nodes N`.
.PHONY: test-ai-wasm
test-ai-wasm: web/ai.wasm $(BUILD)/oware
	OWARE=$(BUILD)/oware AI_WASM=web/ai.wasm node --test tests/search/ai_wasm.test.mjs \
		tests/search/analysis_wasm.test.mjs
TESTS += test-ai-wasm

# The computer player in Chromium (web/ai.js, web/ai-worker.js) through the
# real server.
.PHONY: test-ai-browser
test-ai-browser: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm
	OWARED=$(BUILD)/owared node --test tests/search/browser/
TESTS += test-ai-browser
