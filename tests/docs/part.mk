# tests/docs/: the documentation holds together: every relative link and
# anchor of the Markdown files resolves, and every flag and OW_* variable
# of `owared --help` is in docs/running.md (test-docs); and the code keeps
# the shape docs/server.md and docs/web-client.md describe (the layers, no
# circle, functions, the state's importers: tests/tools/limits.mjs).
.PHONY: test-docs docs-picture
test-docs: $(BUILD)/owared
	OWARED=$(BUILD)/owared node tests/docs/check-docs.mjs
	node tests/tools/limits.mjs
TESTS += test-docs

# The README's picture, taken again: the first tests of
# tests/browser/browser.test.mjs play an online game, whose page saves
# readme-game.png on the way; reduced to 256 colours, it is docs/img/game.png.
DOCS_PICTURE_TESTS := create a room|hovering a pit|a full game played by clicking
docs-picture: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm
	rm -f $(BUILD)/screenshots/readme-game.png
	OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots \
		node --test --test-concurrency=1 --test-name-pattern='$(DOCS_PICTURE_TESTS)' \
		tests/browser/browser.test.mjs
	node tests/docs/png-palette.mjs $(BUILD)/screenshots/readme-game.png docs/img/game.png
