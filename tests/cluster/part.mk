# tests/cluster/: the PostgreSQL store's pieces against a real, throwaway
# PostgreSQL (tests/cluster/pgtmp.sh): test-pg drives server/store/pg.c.
$(BUILD)/tests/cluster/test_pg.o: EXTRA_CFLAGS_tests += $(PQ_CFLAGS)

$(BUILD)/test_pg: $(BUILD)/tests/cluster/test_pg.o $(BUILD)/server/store/pg.o $(BUILD)/server/base/log.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(PQ_LIBS) -lev

.PHONY: test-pg
test-pg: $(BUILD)/test_pg
	sh tests/cluster/with-pg.sh $(BUILD)/test_pg
TESTS += test-pg

# The cluster test: three owared on a throwaway PostgreSQL behind nginx with
# the shipped upstream (deploy/nginx/oware-rooms-cluster.conf), owload
# through it; kill -9, restart, SIGSTOP, PostgreSQL stopped; owcheck after
# (tests/cluster/cluster.sh says what it checks). About a minute.
.PHONY: test-cluster
test-cluster: $(BUILD)/owared $(BUILD)/owload $(BUILD)/owcheck $(NODE_DEPS)
	sh tests/cluster/with-pg.sh timeout 300 sh tests/cluster/cluster.sh $(BUILD)
TESTS += test-cluster

# What players see on such a site: Chromium pages through nginx with the
# shipped cluster site over https, three owared on a throwaway PostgreSQL
# (tests/cluster/browser.test.mjs says what it checks). About 20 seconds;
# every test and hook has a time limit, so that nginx and the servers are
# always stopped.
.PHONY: test-cluster-browser
test-cluster-browser: $(NODE_DEPS) $(BUILD)/owared web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm
	sh tests/cluster/with-pg.sh env OWARED=$(BUILD)/owared SCREENSHOTS=$(BUILD)/screenshots/cluster \
		node --test --test-concurrency=1 tests/cluster/browser.test.mjs
TESTS += test-cluster-browser
# Timing-bound (a paused server's rooms taken over within the pause): run
# with no other suite beside it (docs/testing.md, "Running the suites").
TESTS_ALONE += test-cluster
