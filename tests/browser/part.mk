# tests/browser/: the web client in Chromium (playwright-core) against the
# real server; screenshots of the key screens go to $(BUILD)/screenshots/.
.PHONY: test-browser
test-browser: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm
	OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots \
		node --test --test-concurrency=1 tests/browser/
TESTS += test-browser
