# tests/server/: integration tests of build/owared (node --test with `ws`),
# each against a fresh server on an ephemeral loopback port and a temporary database.
SERVER_TESTS := tests/server/game.test.mjs tests/server/limits.test.mjs \
	tests/server/restart.test.mjs

.PHONY: test-server
test-server: $(BUILD)/owared $(NODE_DEPS)
	OWARED=$(BUILD)/owared node --test --test-concurrency=1 $(SERVER_TESTS)
TESTS += test-server
