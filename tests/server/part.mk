# tests/server/: integration tests of build/owared (node --test with `ws`),
# each against a fresh server on an ephemeral loopback port and a temporary database.
SERVER_TESTS := tests/server/game.test.mjs tests/server/limits.test.mjs \
	tests/server/restart.test.mjs \
	tests/server/attack.test.mjs
SERVER_TESTS += tests/server/names.test.mjs tests/server/chat.test.mjs tests/server/games.test.mjs
SERVER_TESTS += tests/server/clock.test.mjs tests/server/position.test.mjs tests/server/events.test.mjs
SERVER_TESTS += tests/server/togyz.test.mjs
SERVER_TESTS += tests/server/table.test.mjs
SERVER_TESTS += tests/server/http.test.mjs
SERVER_TESTS += tests/server/events-budget.test.mjs
SERVER_TESTS += tests/server/push.test.mjs

.PHONY: test-server
# clock.test.mjs also runs the test build (build/fault/owared, see
# tests/store/part.mk) for its time scale.
test-server: $(BUILD)/owared build/fault/owared $(BUILD)/pair_trf $(NODE_DEPS)
	PAIR_TRF=$(BUILD)/pair_trf OWARED=$(BUILD)/owared node --test --test-concurrency=1 $(SERVER_TESTS)
TESTS += test-server

# The same tests against owared built with AddressSanitizer and UBSan: a
# use after free or a leak fails them.
.PHONY: test-server-asan
test-server-asan: asan-build build/fault/owared $(BUILD)/pair_trf $(NODE_DEPS)
	OW_TEST_SLOW=3 PAIR_TRF=$(BUILD)/pair_trf OWARED=build/asan/owared node --test --test-concurrency=1 $(SERVER_TESTS)
TESTS += test-server-asan

# The same tests against owared on a throwaway PostgreSQL (--store
# postgresql://..., tests/cluster/with-pg.sh): each server's database path
# stands for a schema of its own; the tests that open the SQLite file
# themselves (schema migrations) are skipped. pg.test.mjs (last: it stops
# PostgreSQL for a while) tests what is the PostgreSQL store's own.
.PHONY: test-server-pg
test-server-pg: $(BUILD)/owared build/fault/owared $(BUILD)/pair_trf $(NODE_DEPS)
	PAIR_TRF=$(BUILD)/pair_trf OWARED=$(BUILD)/owared sh tests/cluster/with-pg.sh node --test --test-concurrency=1 \
		$(SERVER_TESTS) tests/server/takeover.test.mjs tests/server/events-cluster.test.mjs \
		tests/server/pg.test.mjs
TESTS += test-server-pg

# A club event at the scale of issue #49 (256 players, 16 followers with
# tokens that stop reading, 72 corrections: memory a slow follower holds,
# the CPU a change costs): timing-bound, run with no other suite beside it.
.PHONY: test-server-load
test-server-load: $(BUILD)/owared $(NODE_DEPS)
	OWARED=$(BUILD)/owared node --test --test-concurrency=1 tests/server/events-load.test.mjs
TESTS += test-server-load
TESTS_ALONE += test-server-load

# Timing-bound server tests (docs/testing.md, "Running the suites"): run
# with no other suite beside them. stall.test.mjs: a 256-player Swiss's
# slowest round paired while an unrelated clocked room plays; each move
# answered within STALL_DEADLINE_MS (500; the goal is 50 ms idle).
SERVER_TIMING_TESTS := tests/server/stall.test.mjs
.PHONY: test-server-timing
test-server-timing: $(BUILD)/owared $(NODE_DEPS)
	OWARED=$(BUILD)/owared node --test --test-concurrency=1 $(SERVER_TIMING_TESTS)
TESTS += test-server-timing
TESTS_ALONE += test-server-timing

# Issue 49 at the scale it was found (events-scale.test.mjs): a 256-player
# Swiss taken to 32 rounds through a table of 1,000 rooms (4,096 board
# rooms; several minutes on a loaded machine) and 500 events from one /24.
# Slow and timing-bound: run alone by `make test`.
.PHONY: test-server-scale
test-server-scale: $(BUILD)/owared $(NODE_DEPS)
	OWARED=$(BUILD)/owared node --test --test-concurrency=1 --test-timeout=1200000 \
		tests/server/events-scale.test.mjs
TESTS += test-server-scale
TESTS_ALONE += test-server-scale
