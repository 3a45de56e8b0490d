# tests/store/: the store's failure paths, walked against the real server
# built with FAULTS=1 (server/store/fault.h: a plan file named by OW_FAULT_FILE
# makes the disk full or read-only, or fails the next N writes or commits).
# The plan's format: server/store/fault.h, and the head of tests/store/faults.test.mjs.
FAULT_BUILD := build/fault
STORE_TESTS := $(wildcard tests/store/*.test.mjs)

# From any other build: the fault build is a make of its own, like build/asan
# (one make for both programs, so that they never build an object twice at once).
ifneq ($(BUILD),$(FAULT_BUILD))
.PHONY: fault-build
fault-build:
	$(MAKE) --no-print-directory BUILD=$(FAULT_BUILD) FAULTS=1 $(FAULT_BUILD)/owared $(FAULT_BUILD)/test_fault \
		$(FAULT_BUILD)/test_store
$(FAULT_BUILD)/owared $(FAULT_BUILD)/test_fault $(FAULT_BUILD)/test_store: fault-build ;
endif

# Check tests of the plan and the failing VFS against SQLite itself.
$(BUILD)/test_fault: $(BUILD)/tests/store/test_fault.o $(BUILD)/server/store/fault.o $(BUILD)/server/base/log.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -pthread -o $@ $^ $(CHECK_LIBS) $(SQLITE_LIBS)

.PHONY: test-store-faults
test-store-faults: $(FAULT_BUILD)/owared $(FAULT_BUILD)/test_fault $(FAULT_BUILD)/test_store $(NODE_DEPS)
	$(FAULT_BUILD)/test_fault
	$(FAULT_BUILD)/test_store
	OWARED=$(FAULT_BUILD)/owared node --test --test-concurrency=1 $(STORE_TESTS)
TESTS += test-store-faults

# Check tests of both stores through store.h (tests/store/test_store.c):
# test-store on SQLite (one of the unit tests), test-store-pg on SQLite and
# a throwaway PostgreSQL (tests/cluster/with-pg.sh); the fault build adds
# the SQLite batch lost at its commit (test-store-faults).
$(BUILD)/tests/store/test_store.o: EXTRA_CFLAGS_tests += $(SQLITE_CFLAGS) $(PQ_CFLAGS)
$(BUILD)/test_store: $(BUILD)/tests/store/test_store.o $(BUILD)/server/store/store_sqlite.o \
		$(BUILD)/server/store/store_pg.o $(BUILD)/server/store/pg.o $(BUILD)/server/store/fault.o \
		$(BUILD)/server/base/log.o $(PROTO_OBJ) $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -pthread -o $@ $^ $(CHECK_LIBS) $(SQLITE_LIBS) $(PQ_LIBS) -lev \
		$(JANSSON_LIBS) $(ICU_LIBS)

.PHONY: test-store test-store-pg
test-store: $(BUILD)/test_store
	$(BUILD)/test_store
UNIT_TESTS += test-store
test-store-pg: $(BUILD)/test_store
	sh tests/cluster/with-pg.sh $(BUILD)/test_store
TESTS += test-store-pg
