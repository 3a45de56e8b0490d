# tests/search/: the search (engine/search.h) from the command line, in
# wasm and in the browser; its Check unit tests (test_search.c) are built
# by tests/unit/part.mk, its benchmarks by tests/bench/part.mk.

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
