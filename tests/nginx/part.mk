# tests/nginx/: the shipped nginx sites in front of the real server.
.PHONY: test-nginx
test-nginx: $(BUILD)/owared $(BUILD)/oware web/engine.wasm web-static $(NODE_DEPS)
	node --test tests/nginx/
TESTS += test-nginx
