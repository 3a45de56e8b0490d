# tests/web/: node tests of the web client, no browser: its shape (no
# import cycle, a sealed state, one owner per element, the kinds as
# records), its controllers' intents against fakes (online.test.mjs, study.test.mjs,
# local.test.mjs, start.test.mjs, event.test.mjs), its draws over a fake page (draw.test.mjs: no storage
# read, no focus moved), and its JSDoc types checked by tsc (types.test.mjs,
# tsconfig.json; TypeScript is a dev dependency of tests/ only).
.PHONY: test-web
test-web: web-static $(NODE_DEPS)
	node --test tests/web/
TESTS += test-web
