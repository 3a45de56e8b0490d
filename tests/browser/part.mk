# tests/browser/: the web client in Chromium (playwright-core) against the
# real server; screenshots of the key screens go to $(BUILD)/screenshots/.
# `make test-browser` runs every file and takes the screenshots; `make test`
# runs them as three suites of a few minutes each (test-browser-1, -2, -3),
# side by side, and takes none (SCREENSHOTS unset: see lib.mjs).
BROWSER_FILES := $(sort $(wildcard tests/browser/*.test.mjs))
BROWSER_FILES_2 := $(addprefix tests/browser/,axe.test.mjs ear.test.mjs offline.test.mjs puzzles.test.mjs togyz.test.mjs ux.test.mjs wording.test.mjs words.test.mjs)
BROWSER_FILES_3 := $(addprefix tests/browser/,event.test.mjs languages.test.mjs learn.test.mjs levels.test.mjs transfer.test.mjs)
BROWSER_FILES_1 := $(filter-out $(BROWSER_FILES_2) $(BROWSER_FILES_3),$(BROWSER_FILES))
BROWSER_DEPS := $(NODE_DEPS) $(BUILD)/owared $(BUILD)/oware web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm web-static
.PHONY: test-browser test-browser-1 test-browser-2 test-browser-3
test-browser: $(BROWSER_DEPS)
	OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots \
		node --test --test-concurrency=1 $(BROWSER_FILES)
test-browser-1 test-browser-2 test-browser-3: $(BROWSER_DEPS)
	OWARED=$(BUILD)/owared node --test --test-concurrency=1 $(BROWSER_FILES_$(subst test-browser-,,$@))
TESTS += test-browser-1 test-browser-2 test-browser-3

# A smoke test for `make check`: a room created and joined by two pages, and
# the local two-player game, from browser.test.mjs.
.PHONY: test-browser-smoke
test-browser-smoke: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm web/oware.egdb
	OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots node --test --test-concurrency=1 \
		--test-name-pattern='^(create a room, the link seats the opponent|the local two-player game)' \
		tests/browser/browser.test.mjs
