# tests/search/: unit tests of the search (engine/search.h).
$(BUILD)/test_search: $(BUILD)/tests/search/test_search.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(CHECK_LIBS)

.PHONY: test-search
test-search: $(BUILD)/test_search
	$(BUILD)/test_search
UNIT_TESTS += test-search
