# tests/cluster/: the PostgreSQL store's pieces against a real, throwaway
# PostgreSQL (tests/cluster/pgtmp.sh): test-pg drives server/pg.c.
$(BUILD)/tests/cluster/test_pg.o: EXTRA_CFLAGS_tests += $(PQ_CFLAGS)

$(BUILD)/test_pg: $(BUILD)/tests/cluster/test_pg.o $(BUILD)/server/pg.o $(BUILD)/server/log.o
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
