# tests/browser/: the web client in Chromium (playwright-core) against the
# real server; screenshots of the key screens go to $(BUILD)/screenshots/.
.PHONY: test-browser
test-browser: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm
	OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots \
		node --test --test-concurrency=1 tests/browser/
TESTS += test-browser

# A smoke test for `make check`: a room created and joined by two pages, and
# the local two-player game, from browser.test.mjs.
.PHONY: test-browser-smoke
test-browser-smoke: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm web/oware.egdb
	OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots node --test --test-concurrency=1 \
		--test-name-pattern='^(create a room, the link seats the opponent|the local two-player game)' \
		tests/browser/browser.test.mjs
